import ReportModel
import Time
import XCTest
@testable import Bookings

/// Days and day periods (SPEC §2, §4): local wall clock in Europe/Paris, DST nights, empty months.
final class BookingsAnalysisPeriodTests: XCTestCase {
    func testElevenFiftyNineIsMorningAndNoonIsAfternoon() throws {
        let fixture = try BookingsAnalysisFixture()
        // 2026-11-10 is in CET (+01:00). Local 11:59 → morning; 12:00 → afternoon; 17:59 → afternoon; 18:00 → evening.
        try fixture.booking("b1", starts: "2026-11-10T11:59:00+01:00")
        try fixture.booking("b2", starts: "2026-11-10T12:00:00+01:00")
        // Written in UTC: 16:59Z = 17:59 local, afternoon; 17:00Z = 18:00 local, evening.
        try fixture.booking("b3", starts: "2026-11-10T16:59:00Z")
        try fixture.booking("b4", starts: "2026-11-10T17:00:00Z")
        try fixture.slot("morning", starts: "2026-11-10T09:00:00+01:00", ends: "2026-11-10T12:00:00+01:00", capacity: 2)
        try fixture.slot(
            "afternoon", starts: "2026-11-10T14:00:00+01:00", ends: "2026-11-10T18:00:00+01:00", capacity: 4)
        let report = try fixture.report(month: "2026-11")

        let rows = try report.rows("occupancy", where: try day("2026-11-10"))
        XCTAssertEqual(rows.count, 3)
        // morning: capacity 2, booked 1 (b1) → 1 / 2 = 0.5
        XCTAssertEqual(Array(rows[0].prefix(4)), [try day("2026-11-10"), .text("morning"), .integer(2), .integer(1)])
        assertNumber(rows[0][4], 0.5)
        // afternoon: capacity 4, booked 2 (b2, b3) → 2 / 4 = 0.5
        XCTAssertEqual(Array(rows[1].prefix(4)), [try day("2026-11-10"), .text("afternoon"), .integer(4), .integer(2)])
        assertNumber(rows[1][4], 0.5)
        // evening: no slot, booked 1 (b4) → capacity 0, occupancy empty
        XCTAssertEqual(rows[2], [try day("2026-11-10"), .text("evening"), .integer(0), .integer(1), .empty])
    }

    func testBookingsInTheNightOfTheAutumnDSTChangeKeepTheirLocalDayAndPeriod() throws {
        let fixture = try BookingsAnalysisFixture()
        // 2026-10-25: Paris goes from 03:00 CEST back to 02:00 CET; the day has 25 hours.
        // Both 02:30 (the first at +02:00 = 00:30Z, the second at +01:00 = 01:30Z) are 2026-10-25 morning.
        try fixture.booking("first-0230", starts: "2026-10-25T02:30:00+02:00", amount: 1000)
        try fixture.booking("second-0230", starts: "2026-10-25T02:30:00+01:00", amount: 2000)
        // 23:30 CET on the 25th = 22:30Z: 24 h after the day's start (2026-10-24T22:00Z) plus 30 min, yet
        // still the 25th (evening), because the day has 25 hours. Adding 86,400 s would put it on the 26th.
        try fixture.booking("late-evening", starts: "2026-10-25T22:30:00Z", amount: 4000)
        // 00:30 CET on the 26th = 23:30Z on the 25th: the 26th, morning.
        try fixture.booking("after-midnight", starts: "2026-10-25T23:30:00Z", amount: 8000)
        // 23:30 CEST on the 24th = 21:30Z: the 24th, evening.
        try fixture.booking("day-before", starts: "2026-10-24T21:30:00Z", amount: 16000)
        let report = try fixture.report(month: "2026-10")

        // daily: 24th 1 booking 160.00; 25th 3 bookings 10 + 20 + 40 = 70.00; 26th 1 booking 80.00
        let expected: [(String, Int64, Double)] = [
            ("2026-10-24", 1, 160), ("2026-10-25", 3, 70), ("2026-10-26", 1, 80),
        ]
        for (text, bookings, revenue) in expected {
            let row = try XCTUnwrap(report.rows("daily", where: try day(text)).first)
            XCTAssertEqual(row[1], .integer(bookings), text)
            assertNumber(row[5], revenue, text)
        }
        func booked(_ text: String, _ period: String) throws -> Value? {
            try report.rows("occupancy", where: try day(text)).first { $0[1] == .text(period) }?[3]
        }
        XCTAssertEqual(try booked("2026-10-24", "evening"), .integer(1))
        XCTAssertEqual(try booked("2026-10-25", "morning"), .integer(2))
        XCTAssertEqual(try booked("2026-10-25", "afternoon"), .integer(0))
        XCTAssertEqual(try booked("2026-10-25", "evening"), .integer(1))
        XCTAssertEqual(try booked("2026-10-26", "morning"), .integer(1))
        XCTAssertEqual(try booked("2026-10-26", "evening"), .integer(0))
    }

    func testBookingInTheSpringDSTGapTakesTheLocalTimeOfItsInstant() throws {
        let fixture = try BookingsAnalysisFixture()
        // 2026-03-29: 02:00 CET jumps to 03:00 CEST. "02:30+01:00" is 01:30Z, shown 03:30 CEST: the 29th, morning.
        try fixture.booking("gap", starts: "2026-03-29T02:30:00+01:00")
        // 23:30 CEST on the 29th = 21:30Z: the 29th (a 23-hour day), evening.
        try fixture.booking("short-day-evening", starts: "2026-03-29T21:30:00Z")
        // 00:30 CEST on the 30th = 22:30Z on the 29th: the 30th, morning (24 h after the 29th's start would
        // still be the 29th).
        try fixture.booking("next-morning", starts: "2026-03-29T22:30:00Z")
        let report = try fixture.report(month: "2026-03")
        let rows = try report.rows("occupancy", where: try day("2026-03-29"))
        XCTAssertEqual(rows.map { $0[3] }, [.integer(1), .integer(0), .integer(1)])
        XCTAssertEqual(
            try report.rows("occupancy", where: try day("2026-03-30")).map { $0[3] },
            [.integer(1), .integer(0), .integer(0)])
        XCTAssertEqual(try report.rows("daily", where: try day("2026-03-29")).first?[1], .integer(2))
        XCTAssertEqual(try report.rows("daily", where: try day("2026-03-30")).first?[1], .integer(1))
    }

    func testEmptyMonthIsAValidReportWithZeroFilledRowsAndEmptyRatios() throws {
        let fixture = try BookingsAnalysisFixture()
        let report = try fixture.report(month: "2026-02", asOf: "2026-03-10T09:00:00+01:00")
        XCTAssertEqual(report.kind, "bookings")
        XCTAssertEqual(report.baseName, "bookings-2026-02")

        // February 2026 has 28 days, each a zero row.
        let daily = try report.rows("daily")
        XCTAssertEqual(daily.count, 28)
        XCTAssertEqual(daily.first?.first, try day("2026-02-01"))
        XCTAssertEqual(daily.last?.first, try day("2026-02-28"))
        for row in daily {
            XCTAssertEqual(Array(row[1...4]), [.integer(0), .integer(0), .integer(0), .integer(0)])
            assertNumber(row[5], 0)
            assertNumber(row[6], 0)
        }
        // 28 days × 3 periods, no capacity: occupancy empty everywhere.
        let occupancy = try report.rows("occupancy")
        XCTAssertEqual(occupancy.count, 84)
        XCTAssertTrue(occupancy.allSatisfy { $0[2] == .integer(0) && $0[3] == .integer(0) && $0[4] == .empty })
        XCTAssertEqual(try report.rows("customers"), [[.text("2026-02"), .integer(0), .integer(0)]])
        XCTAssertEqual(try report.rows("services"), [])
        XCTAssertEqual(try report.rows("postal_codes"), [])
        XCTAssertEqual(try report.rows("quality"), [])

        for metric in [
            "bookings", "cancelled", "no_show", "done", "late_cancellations", "new_customers",
            "unresolved_past", "negative_lead_times", "unknown_customers", "unknown_services", "unknown_slots",
        ] {
            XCTAssertEqual(try report.figure(metric), .integer(0), metric)
        }
        assertNumber(try report.figure("revenue_eur"), 0)
        assertNumber(try report.figure("discount_eur"), 0)
        // Ratios and means over nothing are empty (SPEC: a ratio whose denominator is 0 is empty).
        for metric in [
            "cancellation_rate", "lead_time_median_hours", "lead_time_under_24h_share",
            "lead_time_under_7d_share", "average_basket_eur", "repeat_rate",
        ] {
            XCTAssertEqual(try report.figure(metric), .empty, metric)
        }
        let heatMap = try XCTUnwrap(report.heatMap)
        XCTAssertEqual(heatMap.rowLabels.count, 28)
        XCTAssertTrue(heatMap.cells.allSatisfy { $0.count == 3 && $0.allSatisfy(\.isNaN) }, "no capacity: blank cells")
    }

    /// SPEC §4 (issue 30): `--month` of the month holding as-of is the whole month, every day
    /// zero-filled to its end and the upcoming non-cancelled bookings counted; the default period
    /// (no period option) stops at the as-of day.
    func testAnExplicitCurrentMonthIsWholeAndTheDefaultPeriodStopsAtAsOf() throws {
        let fixture = try BookingsAnalysisFixture()
        let asOf = "2026-11-20T12:00:00+01:00"
        try fixture.booking("past", starts: "2026-11-10T10:00:00+01:00", status: "done", amount: 5000)
        try fixture.booking("upcoming", starts: "2026-11-25T10:00:00+01:00", status: "confirmed")
        try fixture.booking(
            "upcoming-cancelled", starts: "2026-11-26T10:00:00+01:00", status: "cancelled",
            cancelled: "2026-11-19T10:00:00+01:00")
        try fixture.slot("s25", starts: "2026-11-25T09:00:00+01:00", ends: "2026-11-25T12:00:00+01:00", capacity: 2)
        let month = try fixture.report(month: "2026-11", asOf: asOf)

        let daily = try month.rows("daily")
        XCTAssertEqual(daily.count, 30)
        XCTAssertEqual(daily.last?.first, try day("2026-11-30"))
        XCTAssertEqual(try month.rows("daily", where: try day("2026-11-25")).first?[1], .integer(1))
        XCTAssertEqual(try month.rows("daily", where: try day("2026-11-30")).first?[1], .integer(0), "zero-filled")
        XCTAssertEqual(try month.rows("occupancy").count, 90)
        let morning = try XCTUnwrap(month.rows("occupancy", where: try day("2026-11-25")).first)
        XCTAssertEqual(Array(morning[2...3]), [.integer(2), .integer(1)], "capacity 2, booked 1 (the upcoming one)")
        assertNumber(morning[4], 0.5)
        XCTAssertEqual(try month.figure("bookings"), .integer(3))
        XCTAssertEqual(try month.figure("cancelled"), .integer(1))
        XCTAssertEqual(try month.figure("unresolved_past"), .integer(0), "an upcoming booking is not unresolved")
        XCTAssertEqual(month.baseName, "bookings-2026-11")

        let options = try BookingsOptions.currentMonth(asOf: try XCTUnwrap(Timestamp(asOf)))
        let byDefault = try BookingsAnalysis.report(database: fixture.database, options: options)
        XCTAssertEqual(try byDefault.rows("daily").count, 20)
        XCTAssertEqual(try byDefault.rows("daily").last?.first, try day("2026-11-20"))
        XCTAssertEqual(try byDefault.figure("bookings"), .integer(1))
        XCTAssertEqual(byDefault.baseName, "bookings-2026-11")
    }
}
