import Foundation
import XCTest
@testable import ReportCLI

/// No quiet successes (issue 12, item 7): a habits or bookings report over a database without
/// any data of its domain fails with one line; a period wholly after as-of is a usage error.
final class ReportPreconditionsTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // Habits data only: the bookings report has nothing to show.
        try write("in/tasks.json", ImportCommandTests.tasks)
        XCTAssertEqual(report(["import", "--db", databasePath, "-q", path("in")]).code, .success)
    }

    func testAReportOfADomainWithoutDataFails() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: databasePath))
        let run = report([
            "bookings", "--db", databasePath, "--month", "2026-11", "--as-of", "2026-11-29T06:00:00+01:00",
        ])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "report bookings: \(databasePath) holds no bookings data; import its exports first (services, slots, "
                    + "customers, bookings)"
            ])
        XCTAssertEqual(run.out, "")
        XCTAssertEqual(try count("tasks"), 3, "the data is untouched")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: databasePath)).count, before.count)
        let habits = report([
            "habits", "--db", databasePath, "--date", "2026-11-28", "--as-of", "2026-11-29T06:00:00+01:00",
        ])
        XCTAssertEqual(habits.code, .success, habits.err)
    }

    func testAPeriodWhollyAfterAsOfIsAUsageError() {
        let cases: [[String]] = [
            ["habits", "--date", "2027-11-28"], ["habits", "--from", "2026-12-01", "--to", "2026-12-31"],
            ["bookings", "--month", "2027-01"], ["bookings", "--from", "2026-12-01", "--to", "2026-12-02"],
        ]
        for arguments in cases {
            let run = report(arguments + ["--db", databasePath, "--as-of", "2026-11-29T06:00:00+01:00"])
            XCTAssertEqual(run.code, .usage, "\(arguments): \(run.err)")
            XCTAssertEqual(run.errLines.count, 1, "\(arguments)")
            XCTAssertTrue(
                run.errLines.first?.contains("after --as-of 2026-11-29T06:00:00+01:00: nothing has happened yet")
                    == true,
                run.err)
        }
        // The day after as-of in Paris may already have begun in Kiribati (UTC+14): allowed, and
        // being without data yet it is an empty period (exit 5), not a usage error.
        let tomorrow = report([
            "habits", "--date", "2026-11-30", "--db", databasePath, "--as-of", "2026-11-29T12:00:00Z",
        ])
        XCTAssertEqual(tomorrow.code, .emptyPeriod, tomorrow.err)
        XCTAssertEqual(
            tomorrow.errLines, ["report habits: no habits data on 2026-11-30; the data covers 2026-11-28 to 2026-11-28"]
        )
    }
}
