import XCTest
@testable import Bookings

/// New and returning customers, repeat rate (SPEC §4).
final class BookingsAnalysisCustomersTests: XCTestCase {
    func testCustomerWhoseFirstBookingWasCancelledIsNewInTheSecondBookingsMonth() throws {
        let fixture = try BookingsAnalysisFixture()
        // c7: cancelled in October (the earliest booking, but cancelled), done in November → new in November.
        try fixture.booking(
            "k1", starts: "2026-10-05T10:00:00+02:00", status: "cancelled", customer: "c7",
            cancelled: "2026-10-01T10:00:00+02:00")
        try fixture.booking("k2", starts: "2026-11-15T10:00:00+01:00", status: "done", customer: "c7")
        let report = try fixture.report(from: "2026-10-01", to: "2026-11-30")

        XCTAssertEqual(report.baseName, "bookings-2026-10-01_2026-11-30")
        XCTAssertEqual(
            try report.rows("customers"),
            [
                [.text("2026-10"), .integer(0), .integer(0)],
                [.text("2026-11"), .integer(1), .integer(0)],
            ])
        XCTAssertEqual(try report.figure("new_customers"), .integer(1))
    }

    func testReturningCustomersHaveTheirFirstBookingBeforeTheMonth() throws {
        let fixture = try BookingsAnalysisFixture()
        // c8: first booking in September (before the period), then October twice and November → returning
        //     in October (counted once) and in November.
        try fixture.booking("s1", starts: "2026-09-20T10:00:00+02:00", status: "done", customer: "c8")
        try fixture.booking("o1", starts: "2026-10-02T10:00:00+02:00", status: "paid", customer: "c8")
        try fixture.booking("o2", starts: "2026-10-20T10:00:00+02:00", status: "no_show", customer: "c8")
        try fixture.booking("n1", starts: "2026-11-03T10:00:00+01:00", status: "confirmed", customer: "c8")
        // c9: new in October, returning in November; a cancelled December booking is outside the period.
        try fixture.booking("o3", starts: "2026-10-10T10:00:00+02:00", status: "done", customer: "c9")
        try fixture.booking("n2", starts: "2026-11-10T10:00:00+01:00", status: "done", customer: "c9")
        // c10: only cancelled bookings in the period: neither new nor returning.
        try fixture.booking("x1", starts: "2026-11-11T10:00:00+01:00", status: "cancelled", customer: "c10")
        // c11: first booking on 2026-12-01, after the period: not counted at all.
        try fixture.booking("d1", starts: "2026-12-01T10:00:00+01:00", status: "done", customer: "c11")
        let report = try fixture.report(from: "2026-10-01", to: "2026-11-30", asOf: "2026-11-01T00:00:00Z")

        XCTAssertEqual(
            try report.rows("customers"),
            [
                [.text("2026-10"), .integer(1), .integer(1)],  // new c9; returning c8
                [.text("2026-11"), .integer(0), .integer(2)],  // returning c8, c9
            ])
        XCTAssertEqual(try report.figure("new_customers"), .integer(1))
        // Up to the period's end, kept bookings per customer: c8 4, c9 2 (c10 none, c11 after the end).
        // 2 customers with ≥ 2 / 2 with ≥ 1 = 1.0
        assertNumber(try report.figure("repeat_rate"), 1.0)
    }

    func testRepeatRateCountsAllKeptBookingsUpToThePeriodsEnd() throws {
        let fixture = try BookingsAnalysisFixture()
        // a: two kept bookings, one long before the period → repeater
        try fixture.booking("a1", starts: "2025-03-01T10:00:00+01:00", customer: "a")
        try fixture.booking("a2", starts: "2026-11-02T10:00:00+01:00", customer: "a")
        // b: one kept + one cancelled → not a repeater
        try fixture.booking("b1", starts: "2026-11-03T10:00:00+01:00", customer: "b")
        try fixture.booking("b2", starts: "2026-11-04T10:00:00+01:00", status: "cancelled", customer: "b")
        // c: one kept in the period, one after its end → not a repeater
        try fixture.booking("c1", starts: "2026-11-05T10:00:00+01:00", customer: "c")
        try fixture.booking("c2", starts: "2026-12-05T10:00:00+01:00", customer: "c")
        // d: two kept bookings before the period only → still counts (all bookings up to the end)
        try fixture.booking("d1", starts: "2026-01-05T10:00:00+01:00", customer: "d")
        try fixture.booking("d2", starts: "2026-02-05T10:00:00+01:00", customer: "d")
        let report = try fixture.report(month: "2026-11")
        // ≥ 2 kept: a, d = 2; ≥ 1 kept: a, b, c, d = 4 → 0.5
        assertNumber(try report.figure("repeat_rate"), 0.5)
        // a, b, c each have a kept November booking; a's first was in 2025 → returning; b and c → new.
        XCTAssertEqual(try report.rows("customers"), [[.text("2026-11"), .integer(2), .integer(1)]])
    }
}
