import XCTest
@testable import Habits

/// The per-day counts, the score and the badges (SPEC §3).
final class HabitsMetricsTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    func testTaskCompletedTheDayAfterItsDate() throws {
        try store.task("t1", date: "2026-11-10", completedAt: "2026-11-11T09:00:00+01:00")
        let report = try store.report(from: "2026-11-10", to: "2026-11-11")
        // Nov 10: planned 1, done 0 → T = 0, inactive, streak 0.
        let planned = try XCTUnwrap(report.daily("u1", "2026-11-10"))
        XCTAssertEqual(planned["tasks_planned"], .integer(1))
        XCTAssertEqual(planned["tasks_done"], .integer(0))
        XCTAssertEqual(planned["score"], .integer(0))
        XCTAssertEqual(planned["streak"], .integer(0))
        // Nov 11: done without a plan → T = 1 → 40, active, streak 1.
        let done = try XCTUnwrap(report.daily("u1", "2026-11-11"))
        XCTAssertEqual(done["tasks_planned"], .integer(0))
        XCTAssertEqual(done["tasks_done"], .integer(1))
        XCTAssertEqual(done["score"], .integer(40))
        XCTAssertEqual(done["streak"], .integer(1))
    }

    func testTheSameTaskInTwoExportsCountsOnce() throws {
        // The first export still has it to do; the second (imported later) has it done.
        try store.task("t1", date: "2026-11-10", state: "a_faire")
        try store.task("t1", date: "2026-11-10", state: "terminee")
        try store.task("t2", date: "2026-11-10", state: "terminee")
        try store.task("t2", date: "2026-11-10", state: "terminee")
        let row = try XCTUnwrap(try store.report(from: "2026-11-10").daily("u1", "2026-11-10"))
        // Two distinct tasks, both done: T = 2/2 → 40.
        XCTAssertEqual(row["tasks_planned"], .integer(2))
        XCTAssertEqual(row["tasks_done"], .integer(2))
        XCTAssertEqual(row["score"], .integer(40))
    }

    func testScoreRoundsHalfUpOnTheExactValue() throws {
        // Two flows dated Nov 10, neither done: 1 of 3 steps and 1 of 2 steps.
        // F = (1/3 + 1/2) / 2 = 5/12; 30·F = 12.5 exactly (12.4999… in binary floating point) → 13.
        try store.flow("f1", date: "2026-11-10", etat: "en_cours", steps: [true, false, false])
        try store.flow("f2", date: "2026-11-10", etat: "en_cours", steps: [true, false])
        // Nov 11: the same flows' shape, plus 3 tasks of which 1 done (T = 1/3 → 13.333…)
        // and 50 s of focus (C = 50/1500 → 0.666…): 13.333… + 12.5 + 0.666… = 26.5 → 27.
        try store.flow("f3", date: "2026-11-11", etat: "en_cours", steps: [false, true, false])
        try store.flow("f4", date: "2026-11-11", etat: "cree", steps: [false, true])
        try store.task("t1", date: "2026-11-11", state: "terminee")
        try store.task("t2", date: "2026-11-11", state: "a_faire")
        try store.task("t3", date: "2026-11-11", state: "en_cours")
        try store.session("s1", startedAt: "2026-11-11T08:00:00+01:00", total: 1500, remaining: 1450)
        // Nov 12: T = 1/3 alone → 13.333… → 13.
        try store.task("t4", date: "2026-11-12", state: "terminee")
        try store.task("t5", date: "2026-11-12", state: "a_faire")
        try store.task("t6", date: "2026-11-12", state: "a_faire")
        let report = try store.report(from: "2026-11-10", to: "2026-11-12")
        XCTAssertEqual(report.daily("u1", "2026-11-10")?["score"], .integer(13))
        XCTAssertEqual(report.daily("u1", "2026-11-11")?["score"], .integer(27))
        XCTAssertEqual(report.daily("u1", "2026-11-12")?["score"], .integer(13))
        XCTAssertEqual(report.daily("u1", "2026-11-10")?["flows"], .integer(2))
        XCTAssertEqual(report.daily("u1", "2026-11-10")?["flows_done"], .integer(0))
    }

    func testFlowsCountDoneStepsAndCompletionDays() throws {
        // Nov 10: f1 termine (1), f2 en_cours 1 of 4 steps (0.25), f3 cree without steps (0):
        // F = 1.25 / 3; 30·F = 12.5 → 13. f1 has no completedAt: done on its date.
        try store.flow("f1", date: "2026-11-10")
        try store.flow("f2", date: "2026-11-10", etat: "en_cours", steps: [true, false, false, false])
        try store.flow("f3", date: "2026-11-10", etat: "cree")
        // f4 dated Nov 11, termine, completed Nov 12 (09:00 Paris): counts 1 in F of Nov 11, done on Nov 12.
        try store.flow("f4", date: "2026-11-11", completedAt: "2026-11-12T09:00:00+01:00")
        let report = try store.report(from: "2026-11-10", to: "2026-11-12")
        let tenth = try XCTUnwrap(report.daily("u1", "2026-11-10"))
        XCTAssertEqual(tenth["flows"], .integer(3))
        XCTAssertEqual(tenth["flows_done"], .integer(1))
        XCTAssertEqual(tenth["score"], .integer(13))
        XCTAssertEqual(tenth["badges"], .integer(1))  // flow_done
        // Nov 11: one flow dated, done (F = 1 → 30), but completed on Nov 12: not active.
        let eleventh = try XCTUnwrap(report.daily("u1", "2026-11-11"))
        XCTAssertEqual(eleventh["flows"], .integer(1))
        XCTAssertEqual(eleventh["flows_done"], .integer(0))
        XCTAssertEqual(eleventh["score"], .integer(30))
        XCTAssertEqual(eleventh["streak"], .integer(0))
        // Nov 12: no flow dated, one done: F = 0, score 0, yet active.
        let twelfth = try XCTUnwrap(report.daily("u1", "2026-11-12"))
        XCTAssertEqual(twelfth["flows_done"], .integer(1))
        XCTAssertEqual(twelfth["score"], .integer(0))
        XCTAssertEqual(twelfth["streak"], .integer(1))
    }

    func testFocusOf900SecondsEarnsTheBadgeAnd899DoesNot() throws {
        try store.session("s1", user: "exact", startedAt: "2026-11-10T14:00:00+01:00", total: 1500, remaining: 600)
        try store.session("s2", user: "short", startedAt: "2026-11-10T14:00:00+01:00", total: 1500, remaining: 601)
        // Two sessions of 450 s make 900 s of focus but no single session of 900 s.
        try store.session("s3", user: "split", startedAt: "2026-11-10T14:00:00+01:00", total: 450, remaining: 0)
        try store.session("s4", user: "split", startedAt: "2026-11-10T15:00:00+01:00", total: 450, remaining: 0)
        let report = try store.report(from: "2026-11-10")
        XCTAssertEqual(report.rows("badges"), [[.text("exact"), day("2026-11-10"), .text("focus_15")]])
        // 900 s = 15 min: C = 0.6 → 12. 899 s = 14.9833 min: 20·899/1500 = 11.9867 → 12.
        assertNumber(report.daily("exact", "2026-11-10")?["focus_minutes"], 15)
        assertNumber(report.daily("short", "2026-11-10")?["focus_minutes"], 899.0 / 60)
        XCTAssertEqual(report.daily("exact", "2026-11-10")?["score"], .integer(12))
        XCTAssertEqual(report.daily("short", "2026-11-10")?["score"], .integer(12))
        XCTAssertEqual(report.daily("split", "2026-11-10")?["badges"], .integer(0))
    }

    /// Everything for every badge on Nov 10 for `full`; `partial` lacks the third task.
    private func loadBadgeDay(_ user: String, tasks: Int) throws {
        try store.login(user, at: "2026-11-10T08:00:00+01:00")
        for index in 0..<tasks { try store.task("\(user)-t\(index)", user: user, date: "2026-11-10") }
        try store.session("\(user)-s", user: user, startedAt: "2026-11-10T09:00:00+01:00", total: 1500, remaining: 600)
        try store.flow("\(user)-f", user: user, date: "2026-11-10")
    }

    func testUltimateNeedsTheFourOthers() throws {
        try loadBadgeDay("full", tasks: 3)
        try loadBadgeDay("partial", tasks: 2)
        let report = try store.report(from: "2026-11-10")
        // full: T = 3/3 → 40, F = 1 → 30, C = 900/1500 → 12, M → 10: 92, five badges.
        XCTAssertEqual(report.daily("full", "2026-11-10")?["score"], .integer(92))
        XCTAssertEqual(report.daily("full", "2026-11-10")?["badges"], .integer(5))
        // partial: T = 2/2 → 40, same otherwise: 92, but no three_tasks, hence no ultimate.
        XCTAssertEqual(report.daily("partial", "2026-11-10")?["score"], .integer(92))
        XCTAssertEqual(report.daily("partial", "2026-11-10")?["badges"], .integer(3))
        XCTAssertEqual(
            report.rows("badges").map { [$0[0], $0[2]] },
            [
                [.text("full"), .text("morning_login")], [.text("full"), .text("three_tasks")],
                [.text("full"), .text("focus_15")], [.text("full"), .text("flow_done")],
                [.text("full"), .text("ultimate")],
                [.text("partial"), .text("morning_login")], [.text("partial"), .text("focus_15")],
                [.text("partial"), .text("flow_done")],
            ])
        XCTAssertEqual(report.figure("badges_ultimate"), .integer(1))
        XCTAssertEqual(report.figure("badges"), .integer(8))
    }

    func testADayWithOnlyAMood() throws {
        try store.mood(date: "2026-11-10", mood: 4)
        let report = try store.report(from: "2026-11-10")
        XCTAssertEqual(
            report.rows("daily"),
            [
                [
                    .text("u1"), day("2026-11-10"), .integer(0), .integer(0), .integer(0), .integer(0), .integer(0),
                    .number(0), .boolean(false), .integer(0), .integer(0), .number(0), .integer(4),
                ]
            ])
        XCTAssertEqual(report.rows("streaks"), [[.text("u1"), .integer(0), .integer(0), .integer(0), .empty, .empty]])
        XCTAssertEqual(report.figure("users"), .integer(1))
        XCTAssertEqual(report.figure("active_users"), .integer(0))
    }

    func testMorningLoginEndsBeforeTen() throws {
        try store.login("early", at: "2026-11-10T00:00:00+01:00")  // midnight: at the day start
        try store.login("late", at: "2026-11-10T10:00:00+01:00")  // 10:00:00 is not before 10:00
        try store.login("late", at: "2026-11-10T09:59:59+01:00")
        try store.login("never", at: "2026-11-10T10:00:00+01:00")
        let report = try store.report(from: "2026-11-10")
        XCTAssertEqual(report.daily("early", "2026-11-10")?["morning_login"], .boolean(true))
        XCTAssertEqual(report.daily("late", "2026-11-10")?["morning_login"], .boolean(true))
        XCTAssertEqual(report.daily("never", "2026-11-10")?["morning_login"], .boolean(false))
        XCTAssertEqual(report.figure("morning_logins"), .integer(2))
    }
}
