/// The exit codes of SPEC §7.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// Nothing, or not everything, could be done.
    case failure = 1
    case usage = 2
    /// Done, but records were rejected.
    case rejected = 3
    /// `report nightly` only: another run holds the lock, so this one did nothing. Not in SPEC §7
    /// (0–3): a cron job needs to tell "skipped, already running" from "failed".
    case busy = 4
    /// A report's period holds no data (SPEC §7); `--allow-empty` makes it a success with the
    /// report written, and `report nightly` passes it and logs the line.
    case emptyPeriod = 5
}

/// An error that carries its exit code: the one way every command maps an error to a code, so
/// the same problem gives the same code in every command. An error that is not one of these is a
/// failure (1).
public protocol ExitCodeError: Error {
    var exitCode: ExitCode { get }
}

extension UsageError: ExitCodeError {
    public var exitCode: ExitCode { .usage }
}

/// A report whose period holds no data, with the line that says so and what the data covers
/// (`no habits data on 2026-12-03; the data covers 2026-10-01 to 2026-11-28`). Exit code 5.
public struct EmptyPeriod: ExitCodeError, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
    public var exitCode: ExitCode { .emptyPeriod }
}

/// A failure with a one-line message for the user. Exit code 1.
public struct CommandFailure: ExitCodeError, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
    public var exitCode: ExitCode { .failure }
}
