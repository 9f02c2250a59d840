import XCTest
@testable import Habits

/// Streaks on each day, best streaks and current streaks (SPEC §3).
final class HabitsStreakTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    /// One task done on each given day of November 2026.
    private func activeDays(_ days: [Int], user: String = "u1") throws {
        for day in days {
            try store.task("\(user)-\(day)", user: user, date: "2026-11-" + String(day).leftPadded(2))
        }
    }

    func testAStreakBrokenByOneEmptyDay() throws {
        try activeDays([1, 2, 4, 5, 6])  // Nov 3 has nothing at all
        let report = try store.report(from: "2026-11-01", to: "2026-11-06")
        XCTAssertEqual(
            report.streakColumn("u1"),
            [
                "2026-11-01 1", "2026-11-02 2", "2026-11-04 1", "2026-11-05 2", "2026-11-06 3",
            ])
        // 5 active days; the run Nov 4–6 (3) beats Nov 1–2 (2) and is the current one.
        XCTAssertEqual(
            report.rows("streaks"),
            [
                [
                    .text("u1"), .integer(5), .integer(3), .integer(3), day("2026-11-04"), day("2026-11-06"),
                ]
            ])
    }

    func testATieForTheBestStreakGoesToTheMostRecent() throws {
        try activeDays([1, 2, 3, 5, 6, 7])
        try store.mood(date: "2026-11-04", mood: 2)  // an inactive day with a row
        try store.mood(date: "2026-11-08", mood: 2)
        let report = try store.report(from: "2026-11-01", to: "2026-11-08")
        XCTAssertEqual(report.daily("u1", "2026-11-04")?["streak"], .integer(0))
        // Two runs of 3: Nov 1–3 and Nov 5–7; the later wins. Nov 8 is inactive: current 0.
        XCTAssertEqual(
            report.rows("streaks"),
            [
                [
                    .text("u1"), .integer(6), .integer(0), .integer(3), day("2026-11-05"), day("2026-11-07"),
                ]
            ])
    }

    func testStreaksCountDaysBeforeThePeriod() throws {
        try activeDays([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], user: "old")  // a 10-day run long before
        try activeDays([20], user: "old")
        try activeDays([17, 18, 19, 20], user: "running")  // a run entering the period
        let report = try store.report(from: "2026-11-20")
        // old: streak 1 on Nov 20; best 10 (Nov 1–10) from before the period; 1 active day.
        XCTAssertEqual(
            report.rows("streaks")[0],
            [
                .text("old"), .integer(1), .integer(1), .integer(10), day("2026-11-01"), day("2026-11-10"),
            ])
        // running: Nov 17–20 → streak 4 on Nov 20, current 4, best 4.
        XCTAssertEqual(report.daily("running", "2026-11-20")?["streak"], .integer(4))
        XCTAssertEqual(
            report.rows("streaks")[1],
            [
                .text("running"), .integer(1), .integer(4), .integer(4), day("2026-11-17"), day("2026-11-20"),
            ])
        XCTAssertEqual(report.figure("median_current_streak"), .number(2.5))  // (1 + 4) / 2
        XCTAssertEqual(report.figure("max_best_streak"), .integer(10))
    }

    func testTheBestStreakIsCutAtThePeriodsLastDay() throws {
        try activeDays([1, 2, 3, 4, 5, 6, 7, 8])
        let report = try store.report(from: "2026-11-02", to: "2026-11-04")
        // Days after Nov 4 are not seen: best = current = 4 (Nov 1–4).
        XCTAssertEqual(
            report.rows("streaks"),
            [
                [
                    .text("u1"), .integer(3), .integer(4), .integer(4), day("2026-11-01"), day("2026-11-04"),
                ]
            ])
    }
}
