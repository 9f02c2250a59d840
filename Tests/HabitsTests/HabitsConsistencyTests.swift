import XCTest
@testable import Habits

/// Loop Habit Tracker's habit strength: c(D) = c(D−1)·m + a(D)·(1 − m), m = 0.5^(1/13) ≈ 0.948078.
final class HabitsConsistencyTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    func testOneActiveDayFromZero() throws {
        // The user's first record is this task: c = 0·m + 1·(1 − m) = 1 − 0.948078 = 0.051922.
        try store.task("t1", date: "2026-11-10")
        let report = try store.report(from: "2026-11-10")
        assertNumber(report.daily("u1", "2026-11-10")?["consistency"], 0.051922, accuracy: 5e-7)
    }

    func testFromOneHalfActiveAndInactive() throws {
        // 13 active days from 0: c = 1 − m¹³ = 1 − 0.5 = 0.5 (m¹³ = 0.5 by definition).
        for offset in 0..<13 {
            let date = "2026-11-" + String(1 + offset).leftPadded(2)
            try store.task("a\(offset)", user: "active", date: date)
            try store.task("i\(offset)", user: "inactive", date: date)
        }
        // Day 14: one user does a task, the other only records a mood.
        try store.task("a13", user: "active", date: "2026-11-14")
        try store.mood("inactive", date: "2026-11-14", mood: 3)
        let report = try store.report(from: "2026-11-13", to: "2026-11-14")
        assertNumber(report.daily("active", "2026-11-13")?["consistency"], 0.5, accuracy: 1e-12)
        // Active: 0.5·m + (1 − m) = 1 − 0.5·0.948078 = 0.525961.
        assertNumber(report.daily("active", "2026-11-14")?["consistency"], 0.525961, accuracy: 5e-7)
        // Inactive: 0.5·m = 0.474039.
        assertNumber(report.daily("inactive", "2026-11-14")?["consistency"], 0.474039, accuracy: 5e-7)
    }

    func testDaysWithoutRecordsStillStep() throws {
        // Nov 1 active: c = 1 − m = 0.0519225. Nov 2 and 3 have no record but are stepped
        // (inactive); Nov 4 has only a mood: c = (1 − m)·m³ = 0.0519225 · 0.852188 = 0.0442473.
        try store.task("t1", date: "2026-11-01")
        try store.mood(date: "2026-11-04", mood: 2)
        let report = try store.report(from: "2026-11-04")
        assertNumber(report.daily("u1", "2026-11-04")?["consistency"], 0.0442473, accuracy: 5e-7)
    }

    func testZeroBeforeTheFirstRecord() throws {
        // The first record is an inactive mood on Nov 1 (c stays 0); Nov 2 active gives 1 − m, as
        // if nothing came before: the year 2026 before Nov 1 is never stepped.
        try store.mood(date: "2026-11-01", mood: 4)
        try store.task("t1", date: "2026-11-02")
        let report = try store.report(from: "2026-11-01", to: "2026-11-02")
        assertNumber(report.daily("u1", "2026-11-01")?["consistency"], 0)
        assertNumber(report.daily("u1", "2026-11-02")?["consistency"], 0.051922, accuracy: 5e-7)
    }
}

extension String {
    /// `"7".leftPadded(2)` → `"07"`.
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
