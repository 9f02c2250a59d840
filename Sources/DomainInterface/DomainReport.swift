import ArgumentParsing
import ReportModel
import Store
import Time

/// A domain's report command: its name, help and own options, and how a request for the report
/// is made from the parsed arguments. The application adds the options every report shares
/// (`--as-of`, `--db`, the formats), opens the database and writes the files.
public struct DomainReport: Sendable {
    /// Name, abstract, discussion and the domain's own options (the shared ones come after them).
    public let command: CommandSpec
    /// Validates the domain's options once, in one place, and returns what to run. Throws an
    /// `ExitCodeError` (a usage error for an option the user must correct).
    public let request: @Sendable (_ arguments: ParsedArguments, _ asOf: Timestamp) throws -> ReportRequest
    /// A database holding no record of the domain's kinds fails the command (and makes
    /// `report nightly` skip the domain) instead of giving an empty report: a quiet success
    /// hides a broken export. A domain with its own message for that case says false.
    public let requiresData: Bool

    public init(
        command: CommandSpec, requiresData: Bool = true,
        request: @escaping @Sendable (ParsedArguments, Timestamp) throws -> ReportRequest
    ) {
        self.command = command
        self.requiresData = requiresData
        self.request = request
    }
}

/// Checks of a report's period shared by the domains.
public enum ReportPeriod {
    /// A usage error when the period starts after as-of everywhere on Earth (UTC+14, the
    /// earliest zone), so a typo in a year is not a report of nothing.
    public static func requireBegun(from: Day, asOf: Timestamp) throws(UsageError) {
        let latestToday = asOf.localWallClock(offsetSeconds: 14 * 3600).day
        guard from <= latestToday else {
            throw UsageError(
                "the period starts on \(from), after --as-of \(asOf): nothing has happened yet; "
                    + "give an earlier period or a later --as-of")
        }
    }
}

/// One report to make: what the nightly log calls it and the analysis that makes it from a
/// database read in one snapshot.
public struct ReportRequest: Sendable {
    /// `habits`, `bookings`, `fleet salon2016`.
    public let label: String
    public let make: @Sendable (Database) throws -> Report

    public init(label: String, make: @escaping @Sendable (Database) throws -> Report) {
        self.label = label
        self.make = make
    }
}

extension Option where Value == Day {
    /// A date option `YYYY-MM-DD`; a bad value is a usage error naming the option.
    public static func day(_ name: String, help: String) -> Option<Day> {
        Option(name, "DATE", help: help) { (text: String) throws(UsageError) in
            guard let day = Day(text) else { throw UsageError("--\(name): invalid date \"\(text)\" (use YYYY-MM-DD)") }
            return day
        }
    }
}
