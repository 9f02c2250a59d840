import ArgumentParsing
import DomainInterface
import Store

/// Checks a report command makes before analysing, so that it never succeeds quietly with an
/// empty report (issue 12): a domain without any data. `report nightly` skips (and logs) a domain
/// without data instead of failing. (A period that has not begun at as-of is the domain's own
/// option check: `ReportPeriod.requireBegun`.)
enum ReportPreconditions {
    /// Fails with one line when the database holds no record of any kind of `module`, as the
    /// fleet report does when no event was imported.
    static func requireData(of module: DomainModule, _ context: CommandContext) throws {
        guard try hasData(of: module, context) else {
            throw CommandFailure(
                "\(context.databasePath) holds no \(module.name) data; import its exports first ("
                    + module.kinds.map(\.name).joined(separator: ", ") + ")")
        }
    }

    /// Whether the database holds any record of any kind of `module`.
    static func hasData(of module: DomainModule, _ context: CommandContext) throws -> Bool {
        try DatabaseAccess.withSnapshot(context) { try module.hasData($0) }
    }
}
