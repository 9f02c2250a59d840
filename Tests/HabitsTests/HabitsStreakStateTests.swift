import Foundation
import Import
import ReportModel
import Store
import Time
import ReportTestSupport
import XCTest
@testable import Habits

/// The cached running state (`habits_streak_state`): a report resumed from it gives exactly the
/// figures of the full walk, and imports invalidate it when they touch what it summarises.
final class HabitsStreakStateTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws {
        store = try HabitsTestStore()
    }
    override func tearDown() { store = nil }

    // MARK: Sample data, night after night

    func testSampleDataNightAfterNightMatchesTheFullWalk() throws {
        try importSampleData()
        let (first, last) = try dateRange()
        var resumedNights = 0
        for ordinal in (first.ordinal + 10)...(last.ordinal + 2) {
            let day = Day(ordinal: ordinal)
            let statesBefore = try store.count("habits_streak_state")
            try assertCachedEqualsFull(from: day, to: day)
            if statesBefore > 0 { resumedNights += 1 }
        }
        XCTAssertGreaterThan(resumedNights, 20, "the cache was never there to resume from")
        let through = try store.database.scalarInt("SELECT MAX(through_day) FROM habits_streak_state")
        XCTAssertEqual(through, Int64(last.ordinal + 2 - HabitsStreakStateStore.checkpointLag))
    }

    func testSampleDataWithADayStartAndAPeriodMatchesTheFullWalk() throws {
        try importSampleData()
        let (first, last) = try dateRange()
        let middle = (first.ordinal + last.ordinal) / 2
        for dayStart in [0, 4 * 60 + 30] {
            // A period report warms the cache, then nights and a week resume from it.
            try assertCachedEqualsFull(from: Day(ordinal: first.ordinal), to: Day(ordinal: middle), dayStart: dayStart)
            for ordinal in stride(from: middle + 1, through: last.ordinal + 1, by: 3) {
                try assertCachedEqualsFull(
                    from: Day(ordinal: ordinal), to: Day(ordinal: ordinal + 6), dayStart: dayStart)
                try assertCachedEqualsFull(from: Day(ordinal: ordinal), to: Day(ordinal: ordinal), dayStart: dayStart)
            }
        }
        XCTAssertEqual(try store.database.scalarInt("SELECT COUNT(DISTINCT day_start) FROM habits_streak_state"), 2)
    }

    func testTheReportResumesFromTheCachedState() throws {
        try store.user("u1", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        _ = try cachedReport(from: "2026-11-15", to: "2026-11-15")
        XCTAssertEqual(
            try store.rows("SELECT through_day, run, best_streak FROM habits_streak_state"),
            [[.integer(Int64(try XCTUnwrap(Day("2026-11-08")).ordinal)), 8, 8]])
        // Tampered with, the state shows through: the next night does not read the history.
        try store.database.run("UPDATE habits_streak_state SET run = 100, best_streak = 100")
        let report = try cachedReport(from: "2026-11-16", to: "2026-11-16")
        XCTAssertEqual(report.daily("u1", "2026-11-16")?["streak"], .integer(108))
        XCTAssertEqual(report.rows("streaks").first?[3], .integer(108))
    }

    // MARK: Invalidation

    func testALateOlderRecordInvalidatesTheStateAndTheReportCountsIt() throws {
        try store.user("u1", timezone: "Europe/Paris")
        try store.user("u2", timezone: "America/New_York")
        for day in 1...20 where day != 5 {
            try store.task("a\(day)", user: "u1", date: String(format: "2026-11-%02d", day))
            try store.task("b\(day)", user: "u2", date: String(format: "2026-11-%02d", day))
        }
        let before = try cachedReport(from: "2026-11-20", to: "2026-11-20")
        XCTAssertEqual(before.daily("u1", "2026-11-20")?["streak"], .integer(15))
        XCTAssertEqual(try store.count("habits_streak_state"), 2)
        // 5 November arrives late for u1 only: its state goes, u2's stays.
        try store.task("a5", user: "u1", date: "2026-11-05")
        XCTAssertEqual(try store.rows("SELECT user_id FROM habits_streak_state"), [["u2"]])
        let after = try assertCachedEqualsFull(from: Day("2026-11-20")!, to: Day("2026-11-20")!)
        XCTAssertEqual(after.daily("u1", "2026-11-20")?["streak"], .integer(20))
        XCTAssertEqual(after.daily("u2", "2026-11-20")?["streak"], .integer(15))
        try store.task("a21", user: "u1", date: "2026-11-21")
        let night = try assertCachedEqualsFull(from: Day("2026-11-21")!, to: Day("2026-11-21")!)
        XCTAssertEqual(night.daily("u1", "2026-11-21")?["streak"], .integer(21))
    }

    func testATaskCompletedInTheWindowButDatedLongBeforeCounts() throws {
        try store.user("u1", timezone: "Pacific/Kiritimati")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-10-%02d", day)) }
        _ = try cachedReport(from: "2026-11-01", to: "2026-11-01")
        // Dated in September, done on 2 November at 00:30 in Kiritimati (UTC+14).
        try store.task("late", date: "2026-09-01", completedAt: "2026-11-01T10:30:00Z")
        XCTAssertEqual(
            try store.count("habits_streak_state"), 0, "a completion after the state's day must invalidate it")
        _ = try assertCachedEqualsFull(from: Day("2026-10-25")!, to: Day("2026-10-25")!)
        let report = try assertCachedEqualsFull(from: Day("2026-11-02")!, to: Day("2026-11-02")!)
        XCTAssertEqual(report.daily("u1", "2026-11-02")?["tasks_done"], .integer(1))
    }

    func testAnUnchangedReExportKeepsTheStateAndATimezoneChangeDropsIt() throws {
        try store.user("u1", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        try store.session("s1", startedAt: "2026-11-02T08:00:00Z", total: 1500, remaining: 0)
        _ = try cachedReport(from: "2026-11-20", to: "2026-11-20")
        try store.task("t3", date: "2026-11-03")
        try store.session("s1", startedAt: "2026-11-02T08:00:00Z", total: 1500, remaining: 0)
        try store.user("u1", timezone: "Europe/Paris")
        XCTAssertEqual(try store.count("habits_streak_state"), 1, "a record re-exported unchanged must keep the state")
        try store.session("s1", startedAt: "2026-11-02T08:00:00Z", total: 1500, remaining: 100)
        XCTAssertEqual(try store.count("habits_streak_state"), 0, "a changed session must drop the state")
        _ = try cachedReport(from: "2026-11-20", to: "2026-11-20")
        try store.user("u1", timezone: "Asia/Tokyo")
        XCTAssertEqual(try store.count("habits_streak_state"), 0, "a new time zone must drop the state")
        try store.database.run("DELETE FROM tasks WHERE id = 't1'")
        _ = try assertCachedEqualsFull(from: Day("2026-11-20")!, to: Day("2026-11-20")!)
    }

    func testASessionOpenSinceBeforeTheWindowIsStillReportedAsOverlapping() throws {
        try store.user("u1", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        // Started on 1 November and ended on the 20th: every later session overlaps it.
        try store.session(
            "long", startedAt: "2026-11-01T08:00:00Z", total: 1500, remaining: 0,
            endedAt: "2026-11-20T08:00:00Z")
        try store.session("short", startedAt: "2026-11-19T09:00:00Z", total: 600, remaining: 0)
        _ = try assertCachedEqualsFull(from: Day("2026-11-15")!, to: Day("2026-11-15")!)
        XCTAssertEqual(try store.count("habits_streak_state"), 1)
        let report = try assertCachedEqualsFull(from: Day("2026-11-19")!, to: Day("2026-11-19")!)
        XCTAssertEqual(report.rows("quality").map { $0[0] }, [.text("overlapping_focus_sessions")])
    }

    // MARK: Saving

    /// A database of the release before (habits steps 1 to 3, with PostgreSQL's `habits_changes`
    /// counter and its triggers) migrates in place: the counter goes, the store's own count of
    /// writes comes, the data stays, and a save after a write is still refused.
    func testADatabaseOfTheReleaseBeforeMigratesInPlace() throws {
        let directory = try makeTemporaryFolder("habits-migration")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try TestStore.freshLocation(in: directory.path)
        let old = try Database(path: location)
        try Schema.migrate(old, ImportLog.migrations + HabitsSchema.migrations.filter { $0.version <= 3 })
        try old.run("INSERT INTO users (id, timezone, import_seq) VALUES ('u1', 'Europe/Paris', 1)")
        XCTAssertEqual(try old.tableExists("habits_changes"), TestStore.backend == .postgresql)
        let database = try Database(path: location)
        XCTAssertEqual(
            try Schema.pendingSteps(database, ImportLog.migrations + HabitsSchema.migrations).map(\.version),
            [4, 5, 6, 7, 8, 9])
        try Schema.migrate(database, ImportLog.migrations + HabitsSchema.migrations)
        XCTAssertTrue(try Schema.pendingSteps(database, ImportLog.migrations + HabitsSchema.migrations).isEmpty)
        XCTAssertFalse(try database.tableExists("habits_changes"))
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM users"), 1)
        let token = try database.changeToken()
        try old.transaction { try old.run("UPDATE users SET timezone = 'UTC' WHERE id = 'u1'") }
        XCTAssertNil(try database.transaction(ifUnchangedSince: token) { 1 }, "a write since the token")
        XCTAssertEqual(try database.transaction(ifUnchangedSince: try database.changeToken()) { 1 }, 1)
    }

    func testStatesAreNotSavedWhenAnotherConnectionWroteSinceTheReadBegan() throws {
        try store.user("u1", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        let saver = try HabitsStreakStateStore(database: store.database, dayStartMinutes: 0)
        let state = HabitsCachedState(
            walk: HabitsWalkState(throughDay: 20_400, consistency: 0.5), latestSessionEnd: nil)
        // An import on another connection commits after the report began reading: its triggers ran
        // before the states exist, so saving them now could keep figures the import changed.
        let other = try Database(path: store.location)
        try other.transaction { try other.run("UPDATE tasks SET state = 'a_faire' WHERE id = 't3'") }
        saver.save([("u1", state)])
        XCTAssertEqual(try store.count("habits_streak_state"), 0)
        let quiet = try HabitsStreakStateStore(database: store.database, dayStartMinutes: 0)
        quiet.save([("u1", state)])
        XCTAssertEqual(
            try store.rows("SELECT user_id, through_day, consistency FROM habits_streak_state"),
            [["u1", 20_400, .real(0.5)]])
    }

    /// A writer that commits after the report's snapshot began, or is still writing when the report
    /// saves, stops the save (without waiting for the writer); with neither, the save goes through
    /// and a later import sees the saved states and invalidates them. On every backend.
    func testAWriterDuringTheReportStopsTheSave() throws {
        try store.user("u1", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        // A state after all the tasks' days, so that a change to any of them invalidates it.
        let state = HabitsCachedState(
            walk: HabitsWalkState(throughDay: Day("2026-11-25")!.ordinal, consistency: 0.5), latestSessionEnd: nil)
        let other = try Database(path: store.location)
        // Committed after the report's snapshot began.
        try store.database.transaction(immediate: false) {
            let saver = try HabitsStreakStateStore(database: store.database, dayStartMinutes: 0)
            try other.transaction { try other.run("UPDATE tasks SET state = 'a_faire' WHERE id = 't3'") }
            saver.save([("u1", state)])
        }
        XCTAssertEqual(try store.count("habits_streak_state"), 0)
        // Still writing when the report saves: the save gives up at once.
        try other.transaction {
            try other.run("UPDATE tasks SET state = 'terminee' WHERE id = 't3'")
            try HabitsStreakStateStore(database: store.database, dayStartMinutes: 0).save([("u1", state)])
        }
        XCTAssertEqual(try store.count("habits_streak_state"), 0)
        // Nobody writing: saved, and a later import invalidates it.
        try HabitsStreakStateStore(database: store.database, dayStartMinutes: 0).save([("u1", state)])
        XCTAssertEqual(try store.count("habits_streak_state"), 1)
        try store.task("t20", date: "2026-11-20", state: "a_faire")
        XCTAssertEqual(try store.count("habits_streak_state"), 0)
    }

    /// Habits step 6 drops the triggers of step 2 (and step 3's on PostgreSQL), keeping the data
    /// and the saved states: the importers invalidate the cache now.
    func testStepSixDropsTheTriggersAndKeepsTheStates() throws {
        let directory = try makeTemporaryFolder("habits-step6")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try TestStore.freshLocation(in: directory.path)
        let database = try Database(path: location)
        try Schema.migrate(database, ImportLog.migrations + HabitsSchema.migrations.filter { $0.version <= 5 })
        let triggers =
            TestStore.backend == .sqlite
            ? "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
            : "SELECT count(*) FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid "
                + "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace"
        XCTAssertEqual(try database.scalarInt(triggers), 12)
        try database.run(
            "INSERT INTO habits_streak_state (user_id, day_start, through_day, consistency, run, best_streak) "
                + "VALUES ('u1', 0, 20797, 0.5, 1, 1)")
        try Schema.migrate(database, ImportLog.migrations + HabitsSchema.migrations)
        XCTAssertEqual(try database.scalarInt(triggers), 0)
        XCTAssertEqual(try database.scalarInt("SELECT count(*) FROM habits_streak_state"), 1)
    }

    /// A task that moves from u1 to u2 deletes the states of both (u1's counted it); a task of u2
    /// dated after u2's state deletes nothing.
    func testARecordMovingToAnotherUserInvalidatesBothUsers() throws {
        try store.user("u1", timezone: "Europe/Paris")
        try store.user("u2", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        func save() throws {
            try store.database.run("DELETE FROM habits_streak_state")
            for user in ["u1", "u2"] {
                try store.database.run(
                    "INSERT INTO habits_streak_state (user_id, day_start, through_day, consistency, run, best_streak) "
                        + "VALUES (?, 0, ?, 0.5, 1, 1)", [.text(user), .integer(Int64(Day("2026-11-25")!.ordinal))])
            }
        }
        try save()
        try store.task("late", user: "u2", date: "2026-11-30")
        XCTAssertEqual(try store.rows("SELECT user_id FROM habits_streak_state ORDER BY user_id"), [["u1"], ["u2"]])
        try store.task("t5", user: "u2", date: "2026-11-05")
        XCTAssertEqual(try store.count("habits_streak_state"), 0)
        XCTAssertEqual(try store.rows("SELECT user_id FROM tasks WHERE id = 't5'"), [["u2"]])
    }

    /// One transaction writing more records than the importer looks up one batch at a time is a
    /// bulk load: it empties the cache (the next report rebuilds it) and stores every record.
    func testABulkLoadOverAFullCacheEmptiesIt() throws {
        try store.user("u1", timezone: "Europe/Paris")
        try store.task("t0", date: "2026-11-01")
        try store.database.run(
            "INSERT INTO habits_streak_state (user_id, day_start, through_day, consistency, run, best_streak) "
                + "VALUES ('u1', 0, 20797, 0.5, 1, 1), ('u9', 0, 20797, 0.5, 1, 1)")
        let count = HabitsStreakStateInvalidation.clearAfter + 10
        try store.database.transaction {
            for index in 0..<count { try store.task("b\(index)", user: "u2", date: "2026-10-01") }
        }
        XCTAssertEqual(try store.count("habits_streak_state"), 0)
        XCTAssertEqual(try store.count("tasks"), Int64(count + 1))
    }

    /// A report made inside its caller's snapshot (the report commands read the data check and the
    /// report in one) saves its states once that snapshot has ended, not inside it.
    func testAReportInsideACallersSnapshotSavesWhenTheSnapshotEnds() throws {
        try store.user("u1", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        try store.database.transaction(immediate: false) {
            _ = try cachedReport(from: "2026-11-20", to: "2026-11-20")
            XCTAssertEqual(try store.count("habits_streak_state"), 0)
        }
        XCTAssertEqual(try store.count("habits_streak_state"), 1)
    }

    func testAReadOnlyDatabaseStillGivesTheReportAndSavesNothing() throws {
        // On a server, what a connection may write is its role's grants, not how it was opened.
        try XCTSkipIf(TestStore.backend == .postgresql, "a read-only open is SQLite's")
        try store.user("u1", timezone: "Europe/Paris")
        for day in 1...20 { try store.task("t\(day)", date: String(format: "2026-11-%02d", day)) }
        let path = store.directory.appendingPathComponent("t.sqlite").path
        let readOnly = try Database(path: path, mode: .readOnly)
        let options = HabitsOptions(from: Day("2026-11-20")!, to: Day("2026-11-20")!, asOf: HabitsTestStore.asOf)
        let report = try HabitsAnalysis.report(database: readOnly, options: options)
        XCTAssertEqual(report.daily("u1", "2026-11-20")?["streak"], .integer(20))
        XCTAssertEqual(try store.count("habits_streak_state"), 0)
    }

    // MARK: Helpers

    private func cachedReport(from: String, to: String, dayStart: Int = 0) throws -> Report {
        try store.report(from: from, to: to, dayStartMinutes: dayStart)
    }

    /// Runs the report with the cache (resuming and saving) and without; asserts every figure and
    /// every row of every table are equal; returns the cached one.
    @discardableResult
    private func assertCachedEqualsFull(
        from: Day, to: Day, dayStart: Int = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Report {
        var options = HabitsOptions(from: from, to: to, dayStartMinutes: dayStart, asOf: HabitsTestStore.asOf)
        options.usesStreakStateCache = false
        let statesBefore = try store.rows("SELECT * FROM habits_streak_state ORDER BY 1, 2")
        let full = try HabitsAnalysis.report(database: store.database, options: options)
        XCTAssertEqual(
            try store.rows("SELECT * FROM habits_streak_state ORDER BY 1, 2"), statesBefore,
            "the full walk must not touch the cache", file: file, line: line)
        options.usesStreakStateCache = true
        let cached = try HabitsAnalysis.report(database: store.database, options: options)
        XCTAssertEqual(cached.figures, full.figures, "figures \(from)…\(to)", file: file, line: line)
        XCTAssertEqual(cached.tables.map(\.name), full.tables.map(\.name), file: file, line: line)
        for (cachedTable, fullTable) in zip(cached.tables, full.tables) {
            let cachedRows = cachedTable.rows.all
            let fullRows = fullTable.rows.all
            XCTAssertEqual(
                cachedRows.count, fullRows.count, "\(cachedTable.name) \(from)…\(to)", file: file, line: line)
            for (index, (cachedRow, fullRow)) in zip(cachedRows, fullRows).enumerated() where cachedRow != fullRow {
                XCTFail(
                    "\(cachedTable.name) row \(index) \(from)…\(to): \(cachedRow) ≠ \(fullRow)", file: file, line: line)
                break
            }
        }
        return cached
    }

    private func importSampleData() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleData/habits").path
        let importer = try Importer(database: store.database, modules: [HabitsModule.module.imports], options: .init())
        let outcomes = importer.importFiles(try ImportFiles.expand([folder]))
        XCTAssertEqual(outcomes.count, 6)
        XCTAssertGreaterThan(try store.count("tasks"), 100)
    }

    private func dateRange() throws -> (Day, Day) {
        let row = try XCTUnwrap(store.rows("SELECT MIN(date), MAX(date) FROM tasks").first)
        return (try XCTUnwrap(row[0].string.flatMap(Day.init)), try XCTUnwrap(row[1].string.flatMap(Day.init)))
    }
}
