import JSON
import ReportModel
import XCTest
@testable import Fleet

/// Sums of hours and kilometres are exact or visibly missing, never wrong and never a crash
/// (issue 30). Each loan may span centuries of valid timestamps: 146 loans of two thousand years
/// pass the range of a 64-bit count of microseconds, and the unchecked `+=` trapped.
final class FleetTotalsTests: FleetAnalysisTestCase {
    func testLoansSpanningCenturiesGiveAQualityRowInsteadOfACrash() throws {
        try importEvent()
        try importRecords(.drivers, [["id": "d1", "name": "Ada"]], firstSequence: 2)
        let loans = (0..<200).map { index in
            assignment(
                "a\(index)", plate: "AB-\(100 + index)-CD", out: "2016-10-01T10:00:00+02:00",
                in: "2016-10-01T12:00:00+02:00", driver: "d1",
                checkOut: record("o\(index)", at: "0001-01-01T00:00:00Z", km: 0),
                checkIn: record("i\(index)", at: "2016-10-01T12:00:00+02:00", km: 10_000_000))
        }
        try importAssignments(loans)
        let report = try makeReport()
        XCTAssertEqual(try figure(report, "loan_hours"), .empty, "200 × 17,669,744 h passes 2^63 µs")
        XCTAssertEqual(try figure(report, "loans"), .integer(200))
        // 200 × 10^7 km = 2 × 10^12 m: exact, and shown.
        XCTAssertEqual(try figure(report, "km"), .number(2_000_000_000))
        let drivers = try rows(report, "drivers")
        XCTAssertEqual(drivers.count, 1)
        XCTAssertEqual(drivers.first?["hours"], .empty)
        let outOfRange = try issues(report).filter { $0.first == "figure_out_of_range" }
        XCTAssertEqual(outOfRange, [["figure_out_of_range", "driver d1"], ["figure_out_of_range", "summary"]])
        // One loan alone is shown: 0001-01-01T00:00Z to 2016-10-01T10:00Z in hours.
        let single = try rows(report, "loans").first { $0["assignment_id"] == .text("a0") }
        let hours = try XCTUnwrap(single?["hours"]?.doubleValue)
        XCTAssertEqual(hours, Double(62_135_596_800 + 1_475_316_000) / 3600, accuracy: 1e-6)
    }

    func testKilometresAreSummedInWholeMetres() throws {
        try importEvent()
        // 0.1 + 0.2 in doubles is 0.30000000000000004; three such loans summed as doubles drift.
        let loans = (0..<3).map { index in
            assignment(
                "a\(index)", plate: "XY-123-ZZ", out: "2016-10-0\(index + 1)T10:00:00+02:00",
                in: "2016-10-0\(index + 1)T12:00:00+02:00",
                checkOut: record("o\(index)", at: "2016-10-0\(index + 1)T10:00:00+02:00", km: 100.1),
                checkIn: record("i\(index)", at: "2016-10-0\(index + 1)T12:00:00+02:00", km: 100.4))
        }
        try importAssignments(loans)
        let report = try makeReport()
        XCTAssertEqual(try figure(report, "km"), .number(0.9))
        XCTAssertEqual(try rows(report, "vehicles").first?["km"], .number(0.9))
        XCTAssertEqual(try rows(report, "loans").map { $0["km"] }, [.number(0.3), .number(0.3), .number(0.3)])
        XCTAssertFalse(try issues(report).contains { $0.first == "figure_out_of_range" })
    }
}
