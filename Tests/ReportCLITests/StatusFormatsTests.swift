import Foundation
import Store
import XCTest
@testable import ReportCLI

/// `report status --json` and `--csv`, for monitoring and scripts (issue 12, item 9).
final class StatusFormatsTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("in/tasks.json", ImportCommandTests.tasks)
        try write(
            "in/logins.jsonl", "{\"userId\": \"u1\", \"at\": \"2026-11-28T08:00:00+01:00\"}\n{\"userId\": \"u2\"}\n")
        let run = report(["import", "--db", databasePath, "-q", path("in")])
        XCTAssertEqual(run.code, .rejected, run.err)
    }

    func testJSONHoldsKindsCountsRangesAndLastImports() throws {
        let run = report(["status", "--db", databasePath, "--json"])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(run.err, "")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["database"] as? String, databasePath)
        XCTAssertEqual(object["files_imported"] as? Int, 2)
        XCTAssertEqual(object["rejected_records"] as? Int, 1)
        let kinds = try XCTUnwrap(object["kinds"] as? [[String: Any]])
        let tasks = try XCTUnwrap(kinds.first { $0["kind"] as? String == "tasks" })
        XCTAssertEqual(tasks["records"] as? Int, 3)
        XCTAssertEqual(tasks["from"] as? String, "2026-11-28")
        let logins = try XCTUnwrap(kinds.first { $0["kind"] as? String == "logins" })
        XCTAssertEqual(logins["records"] as? Int, 1)
        XCTAssertEqual(logins["from"] as? String, "2026-11-28T07:00:00Z")
        let imports = try XCTUnwrap(object["last_imports"] as? [[String: Any]])
        XCTAssertEqual(imports.map { $0["kind"] as? String }, ["tasks", "logins"], "latest first")
        XCTAssertEqual(imports.last?["rejected"] as? Int, 1)
        XCTAssertEqual(run.out.filter { $0 == "\n" }.count, 1, "one line")
    }

    func testCSVIsTheKindsTable() throws {
        let run = report(["status", "--db", databasePath, "--csv"])
        XCTAssertEqual(run.code, .success, run.err)
        let lines = run.out.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.first, "kind,records,from,to")
        XCTAssertTrue(lines.contains("tasks,3,2026-11-28,2026-11-28"), run.out)
        XCTAssertTrue(lines.contains("logins,1,2026-11-28T07:00:00Z,2026-11-28T07:00:00Z"), run.out)
    }

    /// What can be reported: the habits range of the imported tasks and login, in every format.
    func testWhatCanBeReportedIsListedInEveryFormat() throws {
        let text = report(["status", "--db", databasePath])
        XCTAssertEqual(text.code, .success, text.err)
        let lines = text.outLines
        let heading = try XCTUnwrap(lines.firstIndex(of: "what can be reported:"), text.out)
        XCTAssertTrue(lines[heading + 1].hasPrefix("report "), lines[heading + 1])
        XCTAssertTrue(
            lines[heading + 2].hasPrefix("report habits --from 2026-11-28 --to 2026-11-28")
                && lines[heading + 2].hasSuffix("4 records"), lines[heading + 2])
        let json = report(["status", "--db", databasePath, "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let reportable = try XCTUnwrap(object["reportable"] as? [[String: Any]])
        XCTAssertEqual(reportable.count, 1)
        XCTAssertEqual(reportable.first?["options"] as? String, "--from 2026-11-28 --to 2026-11-28")
        XCTAssertEqual(reportable.first?["count"] as? Int, 4)
        let csv = report(["status", "--db", databasePath, "--csv", "--reportable"])
        XCTAssertEqual(
            csv.out.components(separatedBy: "\r\n"),
            [
                "domain,command,name,from,to,count,unit",
                "habits,report habits --from 2026-11-28 --to 2026-11-28,,2026-11-28,2026-11-28,4,records", "",
            ])
        XCTAssertEqual(report(["status", "--db", databasePath, "--reportable"]).code, .usage)
    }

    /// A database that holds nothing of `report` (a new file, or one another program made) is said
    /// to be empty, with what to do; it is not "older than this release", and stays untouched.
    func testAnEmptyDatabaseIsSaidToBeEmpty() throws {
        let empty = path("empty.sqlite")
        try Database(path: empty).execute("CREATE TABLE other_app (x INTEGER)")
        let before = try Data(contentsOf: URL(fileURLWithPath: empty))
        for command in [["status"], ["habits", "--date", "2026-11-28", "--as-of", "2026-11-29T06:00:00Z"]] {
            let run = report(command + ["--db", empty])
            XCTAssertEqual(run.code, .failure, run.err)
            XCTAssertEqual(
                run.errLines,
                [
                    "report \(command[0]): \(empty) is empty: it holds no report data yet; import exports into it "
                        + "first (`report import PATH...` with the same --db)"
                ])
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: empty)), before)
    }

    func testOneFormatAtATime() {
        let run = report(["status", "--db", databasePath, "--json", "--csv"])
        XCTAssertEqual(run.code, .usage)
        XCTAssertEqual(run.errLines, ["report status: --json and --csv are two formats of one output: give one"])
        XCTAssertEqual(run.out, "")
    }
}
