import Time
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

    /// SPEC §4 (issue 30): a period that cuts a month. A customer with a counted booking in the
    /// month whose first booking ever is in that month but before `--from` is new, not neither.
    func testAPeriodThatCutsAMonthCountsEveryCustomerOnce() throws {
        let fixture = try BookingsAnalysisFixture()
        // early: first booking 2026-11-05 (before --from), again on the 20th → new in November.
        try fixture.booking("e1", starts: "2026-11-05T10:00:00+01:00", customer: "early")
        try fixture.booking("e2", starts: "2026-11-20T10:00:00+01:00", customer: "early")
        // old: first booking in October → returning in November.
        try fixture.booking("o1", starts: "2026-10-05T10:00:00+02:00", customer: "old")
        try fixture.booking("o2", starts: "2026-11-21T10:00:00+01:00", customer: "old")
        // inside: first booking on the 16th, inside the period → new.
        try fixture.booking("i1", starts: "2026-11-16T10:00:00+01:00", customer: "inside")
        // before-only: a booking on the 3rd and none in the period → not counted at all.
        try fixture.booking("b1", starts: "2026-11-03T10:00:00+01:00", customer: "before-only")
        // cancelled-in-period: first kept booking on the 2nd, only a cancelled one in the period → not counted.
        try fixture.booking("c1", starts: "2026-11-02T10:00:00+01:00", customer: "cancelled-in-period")
        try fixture.booking(
            "c2", starts: "2026-11-18T10:00:00+01:00", status: "cancelled", customer: "cancelled-in-period")
        // december: new in December (first booking there), inside the period.
        try fixture.booking("d1", starts: "2026-12-03T10:00:00+01:00", customer: "december")
        // late-first: a cancelled booking in November's period part, then the first kept one on
        // 2026-12-04 → new in December, nothing in November.
        try fixture.booking(
            "l1", starts: "2026-11-25T10:00:00+01:00", status: "cancelled", customer: "late-first")
        try fixture.booking("l2", starts: "2026-12-04T10:00:00+01:00", customer: "late-first")
        let report = try fixture.report(from: "2026-11-15", to: "2026-12-10")

        XCTAssertEqual(
            try report.rows("customers"),
            [
                [.text("2026-11"), .integer(2), .integer(1)],  // new: early, inside; returning: old
                [.text("2026-12"), .integer(2), .integer(0)],  // new: december, late-first
            ])
        XCTAssertEqual(try report.figure("new_customers"), .integer(4))
    }

    /// The invariant of SPEC §4 on generated data: in every month of any period, new + returning
    /// is the number of customers with a counted booking (non-cancelled, inside the period) in
    /// that month, and new is those whose first kept booking ever lies in the month. Checked
    /// against a plain computation over the generated records, for periods that cut months.
    func testNewPlusReturningIsEveryCustomerWithACountedBookingOnGeneratedData() throws {
        var random = SeededGenerator(seed: 30)
        let fixture = try BookingsAnalysisFixture()
        let statuses = ["pending", "confirmed", "paid", "done", "cancelled", "no_show"]
        // (customer, day ordinal from 2026-08-01, kept)
        var bookings: [(customer: String, day: Int, kept: Bool)] = []
        let first = try XCTUnwrap(Day("2026-08-01"))
        try fixture.database.transaction {
            for index in 0..<600 {
                let customer = "c\(Int.random(in: 0..<60, using: &random))"
                let offset = Int.random(in: 0..<150, using: &random)
                let status = statuses[Int.random(in: 0..<statuses.count, using: &random)]
                let date = first.adding(days: offset)
                try fixture.booking(
                    "g\(index)", starts: "\(date)T12:00:00Z", status: status, customer: customer,
                    cancelled: status == "cancelled" ? "\(date)T08:00:00Z" : nil)
                bookings.append((customer, offset, status != "cancelled"))
            }
        }
        for _ in 0..<8 {
            let start = Int.random(in: 0..<120, using: &random)
            let end = min(149, start + Int.random(in: 0..<70, using: &random))
            let from = first.adding(days: start), to = first.adding(days: end)
            let report = try fixture.report(from: from.description, to: to.description)
            var firstKept: [String: Int] = [:]
            for booking in bookings where booking.kept {
                firstKept[booking.customer] = min(firstKept[booking.customer] ?? Int.max, booking.day)
            }
            for row in try report.rows("customers") {
                guard case .text(let month) = row[0], case .integer(let new) = row[1],
                    case .integer(let returning) = row[2]
                else { return XCTFail("\(row)") }
                let counted = Set(
                    bookings.filter {
                        $0.kept && $0.day >= start && $0.day <= end
                            && first.adding(days: $0.day).monthKey == month
                    }.map(\.customer))
                let expectedNew = counted.filter {
                    first.adding(days: firstKept[$0] ?? Int.max).monthKey == month
                }.count
                XCTAssertEqual(Int(new + returning), counted.count, "\(from)…\(to) \(month)")
                XCTAssertEqual(Int(new), expectedNew, "\(from)…\(to) \(month)")
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a failure reproduces.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
