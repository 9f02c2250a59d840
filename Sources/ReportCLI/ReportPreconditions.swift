import ReportCore

/// Checks a report command makes before analysing, so that it never succeeds quietly with an
/// empty report (issue 12): a domain without any data, a period that has not begun at as-of.
/// `report nightly` skips (and logs) a domain without data instead of failing.
enum ReportPreconditions {
    /// Fails with one line when the database holds no record of any kind of `domain`, as the
    /// fleet report does when no event was imported.
    static func requireData(of domain: ExportKind.Domain, _ context: CommandContext) throws {
        let kinds = ExportKind.allCases.filter { $0.domain == domain }
        guard try hasData(of: domain, context) else {
            throw CommandFailure("\(context.databasePath) holds no \(domain.rawValue) data; import its exports first ("
                                 + kinds.map(\.name).joined(separator: ", ") + ")")
        }
    }

    /// Whether the database holds any record of any kind of `domain`.
    static func hasData(of domain: ExportKind.Domain, _ context: CommandContext) throws -> Bool {
        let kinds = ExportKind.allCases.filter { $0.domain == domain }
        return try ReportOutput.withDatabase(context) { database in
            try kinds.contains { try database.scalarInt("SELECT EXISTS (SELECT 1 FROM \"\($0.name)\")") == 1 }
        }
    }

    /// A usage error when the period starts after as-of everywhere on Earth (UTC+14, the
    /// earliest zone), so a typo in a year is not a report of nothing.
    static func requirePeriodBegun(from: Day, asOf: Timestamp) throws {
        let latestToday = asOf.localWallClock(offsetSeconds: 14 * 3600).day
        guard from <= latestToday else {
            throw UsageError("the period starts on \(from), after --as-of \(asOf): nothing has happened yet; "
                             + "give an earlier period or a later --as-of")
        }
    }
}
