import ArgumentParsing
import Foundation
import XCTest
@testable import ReportCLI

/// The report commands' options, outputs and errors, over the sample fleet and bookings data.
final class ReportCommandsTests: CLITestCase {
    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleData")
    let asOf = "2026-11-29T06:00:00+01:00"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let run = report(["import", "--db", databasePath, "--quiet", Self.sampleData.path])
        XCTAssertEqual(run.code, .success, run.err)
    }

    func testOneCSVTableToStandardOutput() {
        let run = report([
            "fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "vehicles",
        ])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(
            run.out.hasPrefix(
                "plate,brand,model,group,loans,hours_out,available_hours,utilization,km,new_impacts,late_returns\r\n"),
            run.out)
        // CSV records end in CRLF (RFC 4180), which Swift sees as one Character: split on the string.
        XCTAssertEqual(
            run.out.components(separatedBy: "\r\n").dropLast().count, 31, "a header and the 30 cars of salon2016")
        let summary = report([
            "fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "summary",
        ])
        XCTAssertEqual(summary.code, .success, summary.err)
        XCTAssertEqual(Array(summary.out.components(separatedBy: "\r\n").prefix(2)), ["metric,value", "vehicles,30"])
        let unknown = report([
            "fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "cars",
        ])
        XCTAssertEqual(unknown.code, .usage)
        XCTAssertEqual(
            unknown.errLines,
            [
                "report fleet: --table: no CSV table \"cars\" in this report; tables: vehicles, daily, loans, "
                    + "damage, drivers, quality, summary"
            ])
    }

    /// `--table NAME --schema` prints the table's Table Schema, the one its folder's
    /// `datapackage.json` holds: a loader of one table gets its types too.
    func testOneTablesSchemaToStandardOutput() throws {
        let run = report([
            "bookings", "--db", databasePath, "--month", "2026-11", "--as-of", asOf, "--table", "postal_codes",
            "--schema",
        ])
        XCTAssertEqual(run.code, .success, run.err)
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let fields = try XCTUnwrap(schema["fields"] as? [[String: Any]])
        XCTAssertEqual(fields.map { $0["name"] as? String }, ["postal_code", "bookings", "revenue_eur"])
        XCTAssertEqual(fields.map { $0["type"] as? String }, ["string", "integer", "number"])
        XCTAssertEqual(schema["primaryKey"] as? [String], ["postal_code"])
        XCTAssertEqual(schema["missingValues"] as? [String], [], "the empty code is a code, not a missing value")
        let summary = report([
            "bookings", "--db", databasePath, "--month", "2026-11", "--as-of", asOf, "--table", "summary", "--schema",
        ])
        XCTAssertEqual(summary.code, .success, summary.err)
        XCTAssertTrue(summary.out.contains("\"primaryKey\": [\"metric\"]"), summary.out)
        let alone = report(["bookings", "--db", databasePath, "--month", "2026-11", "--as-of", asOf, "--schema"])
        XCTAssertEqual(alone.code, .usage)
        XCTAssertTrue(alone.err.contains("--schema prints the schema of one CSV table: add --table NAME"), alone.err)
    }

    /// A period without data is one line with the range the data covers, exit 5 and no file
    /// (SPEC §7); `--allow-empty` writes the report and exits 0, saying the line all the same.
    func testAnEmptyPeriodExitsFiveAndSaysWhatTheDataCovers() throws {
        let output = path("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (
                ["habits", "--date", "2026-12-03", "--as-of", "2026-12-04T06:00:00+01:00"],
                "report habits: no habits data on 2026-12-03; the data covers 2026-09-30 to 2026-11-28"
            ),
            (
                ["habits", "--date", "2026-11-20", "--user", "nobody-here", "--as-of", asOf],
                "report habits: unknown user \"nobody-here\": no users record and no habits records; check the id "
                    + "given to --user"
            ),
            (
                ["bookings", "--month", "2026-12", "--as-of", "2026-12-04T06:00:00+01:00"],
                "report bookings: no bookings data in 2026-12; the data covers 2026-10-01 to 2026-11-30"
            ),
        ]
        for (arguments, line) in cases {
            let run = report(arguments + ["--db", databasePath, "--xlsx", "--csv", "--md", "-o", output])
            XCTAssertEqual(run.errLines, [line], "\(arguments)")
            XCTAssertEqual(run.out, "")
        }
        XCTAssertEqual(report(cases[0].0 + ["--db", databasePath]).code, .emptyPeriod)
        XCTAssertEqual(report(cases[2].0 + ["--db", databasePath]).code, .emptyPeriod)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output), [], "nothing written")
        let allowed = report(cases[2].0 + ["--db", databasePath, "--csv", "-o", output, "--allow-empty"])
        XCTAssertEqual(allowed.code, .success, allowed.err)
        XCTAssertEqual(allowed.errLines.first, cases[2].1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/bookings-2026-12/daily.csv"))
        // An event without any assignment is an empty period too; the line names the events with loans.
        try write(
            "more/events.json",
            #"[{"id": "salon2030", "name": "Salon 2030", "starts_on": "2030-10-01", "#
                + #""ends_on": "2030-10-02", "opens_at": "10:00", "closes_at": "20:00"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, "-q", path("more")]).code, .success)
        let fleet = report(["fleet", "--db", databasePath, "--event", "salon2030", "--as-of", asOf])
        XCTAssertEqual(fleet.code, .emptyPeriod)
        XCTAssertEqual(
            fleet.errLines,
            [
                "report fleet: no fleet data for event salon2030 (2030-10-01 to 2030-10-02): no assignment that is "
                    + "not cancelled; events with loans: salon2016 (2016-10-01 to 2016-10-16), salon2017 (2017-10-06 "
                    + "to 2017-10-08)"
            ])
    }

    /// `report fleet` without `--event` lists the events; asked for files, it is a usage error
    /// naming them.
    func testFleetWithoutAnEventListsTheEvents() {
        let list = report(["fleet", "--db", databasePath])
        XCTAssertEqual(list.code, .success, list.err)
        XCTAssertEqual(list.outLines.count, 3, list.out)
        XCTAssertEqual(list.outLines.first?.split(separator: " ").first, "options")
        XCTAssertTrue(
            list.outLines[1].hasPrefix("--event salon2016  Mondial de l'Automobile 2016")
                && list.outLines[1].hasSuffix("2016-10-01  2016-10-16  292 loans"), list.outLines[1])
        let files = report(["fleet", "--db", databasePath, "--xlsx"])
        XCTAssertEqual(files.code, .usage)
        XCTAssertEqual(
            files.errLines,
            [
                "report fleet: --event is required; give one of: --event salon2016 (2016-10-01 to 2016-10-16), "
                    + "--event salon2017 (2017-10-06 to 2017-10-08)"
            ])
    }

    /// `report habits` reads in one snapshot with its data check, and saves the streak states it
    /// walked once that snapshot has ended (a save cannot begin inside it), so that the next
    /// night's report resumes from them.
    func testAHabitsReportSavesItsStreakStatesForTheNextOne() throws {
        XCTAssertEqual(try count("habits_streak_state"), 0)
        let run = report([
            "habits", "--db", databasePath, "--date", "2026-11-28", "--as-of", asOf, "--table", "daily",
        ])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertGreaterThan(try count("habits_streak_state"), 0)
    }

    func testTableWithFileFormatsIsAUsageError() throws {
        for format in ["--xlsx", "--md"] {
            let run = report([
                "fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "vehicles", format,
            ])
            XCTAssertEqual(run.code, .usage, format)
            XCTAssertEqual(
                run.errLines,
                [
                    "report fleet: --table prints one CSV table to standard output and writes no file; drop --xlsx "
                        + "and --md, or drop --table"
                ])
            XCTAssertEqual(run.out, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("Reports")), "no file written")
    }

    func testMarkdownOnStandardOutputWhenNoFormatIsGiven() {
        let run = report(["bookings", "--db", databasePath, "--month", "2026-10", "--as-of", asOf])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.out.hasPrefix("# "), run.out)
        XCTAssertTrue(run.out.contains("- Scope: 2026-10"), run.out)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("Reports") }, [])
        // No file is written beside standard output, so no picture is linked (issue 12).
        XCTAssertFalse(run.out.contains(".svg") || run.out.contains(".png") || run.out.contains("]("), run.out)
        XCTAssertTrue(
            run.out.contains("The charts are written as PNG and SVG files when the report is saved to a folder."))
    }

    func testFilesGoToTheOutputFolderNamedAfterTheScope() throws {
        let output = path("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let run = report([
            "fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--xlsx", "--csv", "--md", "-o",
            output,
        ])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(run.out, "", "nothing but the report on standard output")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: output))
        XCTAssertTrue(
            names.isSuperset(of: [
                "fleet-salon2016.xlsx", "fleet-salon2016", "fleet-salon2016.md", "fleet-salon2016-heatmap.svg",
                "fleet-salon2016-heatmap.png",
            ]), "\(names)")
        // Every file the Markdown links is there.
        let markdown = try String(contentsOfFile: output + "/fleet-salon2016.md", encoding: .utf8)
        let linked = markdown.components(separatedBy: "](").dropFirst().compactMap {
            $0.split(separator: ")").first.map(String.init)
        }
        XCTAssertEqual(linked.count, 6, markdown)
        for name in linked { XCTAssertTrue(names.contains(name), name) }
        XCTAssertEqual(
            Set(try FileManager.default.contentsOfDirectory(atPath: output + "/fleet-salon2016")),
            [
                "vehicles.csv", "daily.csv", "loans.csv", "damage.csv", "drivers.csv", "summary.csv", "quality.csv",
                "datapackage.json",
            ])
        XCTAssertTrue(run.errLines.contains("wrote \(output)/fleet-salon2016.xlsx"), run.err)
    }

    func testUsageAndDataErrorsAreOneLine() throws {
        try write("a-file", "not a folder")
        let cases: [([String], ExitCode, String)] = [
            (
                ["fleet", "--md"], .usage,
                "report fleet: --event is required; give one of: --event salon2016 (2016-10-01 to 2016-10-16), "
                    + "--event salon2017 (2017-10-06 to 2017-10-08)"
            ),
            (
                ["fleet", "--event", "salon2099"], .failure,
                "report fleet: unknown event \"salon2099\"; known events: salon2016, salon2017"
            ),
            (
                ["fleet", "--event", "salon2016", "--grace-minutes", "-5"], .usage,
                "report fleet: --grace-minutes: invalid number \"-5\" (0 to 10000)"
            ),
            (
                ["fleet", "--event", "salon2016", "--as-of", "2016-10-01 10:00"], .usage,
                "report fleet: --as-of: invalid timestamp \"2016-10-01 10:00\" (use e.g. 2026-11-29T06:00:00+01:00)"
            ),
            (
                ["fleet", "--event", "salon2016", "--xlsx", "-o", path("a-file/sub")], .failure,
                "report fleet: \(path("a-file/sub")): cannot create the output folder: \(path("a-file")) is not a "
                    + "folder; give another -o DIR"
            ),
            (
                ["habits", "--from", "2026-11-01"], .usage,
                "report habits: give --date DATE, or both --from and --to, or neither (yesterday)"
            ),
            (
                ["habits", "--date", "2026-02-30"], .usage,
                "report habits: --date: invalid date \"2026-02-30\" (use YYYY-MM-DD)"
            ),
            (
                ["habits", "--date", "2026-11-28", "--day-start", "25:00"], .usage,
                "report habits: --day-start: invalid time \"25:00\" (use HH:MM)"
            ),
            (
                ["bookings", "--from", "2026-11-30", "--to", "2026-11-01"], .usage,
                "report bookings: --from 2026-11-30 is after --to 2026-11-01"
            ),
            (["bookings", "--month", "2026-11", "--timezone", "Mars/Olympus"], .usage, ""),
        ]
        for (arguments, code, message) in cases {
            let run = report(arguments + ["--db", databasePath])
            XCTAssertEqual(run.code, code, "\(arguments): \(run.err)")
            XCTAssertEqual(run.errLines.count, 1, "\(arguments): \(run.err)")
            if !message.isEmpty { XCTAssertEqual(run.errLines.first, message, "\(arguments)") }
            XCTAssertEqual(run.out, "", "\(arguments)")
        }
    }

    func testAReportOnAMissingDatabaseSaysWhatToDo() {
        let run = report(["habits", "--db", path("none.sqlite"), "--date", "2026-11-28"])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "report habits: \(path("none.sqlite")): no such database; run `report import PATH...` first, or give "
                    + "--db PATH"
            ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("none.sqlite")))
    }

    /// One rule in every command: an option to correct is a usage error (2), a problem of the data
    /// is a failure (1). `--user ""` exited 1 before the error model was one (issue 14).
    func testTheSameKindOfProblemGivesTheSameCodeInEveryCommand() {
        let cases: [([String], ExitCode, String)] = [
            (["habits", "--date", "2026-11-28", "--user", ""], .usage, "report habits: --user needs a user id"),
            (
                ["habits", "--from", "2026-11-28", "--to", "2026-11-01"], .usage,
                "report habits: --from 2026-11-28 is after --to 2026-11-01: give the earlier day first"
            ),
            (
                ["bookings", "--month", "2026-13"], .usage,
                "report bookings: invalid month \"2026-13\": write it YYYY-MM, e.g. 2026-11"
            ),
            (
                ["habits", "--date", "2026-11-28", "--user", "nobody"], .failure,
                "report habits: unknown user \"nobody\": no users record and no habits records; check the id given "
                    + "to --user"
            ),
            (
                ["fleet", "--event", "nobody"], .failure,
                "report fleet: unknown event \"nobody\"; known events: salon2016, salon2017"
            ),
        ]
        for (arguments, code, message) in cases {
            let run = report(arguments + ["--db", databasePath, "--as-of", asOf])
            XCTAssertEqual(run.code, code, "\(arguments): \(run.err)")
            XCTAssertEqual(run.errLines, [message], "\(arguments)")
        }
    }

    /// Reports never migrate: a database whose schema is behind the registered modules is refused
    /// with what to do, and left exactly as it was (no step recorded, no table made).
    func testAReportNeverMigratesTheDatabase() throws {
        let database = try self.database()
        try database.execute("DELETE FROM schema_migrations WHERE domain = 'bookings'")
        let before = try database.rows("SELECT domain, version FROM schema_migrations ORDER BY 1, 2")
        let tables = try database.tableNames()
        let run = report(["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "report fleet: \(databasePath): the database's schema is older than this release; "
                    + "import with this release (`report import PATH...`) to bring it up to date"
            ])
        XCTAssertEqual(try database.rows("SELECT domain, version FROM schema_migrations ORDER BY 1, 2"), before)
        XCTAssertEqual(try database.tableNames(), tables)
        let status = report(["status", "--db", databasePath])
        XCTAssertEqual(status.code, .failure, status.err)
    }

    /// A damaged events row is the fleet's own one-line error (exit 1), not one posing as SQLite's.
    func testADamagedEventRowIsADataError() throws {
        try database().execute("UPDATE events SET starts_on = 'someday' WHERE id = 'salon2016'")
        let run = report(["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            ["report fleet: event \"salon2016\" has invalid dates in the database; re-import the events file"])
    }
}
