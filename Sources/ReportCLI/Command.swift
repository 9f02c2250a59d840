import DomainInterface
import Foundation
import ArgumentParsing
import Time

/// What every command gets: its parsed arguments, the console, the environment and the
/// registered domain modules. Sendable: `report nightly` makes its reports on several threads.
public struct CommandContext: Sendable {
    public let arguments: ParsedArguments
    public let console: Console
    public let environment: [String: String]
    public let modules: [DomainModule]

    /// `--db`, else `$REPORT_DB`, else `report.sqlite` in the current folder.
    public var databasePath: String {
        arguments.value("db") ?? environment["REPORT_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "report.sqlite"
    }

    /// The default wait for the write lock: long enough for a nightly import of a few GB running
    /// beside a person's import, short enough that a stuck process is noticed within the hour.
    public static let defaultBusyTimeoutSeconds = 60.0

    /// `--busy-timeout`, else `$REPORT_BUSY_TIMEOUT`, else 60 s, in milliseconds for SQLite: how long
    /// a command waits for a lock another process holds before failing with a clear message.
    public func busyTimeoutMilliseconds() throws(UsageError) -> Int32 {
        let (text, source): (String?, String) =
            arguments.value("busy-timeout").map { ($0, "--busy-timeout") }
            ?? (environment["REPORT_BUSY_TIMEOUT"].flatMap { $0.isEmpty ? nil : $0 }, "$REPORT_BUSY_TIMEOUT")
        guard let text else { return Int32(Self.defaultBusyTimeoutSeconds * 1000) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw UsageError("\(source): invalid number of seconds \"\(text)\" (0 to 86400, e.g. 0.5 or 60)")
        }
        return Int32((seconds * 1000).rounded())
    }

    /// `--as-of` parsed, or now; a bad value is a usage error.
    public func asOf() throws(UsageError) -> Timestamp {
        guard let text = arguments.value("as-of") else {
            let micros = Int64(Date().timeIntervalSince1970 * 1_000_000)
            return Timestamp(microseconds: micros - micros % 1_000_000)
        }
        guard let stamp = Timestamp(text) else {
            throw UsageError("--as-of: invalid timestamp \"\(text)\" (use e.g. 2026-11-29T06:00:00+01:00)")
        }
        return stamp
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
