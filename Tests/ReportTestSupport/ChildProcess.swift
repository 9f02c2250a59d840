import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The real `report` binary run as a child process, for what an in-process run cannot show: peak
/// memory (of that one child, measured by `/usr/bin/time`: see `measuringPeak`), two processes
/// sharing a database, a working folder of its own.
///
/// Output goes to files in a private temporary folder (never the test's folder, whose contents
/// some tests compare), read back when the child has exited.
public final class ChildProcess {
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number when the child was killed.
        public let status: Int32
        public let out: String
        public let err: String
        /// Peak resident memory of the child, in kilobytes: nil unless it was started `measuringPeak`.
        public let peakKilobytes: Int?
        public var errLines: [String] { err.split(separator: "\n").map(String.init) }
        public var outLines: [String] { out.split(separator: "\n").map(String.init) }
        public var peakMegabytes: Double? { peakKilobytes.map { Double($0) / 1024 } }
    }

    /// Thrown (failing the test, never skipping it) when the binary is not built.
    public struct Missing: Error, CustomStringConvertible { public let description: String }

    public let pid: pid_t
    private let outputFolder: URL
    private let measuresPeak: Bool
    private var finished: Result?

    /// The `report` executable built beside the test bundle (`swift build` puts both in the
    /// products folder). A missing binary fails the test: these tests exist to run it.
    public static func reportBinary() throws -> String {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("report").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("report").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/report").path,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Missing(
                description:
                    "the report binary is missing (looked at \(candidates.joined(separator: ", "))); run `swift "
                    + "build` first"
            )
        }
        return found
    }

    /// The release binary when it is at least as new as the debug one (a stale release build would
    /// test old code), else the debug binary: for the slow volume test, where speed matters.
    public static func fastestReportBinary() throws -> String {
        let debug = try reportBinary()
        let release = URL(fileURLWithPath: debug).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("release/report").path
        let manager = FileManager.default
        guard manager.isExecutableFile(atPath: release),
            let releaseDate = try? manager.attributesOfItem(atPath: release)[.modificationDate] as? Date,
            let debugDate = try? manager.attributesOfItem(atPath: debug)[.modificationDate] as? Date,
            releaseDate >= debugDate
        else { return debug }
        return release
    }

    /// GNU time (Debian's `time`, one of the Makefile's `APT_PACKAGES`).
    static let timeBinary = "/usr/bin/time"

    /// Starts `executable arguments…`; `environment` is added to this process's own, from which
    /// the `REPORT_*` variables are removed so that the developer's settings cannot leak in.
    ///
    /// `measuringPeak` runs the child under `/usr/bin/time`, which forks it and reports its
    /// `ru_maxrss`. `wait4` on a child spawned from here cannot: `posix_spawn` starts the child in
    /// this process's memory (`CLONE_VM`), and at `exec` Linux carries the high-water mark of that
    /// memory into the child's own. So the figure would be the larger of this test process's peak
    /// and the child's: in one CI run both imports of `HostileVolumeTests` measured 100.4 MB, the
    /// test process's peak (the 50 MB import's own is about 60 MB in a debug build). The small
    /// `time` process hands its forked child only its own few hundred kilobytes. `pid` is then
    /// `time`'s, so a measured child is not one to send signals to.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        workingDirectory: String? = nil, measuringPeak: Bool = false
    ) throws {
        if measuringPeak, !FileManager.default.isExecutableFile(atPath: Self.timeBinary) {
            throw Missing(description: "\(Self.timeBinary) is missing: `make deps` installs Debian's `time`")
        }
        outputFolder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        measuresPeak = measuringPeak
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, outputFolder.appendingPathComponent("out").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(
            &actions, 2, outputFolder.appendingPathComponent("err").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("REPORT_") }
        variables.merge(environment) { _, new in new }
        // A working folder through the shell, which then becomes the program (`exec`): `pid` is
        // still the program's (or `time`'s).
        let measured =
            measuringPeak
            ? [Self.timeBinary, "-f", "%M", "-o", outputFolder.appendingPathComponent("peak").path, executable]
            : [executable]
        let command =
            workingDirectory.map {
                ["/bin/sh", "-c", #"cd "$1" && shift && exec "$@""#, "sh", $0] + measured + arguments
            }
            ?? measured + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child = pid_t()
        let code = posix_spawn(&child, command[0], &actions, nil, argv, envp)
        guard code == 0 else {
            throw NSError(
                domain: "ChildProcess", code: Int(code),
                userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(executable): \(String(cString: strerror(code)))"])
        }
        pid = child
    }

    deinit {
        if finished == nil {
            _ = Glibc.kill(pid, SIGKILL)
            _ = wait()
        }
        try? FileManager.default.removeItem(at: outputFolder)
    }

    /// Waits for the child to exit and collects its output and peak memory.
    @discardableResult
    public func wait() -> Result {
        if let finished { return finished }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return collect(status: status)
    }

    private func collect(status: Int32) -> Result {
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let read = { (name: String) in
            (try? String(contentsOf: self.outputFolder.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        // GNU time writes the figure last, after a line such as "Command exited with non-zero status 1".
        let peak =
            measuresPeak
            ? read("peak").split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } : nil
        let result = Result(status: code, out: read("out"), err: read("err"), peakKilobytes: peak)
        finished = result
        return result
    }

    /// The result when the child has exited, nil while it runs (never blocks).
    public func poll() -> Result? {
        if let finished { return finished }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return collect(status: status)
    }

    /// Runs the child to its end.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        workingDirectory: String? = nil, measuringPeak: Bool = false
    ) throws -> Result {
        try ChildProcess(
            executable, arguments, environment: environment, workingDirectory: workingDirectory,
            measuringPeak: measuringPeak
        ).wait()
    }

    /// Sends `signal` to the child (SIGKILL: a crash, as cron or the OOM killer would make one).
    public func kill(_ signal: Int32 = SIGKILL) {
        if finished == nil { _ = Glibc.kill(pid, signal) }
    }
}
