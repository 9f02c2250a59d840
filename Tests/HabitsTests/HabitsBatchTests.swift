import Foundation
import ReportModel
import Time
import XCTest
@testable import Habits

/// The whole histories of many users are read in batches (`HabitsAnalysis.batchSize` users per
/// six queries over a range of ids). Oracle: each user's report alone (`--user`, a batch of one)
/// gives the same `daily`, `streaks` and `categories` rows as that user's rows in the report of
/// everyone, across batch boundaries, with ids that only have a `users` record inside a batch's
/// range, and with two ids that are canonically equal but different bytes (NFC `é`, NFD `e` + ◌́).
final class HabitsBatchTests: XCTestCase {
    private var store: HabitsTestStore!
    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    /// Users stored in reverse byte order (on PostgreSQL a table gives its rows in the order they
    /// lie in it unless asked otherwise): every user is still found, with their own time zone, by
    /// the whole-history reader and by the window reader that resumes from the cached state.
    func testUsersStoredInAnyOrderAreFoundByBothReaders() throws {
        let ids = (0..<12).map { String(format: "v%02d", $0) }
        for (number, id) in ids.enumerated().reversed() {
            try store.user(id, timezone: number % 2 == 0 ? "Asia/Tokyo" : "America/New_York")
        }
        for id in ids {
            for day in 1...12 { try store.task("\(id)-t\(day)", user: id, date: String(format: "2026-11-%02d", day)) }
            try store.login(id, at: "2026-11-20T22:30:00Z")
        }
        var own: [[Value]] = []
        for id in ids { own += try store.report(from: "2026-11-20", user: id).rows("daily") }
        // 22:30 UTC is the 21st in Tokyo and the 20th in New York: only the New York users' day.
        XCTAssertEqual(
            own.compactMap(\.first), ids.enumerated().filter { $0.offset % 2 == 1 }.map { .text($0.element) })
        for label in ["whole history", "resumed"] {
            let report = try store.report(from: "2026-11-20")
            XCTAssertEqual(report.rows("quality").filter { $0.first == .text("unknown_user") }, [], label)
            XCTAssertEqual(report.rows("daily"), own, label)
        }
        XCTAssertGreaterThan(try store.count("habits_streak_state"), 0, "the second report could resume")
    }

    func testBatchesGiveEachUserWhatTheirOwnReportGives() throws {
        let count = HabitsAnalysis.batchSize * 2 + 7
        var ids = (0..<count).map { String(format: "u%03d", $0) }
        ids += ["r\u{E9}mi", "re\u{301}mi"]
        for (number, id) in ids.enumerated() {
            if number % 5 == 0 { try store.user(id, timezone: number % 10 == 0 ? "Asia/Tokyo" : "Europe/Paris") }
            // Users with a record and nothing else, inside the ranges the batches read.
            if number % 9 == 0 { try store.user(id + "-idle", timezone: "Europe/Paris") }
            for day in 1...(number % 6 + 1) {
                let date = String(format: "2026-11-%02d", 20 + day)
                try store.task("\(id)-t\(day)", user: id, date: date, state: day % 3 == 0 ? "a_faire" : "terminee")
                if number % 2 == 0 {
                    try store.flow(
                        "\(id)-f\(day)", user: id, date: date, steps: [true, day % 2 == 0],
                        contexte: ["Maison", "Sport \(number % 3)"])
                }
            }
            if number % 3 == 0 {
                try store.session(
                    "\(id)-s", user: id, startedAt: "2026-11-23T08:00:00Z", total: 1500,
                    remaining: Int64(number % 4) * 60)
                try store.login(id, at: "2026-11-23T07:00:00Z")
                try store.mood(id, date: "2026-11-24", mood: Int64(number % 5 + 1))
            }
        }
        let everyone = try store.report(from: "2026-11-21", to: "2026-11-27")
        let daily = everyone.rows("daily")
        let users = Set(
            daily.compactMap { row -> [UInt8]? in
                if case .text(let id) = row[0] { return Array(id.utf8) }
                return nil
            })
        XCTAssertEqual(users.count, ids.count, "every user has daily rows, the two rémi apart")
        for id in ids {
            let alone = try store.report(from: "2026-11-21", to: "2026-11-27", user: id)
            for table in ["daily", "streaks"] {
                // By bytes: `Value`'s == would take the two rémi for one.
                let rows = everyone.rows(table).filter { row in
                    if case .text(let user) = row[0] { return user.utf8.elementsEqual(id.utf8) }
                    return false
                }
                XCTAssertEqual(rows, alone.rows(table), "\(id): \(table)")
            }
        }
        // Resumed from the states the report above saved (the rémi spellings each their own), in
        // mixed batches: one user's state moved to a later day (their own report), another's
        // dropped by a late record (its trigger), the rest as saved: the same figures as the full walk.
        _ = try store.report(from: "2026-11-28", to: "2026-12-06", user: "u005")
        try store.task("late", user: "u070", date: "2026-11-15")
        var resumedOptions = HabitsOptions(from: Day("2026-12-07")!, to: Day("2026-12-07")!, asOf: HabitsTestStore.asOf)
        XCTAssertGreaterThan(try store.count("habits_streak_state"), Int64(ids.count / 2))
        XCTAssertEqual(
            try store.database.scalarInt("SELECT COUNT(DISTINCT through_day) FROM habits_streak_state"), 2,
            "states of two days: the batch reads two windows")
        XCTAssertEqual(
            try store.database.scalarInt("SELECT COUNT(*) FROM habits_streak_state WHERE user_id = 'u070'"), 0)
        let resumed = try HabitsAnalysis.report(database: store.database, options: resumedOptions)
        resumedOptions.usesStreakStateCache = false
        let full = try HabitsAnalysis.report(database: store.database, options: resumedOptions)
        for table in ["daily", "streaks"] { XCTAssertEqual(resumed.rows(table), full.rows(table), table) }
    }

    /// A resumed report reads its users' windows `windowUsers` at a time in lists of
    /// `idsPerWindowQuery` ids, and the whole histories `wholeUsers` at a time inside them: with
    /// small sizes (a day's group of states cut across lists and batches, windows smaller than
    /// the whole-history batch) every user is read once and the figures are the full walk's.
    func testResumedReportsGiveTheFullFiguresWhateverTheBatches() throws {
        let ids = (0..<41).map { String(format: "w%02d", $0) }
        for (number, id) in ids.enumerated() {
            // Every fourth user has no `users` record: their whole history is read (`unknown_user`).
            if number % 4 != 3 { try store.user(id, timezone: number % 2 == 0 ? "Asia/Tokyo" : "Europe/Paris") }
            for day in 1...28 {
                let date = String(format: "2026-11-%02d", day)
                try store.task(
                    "\(id)-t\(day)", user: id, date: date, state: (day + number) % 3 == 0 ? "a_faire" : "terminee")
                if (day + number) % 4 == 0 { try store.flow("\(id)-f\(day)", user: id, date: date, steps: [true]) }
            }
        }
        // States of two days (a week before each report's end): most users' from a report through
        // the 20th, some moved later by their own report through the 24th.
        _ = try store.report(from: "2026-11-10", to: "2026-11-20")
        for id in ids.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            _ = try store.report(from: "2026-11-21", to: "2026-11-24", user: id)
        }
        XCTAssertEqual(
            try store.database.scalarInt("SELECT COUNT(DISTINCT through_day) FROM habits_streak_state"), 2)
        let states = try store.database.rows("SELECT * FROM habits_streak_state")
        var options = HabitsOptions(from: Day("2026-11-26")!, to: Day("2026-11-28")!, asOf: HabitsTestStore.asOf)
        options.usesStreakStateCache = false
        let full = try HabitsAnalysis.report(database: store.database, options: options)
        XCTAssertEqual(Set(full.rows("daily").compactMap { "\($0[0])" }).count, ids.count, "every user has a row")
        options.usesStreakStateCache = true
        let batchings: [HabitsBatching] = [
            .standard, HabitsBatching(wholeUsers: 4, windowUsers: 16, idsPerWindowQuery: 5),
            HabitsBatching(wholeUsers: 7, windowUsers: 3, idsPerWindowQuery: 2),
        ]
        for batching in batchings {
            // Each run saves later states: each starts from the same ones.
            try store.database.run("DELETE FROM habits_streak_state")
            for state in states {
                let placeholders = state.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
                try store.database.run("INSERT INTO habits_streak_state VALUES (\(placeholders))", state)
            }
            let label = "windows of \(batching.windowUsers) in lists of \(batching.idsPerWindowQuery)"
            let resumed = try HabitsAnalysis.report(database: store.database, options: options, batching: batching)
            for table in ["daily", "streaks"] {
                XCTAssertEqual(resumed.rows(table), full.rows(table), "\(label): \(table)")
            }
        }
    }

    /// On a server a second connection on the report's snapshot reads every other batch; the
    /// parts come back in user order whichever connection read them, so the figures are those
    /// read on one connection. SQLite reads on one.
    func testAServerReadsEveryOtherBatchOnASecondConnectionWithTheSameFigures() throws {
        let ids = (0..<23).map { String(format: "b%02d", $0) }
        for (number, id) in ids.enumerated() {
            try store.user(id, timezone: number % 2 == 0 ? "Asia/Tokyo" : "Europe/Paris")
            for day in stride(from: 1, through: 28, by: 1 + number % 3) {
                let date = String(format: "2026-11-%02d", day)
                try store.task("\(id)-t\(day)", user: id, date: date, state: day % 2 == 0 ? "a_faire" : "terminee")
            }
        }
        var options = HabitsOptions(from: Day("2026-11-01")!, to: Day("2026-11-28")!, asOf: HabitsTestStore.asOf)
        options.usesStreakStateCache = false
        var alone = HabitsBatching(wholeUsers: 2, windowUsers: 4, idsPerWindowQuery: 2)
        alone.readsBeside = false
        var beside = alone
        beside.readsBeside = true
        let one = try HabitsAnalysis.analyse(database: store.database, options: options, batching: alone)
        let two = try HabitsAnalysis.analyse(database: store.database, options: options, batching: beside)
        XCTAssertEqual(one.readConnections, 1)
        XCTAssertEqual(two.readConnections, store.database.kind == .sqlite ? 1 : 2)
        XCTAssertEqual(two.userIds, ids, "every user once, in order")
        XCTAssertEqual(two.userIds, one.userIds)
        XCTAssertEqual(
            HabitsReportLayout.report(two, options: options).rows("daily"),
            HabitsReportLayout.report(one, options: options).rows("daily"))
        XCTAssertEqual(
            HabitsReportLayout.report(two, options: options).rows("streaks"),
            HabitsReportLayout.report(one, options: options).rows("streaks"))
    }
}
