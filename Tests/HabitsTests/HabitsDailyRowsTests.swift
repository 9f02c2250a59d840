import ReportModel
import Time
import XCTest
@testable import Habits

/// The packed `daily` rows give back exactly what was appended, across chunks and for extremes.
final class HabitsDailyRowsTests: XCTestCase {
    private func row(_ index: Int) -> HabitsDailyRow {
        HabitsDailyRow(
            user: index / 300, day: Day(ordinal: (index % 300) * (index % 2 == 0 ? 1 : -1) + 20_000),
            score: index % 101, tasksPlanned: index % 7, tasksDone: index * 31 % 1_000_003, flows: index % 3,
            flowsDone: index % 2, focusSeconds: Int64(index) * 1_000_000_007,
            badges: HabitsBadges(rawValue: UInt8(index % 32)),
            streak: index % 400, consistency: 1 / Double(index + 3), mood: index % 6 == 0 ? nil : index % 6)
    }

    func testRowsRoundTripAcrossChunks() {
        var rows = HabitsDailyRows()
        // About 25 bytes a row: 100,000 rows fill more than two 1 MiB chunks.
        let count = 100_000
        for index in 0..<count { rows.append(row(index)) }
        XCTAssertEqual(rows.count, count)
        var decoded = 0
        let iterator = rows.makeIterator()
        while let next = iterator.next() {
            if next != row(decoded) {
                XCTFail("row \(decoded) differs: \(next)")
                return
            }
            decoded += 1
        }
        XCTAssertEqual(decoded, count)
    }

    func testExtremeValuesSurvive() {
        var rows = HabitsDailyRows()
        let extreme = HabitsDailyRow(
            user: 0, day: Day(ordinal: -719_162), score: 100, tasksPlanned: Int(Int32.max),
            tasksDone: 0, flows: 0, flowsDone: 0, focusSeconds: Int64.max,
            badges: [.morningLogin, .ultimate], streak: 3_000_000, consistency: 0.525961,
            mood: 5)
        rows.append(extreme)
        var later = extreme
        later.user = 1_000_000
        later.day = Day(ordinal: 2_932_896)
        later.consistency = .leastNonzeroMagnitude
        later.mood = nil
        rows.append(later)
        XCTAssertEqual(Array(rows.makeIterator()), [extreme, later])
    }

    /// Focus seconds are summed in checked 64-bit integers (issue 30): a user-day whose sum
    /// overflowed (`Int64.max`) and a period total past a cell's 15 digits are empty, never a
    /// wrong figure; an exact total is shown.
    func testFocusMinutesAreExactOrEmpty() throws {
        var totals = HabitsTotals()
        var exact = row(1)
        exact.focusSeconds = 599_999_999_999_940  // 9,999,999,999,999.00 minutes: 15 digits
        totals.add(exact)
        XCTAssertEqual(HabitsTotals.minutes(totals.focusSeconds), 9_999_999_999_999)
        let figure = try XCTUnwrap(totals.figures.first { $0.metric == "focus_minutes" })
        XCTAssertEqual(figure.value, .number(9_999_999_999_999))
        var overflowed = row(2)
        overflowed.focusSeconds = Int64.max
        XCTAssertNil(HabitsTotals.minutes(CheckedTotal(overflowed.focusSeconds)), "the row's own cell is empty")
        totals.add(overflowed)
        XCTAssertTrue(totals.focusSeconds.overflowed)
        XCTAssertEqual(totals.figures.first { $0.metric == "focus_minutes" }?.value, .empty)
    }
}
