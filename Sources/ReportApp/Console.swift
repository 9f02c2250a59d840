import ByteOutput
import Store
import Foundation

/// Where a command writes: standard output for results, standard error for messages and progress.
/// Tests pass a capturing console to read both.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: (String) -> Void
    private let writeError: (String) -> Void
    /// Standard error is a terminal: a progress line may be drawn (never under cron).
    public let errorIsTerminal: Bool
    /// `--quiet`: informational lines and progress are dropped. Behind the lock, as everything
    /// the threads of `report nightly` share here.
    public var quiet: Bool {
        get {
            lock.lock(); defer { lock.unlock() }
            return quietLocked
        }
        set {
            lock.lock(); defer { lock.unlock() }
            quietLocked = newValue
        }
    }
    private var quietLocked = false
    private var progressShown = false
    /// The passwords of the connection strings the command was given: every line written to
    /// standard error has each whole password (and a quoted piece of one) masked (issue 30),
    /// whatever message quotes them; libpq's messages and the location come masked piece by piece.
    public var secrets: ConnectionSecrets {
        get {
            lock.lock(); defer { lock.unlock() }
            return secretsLocked
        }
        set {
            lock.lock(); defer { lock.unlock() }
            secretsLocked = newValue
        }
    }
    private var secretsLocked = ConnectionSecrets(locations: [])

    /// Whether bulk output (a CSV table, a Markdown report) streams to the real standard output;
    /// otherwise it is collected and passed to `out` (tests).
    private let streamsToStandardOutput: Bool

    public init(out: @escaping (String) -> Void, error: @escaping (String) -> Void, errorIsTerminal: Bool) {
        writeOut = out
        writeError = error
        self.errorIsTerminal = errorIsTerminal
        streamsToStandardOutput = false
    }

    private init(standardErrorIsTerminal: Bool) {
        writeOut = { text in FileHandle.standardOutput.write(Data(text.utf8)) }
        writeError = { text in FileHandle.standardError.write(Data(text.utf8)) }
        errorIsTerminal = standardErrorIsTerminal
        streamsToStandardOutput = true
    }

    /// The process's real standard output and error.
    public static func standard() -> Console {
        Console(standardErrorIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// Writes bulk output through a byte sink: streamed to standard output (a million-row CSV
    /// never sits in memory), or collected for a test console.
    public func withOutputSink(_ body: (ByteSink) throws -> Void) throws {
        clearProgress()
        if streamsToStandardOutput {
            let sink = ByteSink.standardOutput()
            try body(sink)
            try sink.flush()
        } else {
            let sink = ByteSink()
            try body(sink)
            try sink.flush()
            let text = try sink.collectedText()
            lock.lock(); defer { lock.unlock() }
            writeOut(text)
        }
    }

    /// A result line, on standard output.
    public func output(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        clearProgressLocked()
        writeOut(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// An informational line on standard error, dropped by `--quiet`.
    public func info(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        guard !quietLocked else { return }
        clearProgressLocked()
        writeError(secretsLocked.mask(text, pieces: false) + "\n")
    }

    /// A warning or error line on standard error, always shown.
    public func error(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        clearProgressLocked()
        writeError(secretsLocked.mask(text, pieces: false) + "\n")
    }

    /// Redraws the one progress line, only when standard error is a terminal.
    public func progress(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        guard errorIsTerminal, !quietLocked else { return }
        writeError("\r\u{1B}[K" + secretsLocked.mask(text, pieces: false))
        progressShown = true
    }

    public func clearProgress() {
        lock.lock(); defer { lock.unlock() }
        clearProgressLocked()
    }

    private func clearProgressLocked() {
        if progressShown {
            writeError("\r\u{1B}[K")
            progressShown = false
        }
    }
}
