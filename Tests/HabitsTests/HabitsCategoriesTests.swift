import XCTest
import ReportModel
@testable import Habits

/// The "% spent" categories: flows done in the period, time split equally among contexts.
final class HabitsCategoriesTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    func testTimeIsSplitAmongContextsAndEveryCategoryIsListed() throws {
        // 30 min done, 60 estimated, over 3 entries: sport 2/3 (20, 40), santé 1/3 (10, 20).
        try store.flow("f1", date: "2026-11-10", contexte: ["sport", "santé", "sport"], estimated: 60, realised: 30)
        // No context: all to (none), 15 min, nothing estimated.
        try store.flow("f2", date: "2026-11-10", realised: 15)
        // An empty context list is (none) too: 7.5 min.
        try store.flow("f3", date: "2026-11-11", contexte: [], realised: 7.5)
        // lecture: 0 min done, 10 estimated; listed at 0.
        try store.flow("f4", date: "2026-11-11", contexte: ["lecture"], estimated: 10)
        // Not counted: done before the period, or not done.
        try store.flow("f5", date: "2026-11-01", contexte: ["sport"], realised: 100)
        try store.flow("f6", date: "2026-11-10", etat: "en_cours", contexte: ["travail"], realised: 50)
        // Dated before the period but completed in it: counted (12.5 min of travail).
        try store.flow(
            "f7", date: "2026-11-09", contexte: ["travail"], estimated: 10, realised: 12.5,
            completedAt: "2026-11-10T08:00:00+01:00")
        let report = try store.report(from: "2026-11-10", to: "2026-11-11")
        // All minutes: 20 + 10 + 15 + 7.5 + 0 + 12.5 = 65.
        // percent: (none) 22.5/65 = 34.615… → 34.62; lecture 0; santé 10/65 = 15.384… → 15.38;
        // sport 20/65 = 30.769… → 30.77; travail 12.5/65 = 19.230… → 19.23.
        // accuracy = minutes / estimated: (none) empty (0 estimated), lecture 0/10 = 0, santé 10/20 = 0.5,
        // sport 20/40 = 0.5, travail 12.5/10 = 1.25. share: the unrounded ratio (minutes / 65).
        let none: Double = 22.5 / 65
        let sante: Double = 10.0 / 65
        let sport: Double = 20.0 / 65
        let travail: Double = 12.5 / 65
        let expected: [[Value]] = [
            [.text("(none)"), .number(22.5), .number(34.62), .number(0), .empty, .number(none)],
            [.text("lecture"), .number(0), .number(0), .number(10), .number(0), .number(0)],
            [.text("santé"), .number(10), .number(15.38), .number(20), .number(0.5), .number(sante)],
            [.text("sport"), .number(20), .number(30.77), .number(40), .number(0.5), .number(sport)],
            [.text("travail"), .number(12.5), .number(19.23), .number(10), .number(1.25), .number(travail)],
        ]
        XCTAssertEqual(report.rows("categories"), expected)
        // The workbook and Markdown show the share (a ratio shown as a percentage), not the 0–100 percent.
        let shown: [[Value]] = report.rows("category_shares").map { [$0[0], $0[2]] }
        let shares: [[Value]] = [
            [.text("(none)"), .number(none)], [.text("lecture"), .number(0)], [.text("santé"), .number(sante)],
            [.text("sport"), .number(sport)], [.text("travail"), .number(travail)],
        ]
        XCTAssertEqual(shown, shares)
    }

    func testPercentIsEmptyWhenNoMinutesWereSpent() throws {
        try store.flow("f1", date: "2026-11-10", contexte: ["sport"])
        let report = try store.report(from: "2026-11-10")
        XCTAssertEqual(report.rows("categories"), [[.text("sport"), .number(0), .empty, .number(0), .empty, .empty]])
    }
}
