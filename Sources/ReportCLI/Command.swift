import ArgumentParsing
import DomainInterface
import Foundation
import ReportApp
import Store
import Time

/// What every command gets: its parsed arguments, the console, the environment and the
/// registered domain modules. A command reads its options once, through their declarations
/// (`CommonOptions`, its own), into the values the application's entry points take.
public struct CommandContext: Sendable {
    public let arguments: ParsedArguments
    public let console: Console
    public let environment: [String: String]
    public let modules: [DomainModule]

    /// `--db`, else `$REPORT_DB`, else `report.sqlite` in the current folder (also for a command
    /// without `--db`, whose failures may still name the database).
    public var databasePath: String {
        let given =
            arguments.declared.contains(CommonOptions.database.name)
            ? try? arguments.value(CommonOptions.database) : nil
        return given ?? environment["REPORT_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "report.sqlite"
    }

    /// The default wait for the write lock: long enough for a nightly import of a few GB running
    /// beside a person's import, short enough that a stuck process is noticed within the hour.
    public static let defaultBusyTimeoutSeconds = 60.0

    /// The database and how long to wait for its lock: `--busy-timeout`, else
    /// `$REPORT_BUSY_TIMEOUT`, else 60 s; a bad value is a usage error naming where it came from.
    public func databaseSettings() throws(UsageError) -> DatabaseSettings {
        let (text, source): (String?, String) =
            (try arguments.value(CommonOptions.busyTimeout)).map { ($0, "--busy-timeout") }
            ?? (environment["REPORT_BUSY_TIMEOUT"].flatMap { $0.isEmpty ? nil : $0 }, "$REPORT_BUSY_TIMEOUT")
        var milliseconds = Int32(Self.defaultBusyTimeoutSeconds * 1000)
        if let text {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                throw UsageError("\(source): invalid number of seconds \"\(text)\" (0 to 86400, e.g. 0.5 or 60)")
            }
            milliseconds = Int32((seconds * 1000).rounded())
        }
        return DatabaseSettings(path: try databaseLocation(), busyTimeoutMilliseconds: milliseconds)
    }

    /// `databasePath`, refused with a usage error when it cannot name a database: `mysql://…`,
    /// `sqlite:///path`, a URL of a scheme that names no database this tool opens, would be taken
    /// for a SQLite file path and fail as something else (issue 30).
    public func databaseLocation() throws(UsageError) -> String {
        let path = databasePath
        if let reason = StoreLocation.unsupportedReason(path) {
            let given =
                arguments.declared.contains(CommonOptions.database.name) && arguments.has(CommonOptions.database)
            throw UsageError((given ? "--db: " : "$REPORT_DB: ") + reason)
        }
        return path
    }

    /// `--as-of` parsed, or now.
    public func asOf() throws(UsageError) -> Timestamp {
        if let stamp = try arguments.value(CommonOptions.asOf) { return stamp }
        let micros = Int64(Date().timeIntervalSince1970 * 1_000_000)
        return Timestamp(microseconds: micros - micros % 1_000_000)
    }
}

/// A subcommand: a static spec and a run method returning an exit code.
public protocol Command: Sendable {
    static var spec: CommandSpec { get }
    static func run(_ context: CommandContext) throws -> ExitCode
}

/// A command as the tool lists and runs it: the fixed commands and one report command per
/// registered domain alike.
public struct CommandEntry: Sendable {
    public let spec: CommandSpec
    public let run: @Sendable (CommandContext) throws -> ExitCode

    public init(spec: CommandSpec, run: @escaping @Sendable (CommandContext) throws -> ExitCode) {
        self.spec = spec
        self.run = run
    }

    init(_ command: any Command.Type) {
        spec = command.spec
        run = { try command.run($0) }
    }
}
