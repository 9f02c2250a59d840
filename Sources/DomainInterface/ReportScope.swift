import ArgumentParsing
import Time

/// One report the database holds data for, as `report status` lists it and `report fleet` without
/// `--event` prints it: the options that ask for it, what it covers and how much data it has.
public struct ReportScope: Sendable, Equatable {
    /// The domain (`fleet`).
    public let domain: String
    /// The options that make this report (`--event salon2016`, `--month 2026-11`,
    /// `--from 2026-10-01 --to 2026-11-28`).
    public let options: String
    /// A name for people (the event's name), empty when the options say it all.
    public let name: String
    /// The first and last day the data covers.
    public let from: Day
    public let to: Day
    /// How much data, and of what (`292 loans`, `177 bookings`, `9 users`).
    public let count: Int
    public let unit: String

    public init(domain: String, options: String, name: String = "", from: Day, to: Day, count: Int, unit: String) {
        self.domain = domain
        self.options = options
        self.name = name
        self.from = from
        self.to = to
        self.count = count
        self.unit = unit
    }

    /// `from to to`, or the one day.
    public var range: String { from == to ? from.description : "\(from) to \(to)" }
}

/// A report command given no scope where it needs one (`report fleet` without `--event`): the
/// command lists the domain's `ReportScope`s instead of writing a report. A usage error when a
/// report was asked for (a format, `--table`), so that a script never takes the list for one.
public struct ScopeRequired: ExitCodeError, CustomStringConvertible {
    /// The option that names the scope (`event`).
    public let option: String
    public init(option: String) { self.option = option }
    public var description: String { "--\(option) is required" }
    public var exitCode: ExitCode { .usage }
}
