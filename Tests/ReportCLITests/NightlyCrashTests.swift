import ArgumentParsing
import Foundation
import Store
import ReportTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import Time

/// The real `report` binary, killed with SIGKILL at many moments of a nightly run and started
/// again, must end with exactly what an uninterrupted run leaves: the same database rows, archive,
/// inbox and reports, and no temporary file anywhere. Also: a second run while one holds the lock
/// exits 4 at once.
final class NightlyCrashTests: XCTestCase {
    static let asOf = "2016-10-02T08:00:00+02:00"  // salon2016 is open: the fleet report runs too
    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleData")
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    /// A folder with an inbox holding the sample data, a file that fails and one with a rejected
    /// record, and empty archive and report folders.
    func scenario(_ name: String) throws -> URL {
        let folder = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.sampleData, to: folder.appendingPathComponent("inbox"))
        let late = folder.appendingPathComponent("inbox/late")
        try FileManager.default.createDirectory(at: late, withIntermediateDirectories: true)
        try Data("{\"tasks\": [ {\"id\": ".utf8).write(to: late.appendingPathComponent("tasks.json"))
        try Data(
            ("[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3},{\"userId\":\"emma\","
                + "\"date\":\"someday\",\"mood\":3}]")
                .utf8
        )
        .write(to: late.appendingPathComponent("moods.json"))
        for sub in ["archive", "Reports"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        return folder
    }

    /// Starts `report nightly` in `folder` (relative paths, so the import log names agree across
    /// folders).
    func start(in folder: URL) throws -> ChildProcess {
        try ChildProcess(
            try ChildProcess.reportBinary(),
            [
                "nightly", "--inbox", "inbox", "--archive", "archive", "-o", "Reports",
                "--db", "report.sqlite", "--as-of", Self.asOf,
            ],
            environment: ["PATH": "/usr/bin:/bin"], workingDirectory: folder.path)
    }

    /// Runs to the end: the exit status and what went to standard output and error.
    func runToEnd(in folder: URL) throws -> ChildProcess.Result {
        try start(in: folder).wait()
    }

    /// Starts a run and SIGKILLs it after `delay` seconds: whether it was killed (not finished),
    /// and what it wrote until then.
    func killed(in folder: URL, after delay: Double) throws -> (killed: Bool, result: ChildProcess.Result) {
        let child = try start(in: folder)
        usleep(useconds_t(delay * 1_000_000))
        child.kill(SIGKILL)
        let result = child.wait()
        return (result.status == 128 + SIGKILL, result)
    }

    /// Everything a run leaves that must not depend on being interrupted.
    struct State: Equatable {
        var tables: [String: [[SQLValue]]] = [:]
        /// (file, sha256, kind, records, accepted, rejected) of every import.
        var imports: [[SQLValue]] = []
        var archive: [String: Data] = [:]
        var inbox: [String: Data] = [:]
        /// CSV, Markdown and SVG bytes; a workbook by name only (its zip holds times).
        var reports: [String: Data] = [:]
    }

    func state(of folder: URL) throws -> State {
        var state = State()
        let database = try Database(path: folder.appendingPathComponent("report.sqlite").path, mode: .readOnly)
        let names = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != "
                + "'import_log' ORDER BY name"
        )
        for name in names.compactMap({ $0[0].string }) {
            let columns =
                try database.rows("SELECT COUNT(*) FROM pragma_table_info(?)", [.text(name)]).first?[0].int ?? 1
            let order = (1...max(1, Int(columns))).map(String.init).joined(separator: ", ")
            state.tables[name] = try database.rows("SELECT * FROM \"\(name)\" ORDER BY \(order)")
        }
        state.imports = try database.rows(
            "SELECT file, sha256, kind, records, accepted, rejected FROM import_log ORDER BY file, sha256")
        state.archive = try files(below: folder.appendingPathComponent("archive"))
        state.inbox = try files(below: folder.appendingPathComponent("inbox"))
        state.reports = try files(below: folder.appendingPathComponent("Reports")).mapValues { $0 }
        for name in state.reports.keys where name.hasSuffix(".xlsx") { state.reports[name] = Data() }
        return state
    }

    /// Every file (hidden ones included) below a folder, by relative path.
    func files(below folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return result }
        for case let relative as String in walker {
            var isFolder: ObjCBool = false
            let path = folder.path + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return result
    }

    func testAKilledRunStartedAgainEndsLikeAnUninterruptedRun() throws {
        let reference = try scenario("reference")
        let started = Date()
        let uninterrupted = try runToEnd(in: reference)
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(uninterrupted.status, 1, "the broken file fails the night: \(uninterrupted.err)")
        XCTAssertEqual(uninterrupted.out, "")
        let expected = try state(of: reference)
        // The reference itself is what the night should produce.
        XCTAssertEqual(Set(expected.inbox.keys), ["failed/late/tasks.json", "failed/late/tasks.json.error.txt"])
        XCTAssertEqual(expected.archive.count, 16, "the 15 sample files and the file with a reject")
        XCTAssertTrue(
            expected.reports.keys.contains("fleet-salon2016/vehicles.csv"), "\(expected.reports.keys.sorted())")
        XCTAssertTrue(expected.reports.keys.contains("habits-2016-10-01.md"))
        XCTAssertTrue(expected.reports.keys.contains("bookings-2016-10.xlsx"))
        XCTAssertFalse(expected.tables.isEmpty)
        XCTAssertEqual(try runToEnd(in: reference).status, 0, "a run after a complete one finds nothing to do")
        XCTAssertEqual(try state(of: reference), expected, "a second run changes nothing")

        // Kill points: 1, 2, 4… ms from the start, then fractions of the measured run, so that
        // kills land in the start-up, every import, every move and every report.
        var delays = sequence(first: 0.001) { $0 * 2 }.prefix { $0 < duration }.map { $0 }
        delays += [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97].map { $0 * duration }
        var killedRuns = 0
        for (index, delay) in delays.sorted().enumerated() {
            let folder = try scenario("kill-\(index)")
            let first = try killed(in: folder, after: delay)
            if first.killed { killedRuns += 1 }
            let rerun = try runToEnd(in: folder)
            let label = "killed after \(Int(delay * 1000)) ms"
            // The exit code tells what this run did: the broken file fails it unless the killed
            // run already moved that file to failed/, having logged the failure first.
            let failedNow = rerun.err.contains("nightly: failed: inbox/late/tasks.json: malformed JSON")
            XCTAssertEqual(rerun.status, failedNow ? 1 : 0, "\(label): \(rerun.err)")
            let killedLog = first.result.err
            XCTAssertTrue(
                failedNow || killedLog.contains("nightly: failed: inbox/late/tasks.json: malformed JSON"),
                "\(label): the failure is logged by one of the runs")
            XCTAssertEqual(rerun.out, "", label)
            let actual = try state(of: folder)
            XCTAssertEqual(actual.tables, expected.tables, "\(label): database rows")
            XCTAssertEqual(actual.imports, expected.imports, "\(label): import log")
            XCTAssertEqual(actual.archive, expected.archive, "\(label): archive \(actual.archive.keys.sorted())")
            XCTAssertEqual(actual.inbox, expected.inbox, "\(label): inbox \(actual.inbox.keys.sorted())")
            XCTAssertEqual(Set(actual.reports.keys), Set(expected.reports.keys), "\(label): report files")
            for (name, data) in expected.reports where actual.reports[name] != data {
                XCTFail("\(label): Reports/\(name) differs")
            }
        }
        XCTAssertGreaterThanOrEqual(killedRuns, delays.count / 2, "most kill points fall inside the run")

        // Killed several times in a row before a run completes.
        let folder = try scenario("killed-thrice")
        for fraction in [0.3, 0.6, 0.9] {
            _ = try killed(in: folder, after: fraction * duration)
        }
        XCTAssertNotEqual(try runToEnd(in: folder).status, 4)
        XCTAssertEqual(try state(of: folder), expected)
    }

    func testASecondRunExitsFourAtOnceWhileTheLockIsHeld() throws {
        let folder = try scenario("locked")
        let lockPath = folder.appendingPathComponent("report.sqlite.nightly.lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        let pid = Array("\(getpid())\n".utf8)
        XCTAssertEqual(pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }, pid.count)
        let refused = try runToEnd(in: folder)
        XCTAssertEqual(refused.status, 4)
        // `2026-12-02T06:00:00Z nightly: another run holds …`: the UTC time, as every log line.
        XCTAssertTrue(
            refused.err.hasSuffix(
                " nightly: another run holds report.sqlite.nightly.lock (pid \(getpid())); nothing done\n"), refused.err
        )
        XCTAssertNotNil(Timestamp(String(refused.err.prefix(20))), refused.err)
        XCTAssertEqual(refused.err.filter { $0 == "\n" }.count, 1)
        XCTAssertEqual(refused.out, "")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("report.sqlite").path), "nothing done")
        XCTAssertEqual(try files(below: folder.appendingPathComponent("archive")), [:])

        close(descriptor)  // released: as when the holder dies
        XCTAssertEqual(try runToEnd(in: folder).status, 1, "runs once the lock is free (the broken file fails)")
        XCTAssertEqual(try files(below: folder.appendingPathComponent("archive")).count, 16)
    }

    func testALockFileLeftByAKilledRunDoesNotBlock() throws {
        let folder = try scenario("stale-lock")
        let lockPath = folder.appendingPathComponent("report.sqlite.nightly.lock").path
        // Kill a run as soon as it holds the lock (its pid is in the file): the file stays, the
        // kernel drops the flock with the process.
        let child = try start(in: folder)
        let pid = "\(child.pid)\n"
        var polls = 0
        while (try? String(contentsOfFile: lockPath, encoding: .utf8)) != pid, polls < 10_000 {
            usleep(500)
            polls += 1
        }
        child.kill(SIGKILL)
        child.wait()
        XCTAssertEqual(try String(contentsOfFile: lockPath, encoding: .utf8), pid, "the dead run's lock file is left")
        let run = try runToEnd(in: folder)
        XCTAssertFalse(run.err.contains("another run holds"), run.err)
        XCTAssertEqual(run.status, 1, "the night runs (the broken file fails it): \(run.err)")
        XCTAssertEqual(try files(below: folder.appendingPathComponent("archive")).count, 16)
    }
}
