import Time
import XCTest
@testable import Bookings

/// Data-quality issues and the as-of moment (SPEC §4).
final class BookingsAnalysisQualityTests: XCTestCase {
    func testPastPendingBookingIsUnresolvedAndFutureOneIsNot() throws {
        let fixture = try BookingsAnalysisFixture()
        let asOf = "2026-11-15T12:00:00+01:00"
        try fixture.booking("past-pending", starts: "2026-11-15T11:00:00+01:00", status: "pending")
        try fixture.booking("past-confirmed", starts: "2026-11-02T09:00:00+01:00", status: "confirmed")
        try fixture.booking("future-confirmed", starts: "2026-11-15T13:00:00+01:00", status: "confirmed")
        try fixture.booking("past-paid", starts: "2026-11-14T10:00:00+01:00", status: "paid")
        let report = try fixture.report(month: "2026-11", asOf: asOf)

        // --month is the whole month, the current one too (SPEC §4); the future booking counts.
        XCTAssertEqual(try report.rows("daily").last?.first, try day("2026-11-30"))
        XCTAssertEqual(try report.figure("bookings"), .integer(4))
        XCTAssertEqual(try report.figure("unresolved_past"), .integer(2))
        XCTAssertEqual(
            try report.rows("quality"),
            [
                [
                    .text("unresolved_past"), .text("past-confirmed"),
                    .text("starts 2026-11-02T09:00:00+01:00, before the as-of moment, and is still confirmed"),
                ],
                [
                    .text("unresolved_past"), .text("past-pending"),
                    .text("starts 2026-11-15T11:00:00+01:00, before the as-of moment, and is still pending"),
                ],
            ])
    }

    func testAsOfDecidesOnlyUnresolvedPast() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.booking("p", starts: "2026-11-10T10:00:00+01:00", status: "pending")
        try fixture.booking("d", starts: "2026-11-11T10:00:00+01:00", status: "done", amount: 5000)
        let before = try fixture.report(from: "2026-11-01", to: "2026-11-30", asOf: "2026-11-01T00:00:00Z")
        let after = try fixture.report(from: "2026-11-01", to: "2026-11-30", asOf: "2026-12-01T00:00:00Z")
        XCTAssertEqual(try before.figure("unresolved_past"), .integer(0))
        XCTAssertEqual(try after.figure("unresolved_past"), .integer(1))
        for figure in before.figures where figure.metric != "unresolved_past" {
            XCTAssertEqual(try after.figure(figure.metric), figure.value, figure.metric)
        }
        for name in ["daily", "occupancy", "services", "postal_codes", "customers"] {
            XCTAssertEqual(try before.rows(name), try after.rows(name), name)
        }
    }

    func testOrphansAreListedByIssueThenBooking() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.slot("known", starts: "2026-11-20T10:00:00+01:00", ends: "2026-11-20T11:00:00+01:00", capacity: 1)
        try fixture.booking("b2", starts: "2026-11-20T10:00:00+01:00", customer: "stranger", slot: "lost")
        try fixture.booking(
            "b1", starts: "2026-11-20T10:00:00+01:00", lines: [("zz", 100, nil), ("aa", 100, nil)],
            slot: "known")
        // Outside the period: not an issue of this report.
        try fixture.booking("b0", starts: "2026-12-20T10:00:00+01:00", customer: "stranger", slot: "lost")
        let report = try fixture.report(month: "2026-11")
        XCTAssertEqual(
            try report.rows("quality").map { Array($0.prefix(2)) },
            [
                [.text("unknown_customer"), .text("b2")],
                [.text("unknown_service"), .text("b1")],  // aa
                [.text("unknown_service"), .text("b1")],  // zz
                [.text("unknown_slot"), .text("b2")],
            ])
        XCTAssertEqual(
            try report.rows("quality").map { $0[2] }[1...2].map { $0 },
            [
                .text("service aa is not in the services export"), .text("service zz is not in the services export"),
            ])
        XCTAssertEqual(try report.figure("unknown_customers"), .integer(1))
        XCTAssertEqual(try report.figure("unknown_services"), .integer(2))
        XCTAssertEqual(try report.figure("unknown_slots"), .integer(1))
        XCTAssertEqual(report.tables.last?.name, "quality")
    }

    /// The period's bookings are read through the index or by a table scan depending on their
    /// share of the table; both must see exactly the same bookings.
    func testIndexedAndScannedPeriodsSeeTheSameBookings() throws {
        let fixture = try BookingsAnalysisFixture()
        // 16 bookings in October, 2 in November (one on each edge day, one an orphan) → the index is chosen.
        for index in 0..<16 {
            try fixture.booking("oct\(index)", starts: "2026-10-\(10 + index)T10:00:00+02:00")
        }
        try fixture.booking("first", starts: "2026-11-01T00:00:00+01:00", status: "pending", customer: "nobody")
        try fixture.booking("last", starts: "2026-11-30T23:59:59+01:00", lines: [("gone", 100, 150)], slot: "lost")
        try fixture.booking("december", starts: "2026-12-01T00:00:00+01:00")
        let calendar = try BookingsCalendar(
            from: try XCTUnwrap(Day("2026-11-01")), to: try XCTUnwrap(Day("2026-11-30")),
            local: .paris)
        let chosen = try PeriodFilter.choose(fixture.database, calendar: calendar)
        XCTAssertEqual(chosen.condition, PeriodFilter.indexed.condition, "2 of 19 bookings: the index")
        let asOf = try XCTUnwrap(Timestamp("2026-12-15T00:00:00Z"))
        let indexed = try BookingsTotals.scan(fixture.database, calendar: calendar, filter: .indexed, asOf: asOf)
        let scanned = try BookingsTotals.scan(fixture.database, calendar: calendar, filter: .tableScan, asOf: asOf)
        XCTAssertEqual(indexed.overall.bookings, 2)
        XCTAssertEqual(scanned.overall.bookings, 2)
        XCTAssertEqual(indexed.leadTimes, scanned.leadTimes)
        XCTAssertEqual(indexed.postalCodeRows, scanned.postalCodeRows)
        XCTAssertEqual(
            indexed.issues.sorted(by: QualityIssue.precedes), scanned.issues.sorted(by: QualityIssue.precedes))
        XCTAssertEqual(
            indexed.issues.map(\.kind).sorted { $0.rawValue < $1.rawValue },
            [.unresolvedPast, .unknownCustomer, .unknownSlot])
        XCTAssertEqual(
            try BookingsBreakdowns.services(fixture.database, calendar: calendar, filter: .indexed),
            try BookingsBreakdowns.services(fixture.database, calendar: calendar, filter: .tableScan))
        XCTAssertEqual(
            try QualityIssue.unknownServices(fixture.database, filter: .indexed, calendar: calendar),
            try QualityIssue.unknownServices(fixture.database, filter: .tableScan, calendar: calendar))
        XCTAssertEqual(
            try QualityIssue.unknownServices(fixture.database, filter: .indexed, calendar: calendar).map(\.record),
            ["last"])
    }
}
