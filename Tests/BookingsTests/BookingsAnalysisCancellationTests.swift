import XCTest
@testable import Bookings

/// Cancellations and lead times (SPEC §4).
final class BookingsAnalysisCancellationTests: XCTestCase {
    func testCancellation23HoursBeforeIsLateAnd25HoursIsNot() throws {
        let fixture = try BookingsAnalysisFixture()
        let starts = "2026-11-20T10:00:00+01:00"
        // 23 h: late
        try fixture.booking("h23", starts: starts, status: "cancelled", cancelled: "2026-11-19T11:00:00+01:00")
        // 25 h: not late
        try fixture.booking("h25", starts: starts, status: "cancelled", cancelled: "2026-11-19T09:00:00+01:00")
        // exactly 24 h: not late (strictly less)
        try fixture.booking("h24", starts: starts, status: "cancelled", cancelled: "2026-11-19T10:00:00+01:00")
        // after the start: late
        try fixture.booking("after", starts: starts, status: "cancelled", cancelled: "2026-11-20T10:30:00+01:00")
        try fixture.booking("kept", starts: starts, status: "paid")
        let report = try fixture.report(month: "2026-11")

        XCTAssertEqual(try report.figure("late_cancellations"), .integer(2))  // h23, after
        XCTAssertEqual(try report.figure("cancelled"), .integer(4))
        XCTAssertEqual(try report.figure("bookings"), .integer(5))
        assertNumber(try report.figure("cancellation_rate"), 0.8)  // 4 / 5
        let daily = try XCTUnwrap(report.rows("daily", where: try day("2026-11-20")).first)
        XCTAssertEqual(Array(daily[1...4]), [.integer(5), .integer(4), .integer(0), .integer(0)])
        // Occupancy counts only the kept booking.
        XCTAssertEqual(try report.rows("occupancy", where: try day("2026-11-20")).first?[3], .integer(1))
    }

    func testLeadTimeMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() throws {
        let fixture = try BookingsAnalysisFixture()
        let starts = "2026-11-20T12:00:00Z"
        // Lead times of kept bookings: 2 h, 10 h, 30 h, 200 h; the cancelled 1 h one is left out.
        try fixture.booking("l2", starts: starts, created: "2026-11-20T10:00:00Z")
        try fixture.booking("l10", starts: starts, created: "2026-11-20T02:00:00Z", status: "confirmed")
        try fixture.booking("l30", starts: starts, created: "2026-11-19T06:00:00Z", status: "no_show")
        try fixture.booking("l200", starts: starts, created: "2026-11-12T04:00:00Z", status: "done")
        try fixture.booking("c1", starts: starts, created: "2026-11-20T11:00:00Z", status: "cancelled")
        let report = try fixture.report(month: "2026-11", asOf: "2026-11-30T12:00:00Z")

        assertNumber(try report.figure("lead_time_median_hours"), 20)  // (10 + 30) / 2
        assertNumber(try report.figure("lead_time_under_24h_share"), 0.5)  // 2 h, 10 h of 4
        assertNumber(try report.figure("lead_time_under_7d_share"), 0.75)  // 2 h, 10 h, 30 h of 4 (200 h ≥ 168 h)
    }

    func testNegativeLeadTimeStaysInTheFiguresAndIsAQualityIssue() throws {
        let fixture = try BookingsAnalysisFixture()
        let starts = "2026-11-20T12:00:00Z"
        // Lead times: −3 h (created after the start), 2 h, 24 h exactly, 168 h exactly, 300 h.
        try fixture.booking("late-entry", starts: starts, created: "2026-11-20T15:00:00Z")
        try fixture.booking("l2", starts: starts, created: "2026-11-20T10:00:00Z")
        try fixture.booking("l24", starts: starts, created: "2026-11-19T12:00:00Z")
        try fixture.booking("l168", starts: starts, created: "2026-11-13T12:00:00Z")
        try fixture.booking("l300", starts: starts, created: "2026-11-08T00:00:00Z")
        // A cancelled booking created after its start is neither in the figures nor an issue.
        try fixture.booking("cancelled", starts: starts, created: "2026-11-21T00:00:00Z", status: "cancelled")
        let report = try fixture.report(month: "2026-11", asOf: "2026-11-30T12:00:00Z")

        assertNumber(try report.figure("lead_time_median_hours"), 24)  // sorted −3, 2, 24, 168, 300: the middle one
        assertNumber(try report.figure("lead_time_under_24h_share"), 0.4)  // −3, 2 of 5 (24 is not strictly under)
        assertNumber(try report.figure("lead_time_under_7d_share"), 0.6)  // −3, 2, 24 of 5 (168 is not strictly under)
        XCTAssertEqual(try report.figure("negative_lead_times"), .integer(1))
        // Instants in the detail are shown in Paris time (CET, +01:00).
        XCTAssertEqual(
            try report.rows("quality"),
            [
                [
                    .text("negative_lead_time"), .text("late-entry"),
                    .text("created 2026-11-20T16:00:00+01:00, 3.00 h after it starts (2026-11-20T13:00:00+01:00)"),
                ]
            ])
    }

    func testAverageBasketIsTheMeanAmountOfPaidAndDoneBookings() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.booking("p", starts: "2026-11-05T10:00:00+01:00", status: "paid", amount: 4000)
        try fixture.booking("d", starts: "2026-11-06T10:00:00+01:00", status: "done", amount: 7050)
        try fixture.booking("n", starts: "2026-11-07T10:00:00+01:00", status: "no_show", amount: 9900)
        try fixture.booking("x", starts: "2026-11-08T10:00:00+01:00", status: "cancelled", amount: 9900)
        let report = try fixture.report(month: "2026-11")
        assertNumber(try report.figure("revenue_eur"), 110.50)  // 40.00 + 70.50
        assertNumber(try report.figure("average_basket_eur"), 55.25)  // 110.50 / 2
        XCTAssertEqual(try report.figure("done"), .integer(1))
        XCTAssertEqual(try report.figure("no_show"), .integer(1))
    }
}
