import XCTest
@testable import Bookings

/// Occupancy (SPEC §4): capacity of slots, bookings of any status but cancelled, known slot or not.
final class BookingsAnalysisOccupancyTests: XCTestCase {
    func testSlotDayWithZeroCapacityHasEmptyOccupancy() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.slot("closed", starts: "2026-11-12T10:00:00+01:00", ends: "2026-11-12T11:00:00+01:00", capacity: 0)
        try fixture.booking("b1", starts: "2026-11-12T10:30:00+01:00", slot: "closed")
        let report = try fixture.report(month: "2026-11")

        // morning: capacity 0, booked 1 → 1 / 0: empty, not infinite, not 0
        let morning = try XCTUnwrap(report.rows("occupancy", where: try day("2026-11-12")).first)
        XCTAssertEqual(morning, [try day("2026-11-12"), .text("morning"), .integer(0), .integer(1), .empty])
        let byPeriod = try report.rows("occupancy_by_period")
        XCTAssertEqual(byPeriod.first, [.text("morning"), .integer(0), .integer(1), .empty])
        // The heat map leaves that cell blank (NaN) rather than showing 0 %.
        let heatMap = try XCTUnwrap(report.heatMap)
        let row = try XCTUnwrap(heatMap.rowLabels.firstIndex(of: "2026-11-12"))
        XCTAssertTrue(heatMap.cells[row][0].isNaN)
        XCTAssertEqual(try report.rows("quality"), [], "a known slot with capacity 0 is not a quality issue")
    }

    func testOverbookingReportsOccupancyAboveOne() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.slot("evening", starts: "2026-11-13T19:00:00+01:00", ends: "2026-11-13T21:00:00+01:00", capacity: 2)
        // Booked: paid + no_show + pending (no slot id) + confirmed (unknown slot) = 4; the cancelled one is not.
        try fixture.booking("paid", starts: "2026-11-13T19:00:00+01:00", slot: "evening")
        try fixture.booking("absent", starts: "2026-11-13T19:30:00+01:00", status: "no_show", slot: "evening")
        try fixture.booking("pending", starts: "2026-11-13T20:00:00+01:00", status: "pending")
        try fixture.booking("ghost", starts: "2026-11-13T20:00:00+01:00", status: "confirmed", slot: "nowhere")
        try fixture.booking(
            "gone", starts: "2026-11-13T19:00:00+01:00", status: "cancelled", slot: "evening",
            cancelled: "2026-11-01T10:00:00+01:00")
        // Seen before these bookings start, so that the pending ones are not unresolved yet.
        let report = try fixture.report(from: "2026-11-01", to: "2026-11-30", asOf: "2026-11-01T12:00:00Z")

        // evening: capacity 2, booked 4 → 4 / 2 = 2.0 (200 %), not capped at 1
        let evening = try XCTUnwrap(report.rows("occupancy", where: try day("2026-11-13")).last)
        XCTAssertEqual(Array(evening.prefix(4)), [try day("2026-11-13"), .text("evening"), .integer(2), .integer(4)])
        assertNumber(evening[4], 2.0)
        let heatMap = try XCTUnwrap(report.heatMap)
        let row = try XCTUnwrap(heatMap.rowLabels.firstIndex(of: "2026-11-13"))
        XCTAssertEqual(heatMap.cells[row][2], 2.0, accuracy: 1e-9)  // a ratio, shown as 200 %
        let byPeriod = try report.rows("occupancy_by_period")
        XCTAssertEqual(byPeriod.map { $0[0] }, [.text("morning"), .text("afternoon"), .text("evening")])
        XCTAssertEqual(Array(byPeriod[2].prefix(3)), [.text("evening"), .integer(2), .integer(4)])
        assertNumber(byPeriod[2][3], 2.0)
        // The unknown slot is a quality issue; the booking without a slot id is not.
        XCTAssertEqual(
            try report.rows("quality").map { Array($0.prefix(2)) }, [[.text("unknown_slot"), .text("ghost")]])
        XCTAssertEqual(try report.figure("unknown_slots"), .integer(1))
    }

    func testCapacityAddsUpOverSlotsOfTheSameDayPeriodAndOnlyInThePeriod() throws {
        let fixture = try BookingsAnalysisFixture()
        // Two afternoon slots on the 2nd: 3 + 2 = 5; one on 2026-10-31 (outside November) is ignored.
        try fixture.slot("a1", starts: "2026-11-02T13:00:00+01:00", ends: "2026-11-02T14:00:00+01:00", capacity: 3)
        try fixture.slot("a2", starts: "2026-11-02T17:59:00+01:00", ends: "2026-11-02T19:00:00+01:00", capacity: 2)
        try fixture.slot("october", starts: "2026-10-31T13:00:00+01:00", ends: "2026-10-31T14:00:00+01:00", capacity: 9)
        try fixture.booking("b1", starts: "2026-11-02T13:00:00+01:00", slot: "a1")
        let report = try fixture.report(month: "2026-11")
        let afternoon = try XCTUnwrap(report.rows("occupancy", where: try day("2026-11-02")).dropFirst().first)
        XCTAssertEqual(
            Array(afternoon.prefix(4)), [try day("2026-11-02"), .text("afternoon"), .integer(5), .integer(1)])
        assertNumber(afternoon[4], 0.2)  // 1 / 5
        let totalCapacity = try report.rows("occupancy").reduce(Int64(0)) { sum, row in
            if case .integer(let value) = row[2] { return sum + value }
            return sum
        }
        XCTAssertEqual(totalCapacity, 5)
    }
}
