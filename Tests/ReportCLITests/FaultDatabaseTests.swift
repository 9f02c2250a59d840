import ArgumentParsing
import Foundation
import Store
import ReportTestSupport
import XCTest
@testable import ReportCLI
#if canImport(Glibc)
import Glibc
#endif

/// Faults of the database (issue 8): read-only, damaged, locked by another writer, on a full
/// disk. Each gives one clear line naming the database and what to do, exit code 1, and leaves
/// the database as it was.
final class FaultDatabaseTests: CLITestCase {
    private func importUsers() throws -> (next: String, before: [String: [[SQLValue]]]) {
        let users = try write("users.json", #"[{"id": "u1"}, {"id": "u2"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, users]).code, .success)
        let next = try write("users-2.json", #"[{"id": "u3"}]"#)
        return (next, try snapshot())
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    // MARK: - Read-only

    /// The database file itself cannot be written. Root ignores `chmod 444`, so as root the file
    /// is made immutable (`chattr +i`), which stops root too.
    func testAReadOnlyDatabaseFileFailsTheImportAndStaysAsItWas() throws {
        let (next, before) = try importUsers()
        try makeReadOnly(databasePath)
        defer { makeWritable(databasePath) }
        let contents = try bytes(databasePath)
        let run = report(["import", "--db", databasePath, next])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(next): \(databasePath) is read-only (SQLite error 8: attempt to write a readonly database); make "
                    + "the file and its folder writable, or give another --db; nothing of this file was stored"
            ])
        XCTAssertEqual(try bytes(databasePath), contents)
        // Reading still works: status and reports need no write.
        XCTAssertEqual(report(["status", "--db", databasePath]).code, .success)
        let habits = report([
            "habits", "--db", databasePath, "--date", "2026-11-28", "--as-of", "2026-11-29T06:00:00Z",
            "--csv", "-o", directory.path, "-q", "--allow-empty",
        ])
        XCTAssertEqual(habits.code, .success, habits.err)
        makeWritable(databasePath)
        XCTAssertEqual(try snapshot(), before)
    }

    /// The whole file system is read-only: SQLite cannot even create the `-shm` file a WAL
    /// database needs to be opened.
    func testADatabaseOnAReadOnlyFileSystem() throws {
        let disk = try ScratchMount(in: directory, kilobytes: 4096)
        let database = disk.url.appendingPathComponent("report.sqlite").path
        let users = try write("users.json", #"[{"id": "u1"}]"#)
        XCTAssertEqual(report(["import", "--db", database, users]).code, .success)
        let contents = try bytes(database)
        try disk.remountReadOnly()
        let next = try write("users-2.json", #"[{"id": "u2"}]"#)
        let run = report(["import", "--db", database, next])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "report import: cannot open \(database) (SQLite error 14: unable to open database file); check that "
                    + "its folder exists and is writable (SQLite keeps its -wal and -shm files beside the database)"
            ])
        let status = report(["status", "--db", database])
        XCTAssertEqual(status.code, .failure)
        XCTAssertEqual(
            status.errLines,
            [
                "report status: cannot open \(database) (SQLite error 14: unable to open database file); check that "
                    + "its folder exists and is writable (SQLite keeps its -wal and -shm files beside the database)"
            ])
        disk.remountWritable()
        XCTAssertEqual(try bytes(database), contents)
    }

    // MARK: - Damaged

    func testGarbageInsteadOfADatabase() throws {
        var generator = SystemRandomNumberGenerator()
        var garbage = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        garbage.replaceSubrange(0..<16, with: Data("not a database!!".utf8))
        try garbage.write(to: URL(fileURLWithPath: databasePath))
        let users = try write("users.json", #"[{"id": "u1"}]"#)
        let message =
            "\(databasePath) is not a SQLite database (SQLite error 26: file is not a database); give --db the path "
            + "of a report database"
        let run = report(["import", "--db", databasePath, users])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(run.errLines, ["report import: " + message])
        let status = report(["status", "--db", databasePath])
        XCTAssertEqual(status.errLines, ["report status: " + message])
        let fleet = report(["fleet", "--db", databasePath, "--event", "e"])
        XCTAssertEqual(fleet.code, .failure)
        XCTAssertEqual(fleet.errLines, ["report fleet: " + message])
        XCTAssertEqual(try bytes(databasePath), garbage)
    }

    func testATruncatedDatabase() throws {
        let (next, _) = try importUsers()
        let whole = try bytes(databasePath)
        XCTAssertGreaterThan(whole.count, 3 * 4096)
        let cut = whole.prefix(5000)
        try cut.write(to: URL(fileURLWithPath: databasePath))
        let message =
            "\(databasePath) is damaged (SQLite error 11: database disk image is malformed); restore it from a "
            + "backup, or import into a new --db"
        let run = report(["import", "--db", databasePath, next])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(run.errLines, ["report import: " + message])
        let status = report(["status", "--db", databasePath])
        XCTAssertEqual(status.code, .failure)
        XCTAssertEqual(status.errLines, ["report status: " + message])
        XCTAssertEqual(try bytes(databasePath), cut)
    }

    func testADatabasePathThatIsAFolderOrInAMissingFolder() throws {
        let users = try write("users.json", #"[{"id": "u1"}]"#)
        let folder = report(["import", "--db", directory.path, users])
        XCTAssertEqual(folder.code, .failure)
        XCTAssertEqual(
            folder.errLines,
            [
                "report import: \(directory.path) is a folder, not a database file; give --db a file path, e.g. "
                    + "\(directory.path)/report.sqlite"
            ])
        let database = path("missing/report.sqlite")
        let run = report(["import", "--db", database, users])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "report import: cannot open \(database) (SQLite error 14: unable to open database file); check "
                    + "that its folder exists and is writable (SQLite keeps its -wal and -shm files beside the "
                    + "database)"
            ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing")))
    }

    // MARK: - Locked

    /// Another process holds the write lock (`BEGIN IMMEDIATE` on a second connection): the
    /// import waits `--busy-timeout`, then fails the file with a clear line and stores nothing.
    func testALockedDatabaseWaitsTheBusyTimeoutThenFails() throws {
        let (next, before) = try importUsers()
        let holder = try Database(path: databasePath)
        try holder.execute("BEGIN IMMEDIATE")
        try holder.run(
            "INSERT INTO import_rejects (import_id, position, field, value, rule) VALUES (0, 0, 'held', '', '')")
        let message =
            "\(next): \(databasePath) is locked by another process (SQLite error 5: database is locked) and stayed "
            + "locked for the whole --busy-timeout; try again when the other import or report has finished, or "
            + "give a longer --busy-timeout; nothing of this file was stored"
        let run = report(["import", "--db", databasePath, "--busy-timeout", "0.2", next])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(run.errLines, [message])
        // The environment variable does the same for cron jobs.
        let fromEnvironment = report(
            ["import", "--db", databasePath, next], environment: ["REPORT_BUSY_TIMEOUT": "0.1"])
        XCTAssertEqual(fromEnvironment.errLines, [message])
        // Readers are not blocked by a writer (WAL): status and reports see the committed data.
        let status = report(["status", "--db", databasePath, "--busy-timeout", "0.1"])
        XCTAssertEqual(status.code, .success, status.err)
        XCTAssertTrue(status.outLines.contains { $0.hasPrefix("users ") && $0.contains(" 2") }, status.out)
        try holder.execute("ROLLBACK")
        XCTAssertEqual(try snapshot(), before)
        XCTAssertEqual(report(["import", "--db", databasePath, "--busy-timeout", "0.2", next]).code, .success)
        XCTAssertEqual(try count("users"), 3)
    }

    func testABadBusyTimeoutIsAUsageError() {
        for value in ["x", "-1", "nan", "1e9"] {
            let run = report(["import", "--db", databasePath, "--busy-timeout", value, "users.json"])
            XCTAssertEqual(run.code, .usage)
            XCTAssertEqual(
                run.errLines,
                ["report import: --busy-timeout: invalid number of seconds \"\(value)\" (0 to 86400, e.g. 0.5 or 60)"])
        }
        let bad = report(["status", "--db", databasePath], environment: ["REPORT_BUSY_TIMEOUT": "soon"])
        XCTAssertEqual(bad.code, .usage)
        XCTAssertEqual(
            bad.errLines,
            ["report status: $REPORT_BUSY_TIMEOUT: invalid number of seconds \"soon\" (0 to 86400, e.g. 0.5 or 60)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath))
    }

    // MARK: - Full disk

    /// A 2 MB disk and a bigger file: SQLite's `database or disk is full`, exit 1, nothing of the
    /// file stored, and the next file of the same run still imports.
    func testAFullDiskLeavesTheDatabaseAsItWas() throws {
        let disk = try ScratchMount(in: directory, kilobytes: 2048)
        let database = disk.url.appendingPathComponent("report.sqlite").path
        let users = try write("users.json", #"[{"id": "u1"}]"#)
        XCTAssertEqual(report(["import", "--db", database, users]).code, .success)
        let before = try snapshot(of: database)
        var lines = ""
        for index in 0..<40_000 {
            lines += HostileInputTests.task("t\(index)") + "\n"
        }
        let big = try write("tasks.jsonl", lines)
        XCTAssertGreaterThan(lines.utf8.count, 3 << 20)
        let next = try write("users-2.json", #"[{"id": "u2"}]"#)
        let run = report(["import", "--db", database, big, next])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(big): the disk holding \(database) is full (SQLite error 13: database or disk is full); free some "
                    + "space and run again; nothing of this file was stored"
            ])
        XCTAssertTrue(run.out.contains("imported \(next) (users): 1 records, 1 accepted, 0 rejected"), run.out)
        var after = try snapshot(of: database)
        XCTAssertEqual(after["tasks"], [])
        XCTAssertEqual(after["users"]?.count, 2)
        after["users"] = before["users"]
        after["import_log"] = before["import_log"]
        XCTAssertEqual(after, before)
    }

    // MARK: - Helpers

    private func snapshot(of path: String) throws -> [String: [[SQLValue]]] {
        try TableSnapshot.of(Database(path: path))
    }

    /// `chmod 444` for a normal user; `chattr +i` for root, whom permissions do not stop.
    private func makeReadOnly(_ path: String) throws {
        if geteuid() != 0 {
            XCTAssertEqual(chmod(path, 0o444), 0)
            return
        }
        let run = try ChildProcess.run("/usr/bin/env", ["chattr", "+i", path])
        guard run.status == 0 else {
            throw XCTSkip(
                "running as root, and `chattr +i` is not available here "
                    + "(\(run.err.trimmingCharacters(in: .whitespacesAndNewlines))): "
                    + "root ignores file permissions, so a read-only database cannot be made")
        }
    }

    private func makeWritable(_ path: String) {
        if geteuid() != 0 {
            chmod(path, 0o644)
        } else {
            _ = try? ChildProcess.run("/usr/bin/env", ["chattr", "-i", path])
        }
    }
}
