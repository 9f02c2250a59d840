import Foundation
import ReportTestSupport
import Store
import XCTest
@testable import ReportCLI

/// Messages that name the real cause (issue 30): each of these used to print a line about
/// something else (`disk I/O error`, `no such database`, `SQLite error 14`, a raw `42501`, "the
/// schema is older", rejects "in the import_rejects table" after a check). Each is one line with
/// the cause and the fix, the right exit code, and leaves the database as it was.
final class CauseMessagesTests: CLITestCase {
    private var moods: String {
        get throws { try write("in/moods.json", #"[{"userId": "u1", "date": "2026-11-01", "mood": 4}]"#) }
    }

    func testADatabasePathThatIsAFolderSaysSo() throws {
        let folder = path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = try moods
        for arguments in [["status"], ["import", file], ["habits", "--date", "2026-11-01"]] {
            let run = report(arguments + ["--db", folder])
            XCTAssertEqual(run.code, .failure, "\(arguments): \(run.err)")
            XCTAssertEqual(
                run.errLines,
                [
                    "report \(arguments[0]): \(folder) is a folder, not a database file; give --db a file path, e.g. "
                        + "\(folder)/report.sqlite"
                ], "\(arguments)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "nothing made in the folder")
    }

    func testAURLOfAnotherSchemeIsAUsageErrorNamingTheSchemesThatExist() throws {
        let file = try moods
        let known =
            "--db takes postgresql:// or postgres:// for PostgreSQL; a plain path (no scheme) means a SQLite file"
        for (database, line) in [
            ("mysql://report:hunter2@db/report", "--db: unsupported URL scheme \"mysql://\"; " + known),
            ("MariaDB://db/report", "--db: unsupported URL scheme \"MariaDB://\"; " + known),
            (
                "sqlite://" + path("r.sqlite"),
                "--db: sqlite:// URLs are not read; give the SQLite file's path itself (\(path("r.sqlite"))); " + known
            ),
            (
                "file://" + path("r.sqlite"),
                "--db: file:// URLs are not read; give the SQLite file's path itself (\(path("r.sqlite"))); " + known
            ),
        ] {
            for arguments in [["status"], ["import", file], ["bookings", "--month", "2026-11"]] {
                let run = report(arguments + ["--db", database])
                XCTAssertEqual(run.code, .usage, "\(database) \(arguments): \(run.err)")
                XCTAssertEqual(run.errLines, ["report \(arguments[0]): \(line)"], "\(database) \(arguments)")
                XCTAssertFalse(run.err.contains("hunter2"))
            }
        }
        // The same from $REPORT_DB, named as such.
        let fromEnvironment = report(["status"], environment: ["REPORT_DB": "mysql://db/report"])
        XCTAssertEqual(fromEnvironment.code, .usage)
        XCTAssertEqual(
            fromEnvironment.errLines, ["report status: $REPORT_DB: unsupported URL scheme \"mysql://\"; " + known])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("r.sqlite")), "no file created")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["in"],
            "no database file made anywhere")
        // A relative path that merely contains `://` after a non-scheme start is still a path.
        XCTAssertNil(StoreLocation.unsupportedReason("./odd://name.sqlite"))
        XCTAssertNil(StoreLocation.unsupportedReason("postgres://db/report"))
    }

    func testCheckSaysItStoresNothingWhenItCutsTheRejectList() throws {
        var records: [String] = []
        for index in 0..<40 { records.append(#"{"id": "t\#(index)", "userId": "u1", "date": "2026-11-01"}"#) }
        let file = try write("tasks.json", "[" + records.joined(separator: ",") + "]")
        let run = report(["check", "--kind", "flows", file])
        XCTAssertEqual(run.code, .rejected, run.err)
        let last = try XCTUnwrap(run.errLines.last)
        XCTAssertTrue(last.hasPrefix("\(file): "), last)
        XCTAssertTrue(
            last.hasSuffix(
                " more rejected records (check stores nothing: `report import` keeps them all in the "
                    + "import_rejects table)"), last)
        XCTAssertFalse(run.err.contains("all are in the import_rejects table"), run.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath), "check made no database")
        // import keeps saying where they are.
        let imported = report(["import", "--kind", "flows", "--db", databasePath, file])
        XCTAssertEqual(imported.code, .rejected)
        XCTAssertTrue(
            imported.errLines.last?.hasSuffix("more rejected records (all are in the import_rejects table)") ?? false)
        XCTAssertEqual(try count("import_rejects"), 40)
    }

    func testAFileNamedWithCapitalsSaysWhichKindItResembles() throws {
        let file = try write("in/Events.json", "[]")
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines.first,
            "\(file): cannot tell the kind of file from its name: it resembles events, but kind names are matched in "
                + "lower case; rename it events.json or use --kind events")
        XCTAssertEqual(try count("import_log"), 0, "nothing imported")
        let tasks = try write("in/TASKS_resync.json", "[]")
        XCTAssertEqual(
            report(["check", tasks]).errLines.first,
            "\(tasks): cannot tell the kind of file from its name: it resembles tasks, but kind names are matched in "
                + "lower case; rename it tasks_resync.json or use --kind tasks")
        // A name that resembles nothing still lists the kinds.
        let other = try write("in/notes.json", "[]")
        XCTAssertTrue(report(["check", other]).err.contains("names start with one of: users, flows"))
    }

    // MARK: PostgreSQL

    func testStatusOnAnEmptyPostgreSQLDatabaseSaysItIsEmpty() throws {
        let url = try PostgresTestServer.shared().freshDatabase(prefix: "empty")
        for arguments in [["status"], ["habits", "--date", "2026-11-01"]] {
            let run = report(arguments + ["--db", url])
            XCTAssertEqual(run.code, .failure, run.err)
            XCTAssertEqual(
                run.errLines,
                [
                    "report \(arguments[0]): \(url) is empty: it holds no report data yet; import exports into it "
                        + "first (`report import PATH...` with the same --db)"
                ])
        }
        XCTAssertEqual(try Database(path: url).tableNames(), [], "a report or status creates nothing")
        // An empty SQLite file says the same.
        try Data().write(to: URL(fileURLWithPath: path("empty.sqlite")))
        XCTAssertTrue(
            report(["status", "--db", path("empty.sqlite")]).err.contains("is empty: it holds no report data"))
    }

    func testARoleWithoutCreateOnTheSchemaIsToldWhichGrantIsMissing() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.freshDatabase(prefix: "grants")
        let owner = try Database(path: url)
        try owner.execute("DROP ROLE IF EXISTS report_nocreate; CREATE ROLE report_nocreate LOGIN")
        try owner.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        let limited = url.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://report_nocreate@")
        let run = report(["import", "--db", limited, try moods])
        XCTAssertEqual(run.code, .failure, run.err)
        XCTAssertEqual(run.errLines.count, 1, run.err)
        let line = try XCTUnwrap(run.errLines.first)
        XCTAssertTrue(line.hasPrefix("report import: "), line)
        XCTAssertTrue(
            line.contains(
                "the role report_nocreate may not create tables in schema public (PostgreSQL 42501: permission denied "
                    + "for schema public"), line)
        XCTAssertTrue(
            line.hasSuffix(
                "; as the database's owner run GRANT CREATE ON SCHEMA public TO report_nocreate, or import as the "
                    + "owner"), line)
        XCTAssertEqual(try owner.tableNames(), [], "nothing created")
        // With the grant, the same import works.
        try owner.execute("GRANT CREATE ON SCHEMA public TO report_nocreate")
        XCTAssertEqual(report(["import", "--db", limited, try moods]).code, .success)
    }
}
