import Time
import XCTest
@testable import Habits

/// The report as a whole: the CSV contract, figures, charts, options, `--user` and quality.
final class HabitsReportTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    func testCSVTablesHaveExactlyTheContractColumns() throws {
        let report = try store.report(from: "2026-11-10")
        let contract: [String: [String]] = [
            "daily": [
                "user_id", "day", "score", "tasks_planned", "tasks_done", "flows", "flows_done", "focus_minutes",
                "morning_login", "badges", "streak", "consistency", "mood",
            ],
            "badges": ["user_id", "day", "badge"],
            "streaks": [
                "user_id", "active_days", "current_streak", "best_streak", "best_streak_start", "best_streak_end",
            ],
            "categories": ["category", "minutes", "percent", "estimated_minutes", "accuracy", "share"],
            "quality": ["issue", "record", "detail"],
        ]
        let csvTables = report.tables.filter { $0.outputs.contains(.csv) }
        XCTAssertEqual(Set(csvTables.map(\.name)), Set(contract.keys))
        for table in csvTables {
            XCTAssertEqual(table.columns.map(\.name), contract[table.name], table.name)
            // categories.csv has the SPEC's 0–100 percent; people see the share in `category_shares`.
            XCTAssertEqual(table.outputs, table.name == "categories" ? [.csv] : .all, table.name)
        }
        XCTAssertEqual(report.tables.last?.name, "quality")
        XCTAssertEqual(
            report.figures.map(\.metric),
            [
                "users", "active_users", "active_days", "average_score", "tasks_planned", "tasks_done", "flows",
                "flows_done", "focus_minutes", "morning_logins", "badges", "badges_morning_login", "badges_three_tasks",
                "badges_focus_15", "badges_flow_done", "badges_ultimate", "median_current_streak", "max_best_streak",
            ])
        let dataBars = report.tables.flatMap { table in
            table.columns.filter(\.dataBar).map { table.name + "." + $0.name }
        }
        XCTAssertEqual(dataBars, ["daily.score", "category_shares.share"])
        XCTAssertEqual(report.table(named: "categories")?.columns[2].type, .decimal(places: 2))
        XCTAssertEqual(report.table(named: "categories")?.columns[5].type, .percent)
        XCTAssertEqual(report.table(named: "category_shares")?.columns[2].type, .percent)
        for chart in report.charts {
            let table = try XCTUnwrap(report.table(named: chart.table), chart.title)
            XCTAssertFalse(table.outputs.contains(.csv), chart.table)
            XCTAssertEqual(Set(table.columns.map(\.name)), Set([chart.category] + chart.series), chart.title)
        }
        XCTAssertEqual(report.charts.map(\.kind), [.line, .column])
    }

    func testAnEmptyPeriodGivesAValidReport() throws {
        try store.task("t1", date: "2026-10-01")  // outside the period
        let report = try store.report(from: "2026-11-01", to: "2026-11-03")
        XCTAssertEqual(report.kind, "habits")
        XCTAssertEqual(report.scope, "2026-11-01_2026-11-03")
        for name in ["daily", "badges", "streaks", "categories", "quality"] {
            XCTAssertEqual(report.rows(name), [], name)
            XCTAssertEqual(report.table(named: name)?.rows.count, 0, name)
        }
        XCTAssertEqual(report.figure("users"), .integer(0))
        XCTAssertEqual(report.figure("badges"), .integer(0))
        XCTAssertEqual(report.figure("focus_minutes"), .number(0))
        XCTAssertEqual(report.figure("average_score"), .empty)
        XCTAssertEqual(report.figure("median_current_streak"), .empty)
        XCTAssertEqual(report.figure("max_best_streak"), .integer(0))
        XCTAssertEqual(
            report.rows("daily_average"),
            [
                [day("2026-11-01"), .empty], [day("2026-11-02"), .empty], [day("2026-11-03"), .empty],
            ])
        XCTAssertEqual(report.rows("badges_by_type").map { $0[1] }, Array(repeating: .integer(0), count: 5))
    }

    /// a: Nov 10 task done + morning login (50), Nov 11 mood only (0).
    /// b: Nov 10 a full 25-minute session (C = 1 → 20, focus_15), Nov 11 a flow done (F = 1 → 30, flow_done).
    private func loadTwoUsers() throws {
        try store.task("t1", user: "a", date: "2026-11-10")
        try store.login("a", at: "2026-11-10T08:00:00+01:00")
        try store.mood("a", date: "2026-11-11", mood: 3)
        try store.session("s1", user: "b", startedAt: "2026-11-10T20:00:00+01:00", total: 1500, remaining: 0)
        try store.flow("f1", user: "b", date: "2026-11-11")
    }

    func testSummaryFiguresAndChartTables() throws {
        try loadTwoUsers()
        let report = try store.report(from: "2026-11-10", to: "2026-11-11")
        let figures = Dictionary(uniqueKeysWithValues: report.figures.map { ($0.metric, $0.value) })
        XCTAssertEqual(figures["users"], .integer(2))
        XCTAssertEqual(figures["active_users"], .integer(2))
        XCTAssertEqual(figures["active_days"], .integer(2))  // a on Nov 10, b on Nov 11
        XCTAssertEqual(figures["average_score"], .number(25))  // (50 + 0 + 20 + 30) / 4
        XCTAssertEqual(figures["tasks_planned"], .integer(1))
        XCTAssertEqual(figures["tasks_done"], .integer(1))
        XCTAssertEqual(figures["flows"], .integer(1))
        XCTAssertEqual(figures["flows_done"], .integer(1))
        XCTAssertEqual(figures["focus_minutes"], .number(25))
        XCTAssertEqual(figures["morning_logins"], .integer(1))
        XCTAssertEqual(figures["badges"], .integer(3))
        XCTAssertEqual(figures["badges_morning_login"], .integer(1))
        XCTAssertEqual(figures["badges_three_tasks"], .integer(0))
        XCTAssertEqual(figures["badges_focus_15"], .integer(1))
        XCTAssertEqual(figures["badges_flow_done"], .integer(1))
        XCTAssertEqual(figures["badges_ultimate"], .integer(0))
        XCTAssertEqual(figures["median_current_streak"], .number(0.5))  // a 0 (Nov 11 inactive), b 1
        XCTAssertEqual(figures["max_best_streak"], .integer(1))
        XCTAssertEqual(
            report.rows("daily_average"),
            [
                [day("2026-11-10"), .number(35)],  // (50 + 20) / 2
                [day("2026-11-11"), .number(15)],  // (0 + 30) / 2
            ])
        // Words for people in the chart's table and the figures' titles; badges.csv keeps the codes.
        XCTAssertEqual(
            report.rows("badges_by_type"),
            [
                [.text("morning login"), .integer(1)], [.text("three tasks"), .integer(0)],
                [.text("15 min focus"), .integer(1)],
                [.text("flow done"), .integer(1)], [.text("ultimate"), .integer(0)],
            ])
        XCTAssertEqual(report.figures.first { $0.metric == "badges_morning_login" }?.title, "Badges: morning login")
        XCTAssertEqual(
            report.rows("badges").map { $0[2] }, [.text("morning_login"), .text("focus_15"), .text("flow_done")])
        XCTAssertEqual(
            report.rows("daily").map { [$0[0], $0[1], $0[2]] },
            [
                [.text("a"), day("2026-11-10"), .integer(50)], [.text("a"), day("2026-11-11"), .integer(0)],
                [.text("b"), day("2026-11-10"), .integer(20)], [.text("b"), day("2026-11-11"), .integer(30)],
            ])
    }

    func testUserFilterAppliesToEveryTable() throws {
        try loadTwoUsers()
        try store.flow("f2", user: "a", date: "2026-11-10", contexte: ["lecture"], realised: 5)
        let report = try store.report(from: "2026-11-10", to: "2026-11-11", user: "b")
        XCTAssertEqual(report.rows("daily").map { $0[0] }, [.text("b"), .text("b")])
        XCTAssertEqual(report.rows("badges").map { $0[0] }, [.text("b"), .text("b")])
        XCTAssertEqual(report.rows("streaks").map { $0[0] }, [.text("b")])
        XCTAssertEqual(report.rows("categories").map { $0[0] }, [.text("(none)")])  // b's flow only
        XCTAssertEqual(report.figure("users"), .integer(1))
        XCTAssertEqual(report.figure("tasks_planned"), .integer(0))
        XCTAssertTrue(report.parameters.contains { $0.name == "user" && $0.value == "b" })
    }

    func testOptionsScopesAndErrors() throws {
        try store.task("t1", date: "2026-11-10")
        XCTAssertEqual(try store.report(from: "2026-11-28").scope, "2026-11-28")
        XCTAssertEqual(try store.report(from: "2026-11-01", to: "2026-11-28").baseName, "habits-2026-11-01_2026-11-28")
        XCTAssertThrowsError(try store.report(from: "2026-11-28", to: "2026-11-01")) { error in
            XCTAssertEqual(
                (error as? HabitsAnalysisError)?.description,
                "--from 2026-11-28 is after --to 2026-11-01: give the earlier day first")
        }
        XCTAssertThrowsError(try store.report(from: "2026-11-10", user: "nobody")) { error in
            XCTAssertEqual(error as? HabitsAnalysisError, .unknownUser("nobody"))
        }
        XCTAssertThrowsError(try store.report(from: "2026-11-10", dayStartMinutes: 1440)) { error in
            XCTAssertEqual(error as? HabitsAnalysisError, .dayStartOutOfRange(1440))
        }
        // A known user without records in the period gets an empty report, not an error.
        try store.user("quiet")
        XCTAssertEqual(try store.report(from: "2026-11-10", user: "quiet").rows("daily"), [])
        // Yesterday in Paris: 2026-11-28T23:30Z is already Nov 29 00:30 in Paris.
        XCTAssertEqual(
            HabitsOptions.defaultDay(asOf: try XCTUnwrap(Timestamp("2026-11-28T23:30:00Z"))).description,
            "2026-11-28")
        XCTAssertEqual(
            HabitsOptions.defaultDay(asOf: try XCTUnwrap(Timestamp("2026-11-28T22:30:00Z"))).description,
            "2026-11-27")
        let options = HabitsOptions(
            day: try XCTUnwrap(Day("2026-11-10")), dayStartMinutes: 185, asOf: HabitsTestStore.asOf)
        XCTAssertEqual(options.dayStartText, "03:05")
    }

    func testQualityListsOrphansImpossibleSessionsAndStreakMismatches() throws {
        try store.user("u1", timezone: "Europe/Paris")
        try store.task("t1", user: "ghost", date: "2026-11-10")
        try store.login("ghost", at: "2026-11-10T12:00:00+01:00")
        // s1 ends before it starts; its interval is then [08:00, 08:25) from its 1500 s of focus.
        try store.session(
            "s1", startedAt: "2026-11-10T08:00:00+01:00", total: 1500, remaining: 0,
            endedAt: "2026-11-10T07:50:00+01:00")
        // s2 [08:10, 08:35) overlaps s1.
        try store.session(
            "s2", startedAt: "2026-11-10T08:10:00+01:00", total: 1500, remaining: 0,
            endedAt: "2026-11-10T08:35:00+01:00")
        // s3: 1500 s of focus in 300 s.
        try store.session(
            "s3", startedAt: "2026-11-10T09:00:00+01:00", total: 1500, remaining: 0,
            endedAt: "2026-11-10T09:05:00+01:00")
        // s4 starts when s3 ends: half-open intervals do not overlap.
        try store.session(
            "s4", startedAt: "2026-11-10T09:05:00+01:00", total: 1500, remaining: 0,
            endedAt: "2026-11-10T09:30:00+01:00")
        // Flows of Nov 10 (active thanks to f1: streak 1): f1 agrees, f2 does not; f3 is before the period.
        try store.flow("f1", date: "2026-11-10", streakDay: 1)
        try store.flow("f2", date: "2026-11-10", etat: "en_cours", streakDay: 3)
        try store.flow("f3", date: "2026-11-09", etat: "en_cours", streakDay: 9)
        let report = try store.report(from: "2026-11-10")
        XCTAssertEqual(
            report.rows("quality"),
            [
                [
                    .text("impossible_focus_session"), .text("s1"),
                    .text("ended at 2026-11-10T07:50:00+01:00 before it started at 2026-11-10T08:00:00+01:00"),
                ],
                [
                    .text("impossible_focus_session"), .text("s3"),
                    .text("1500 s of focus in 300 s between start and end"),
                ],
                [.text("overlapping_focus_sessions"), .text("s2"), .text("overlaps focus session s1")],
                [.text("streak_day_mismatch"), .text("f2"), .text("streakDay 3, computed streak 1 on 2026-11-10")],
                [.text("unknown_user"), .text("ghost"), .text("2 records without a users record (1 task, 1 login)")],
            ])
    }

    func testSameDataAndAsOfGiveTheSameReport() throws {
        try loadTwoUsers()
        let first = try store.report(from: "2026-11-10", to: "2026-11-11")
        let second = try store.report(from: "2026-11-10", to: "2026-11-11")
        for table in first.tables {
            XCTAssertEqual(table.rows.all, second.table(named: table.name)?.rows.all, table.name)
            XCTAssertEqual(table.rows.all, table.rows.all, "a second read of \(table.name) gives the same rows")
        }
        XCTAssertEqual(first.figures, second.figures)
    }
}
