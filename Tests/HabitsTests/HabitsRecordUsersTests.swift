import Foundation
import Import
import Store
import XCTest

@testable import Habits

/// `habits_record_users` (habits step 8) names every user an activity record was written for: the
/// step fills it from a database's records, the importers keep it, a rollback never leaves a user
/// out, and a report lists its users from it (a user named there without records shows nowhere).
/// Runs on every backend (`REPORT_TEST_BACKEND`).
final class HabitsRecordUsersTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    /// The users of the five activity tables, by bytes, as SQL sees them.
    private static let recordUsersSQL = """
        SELECT user_id FROM tasks UNION SELECT user_id FROM flows UNION SELECT user_id FROM focus_sessions
        UNION SELECT user_id FROM logins UNION SELECT user_id FROM moods ORDER BY 1
        """

    private func listed(_ database: Database) throws -> [[SQLValue]] {
        try database.rows("SELECT user_id FROM habits_record_users ORDER BY 1")
    }

    /// "é" composed and decomposed: one name to Swift's `==`, two ids to the store.
    private static let composed = "us\u{E9}r", decomposed = "use\u{301}r"

    func testStepEightListsTheUsersOfTheRecordsAlreadyStored() throws {
        let directory = try makeTemporaryFolder("habits-step8")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try TestStore.freshLocation(in: directory.path)
        let database = try Database(path: location)
        try Schema.migrate(database, ImportLog.migrations + HabitsSchema.migrations.filter { $0.version <= 7 })
        try database.run("INSERT INTO users (id, timezone, import_seq) VALUES ('u0', 'Europe/Paris', 1)")
        try database.run(
            "INSERT INTO tasks (id, user_id, date, libelle, state, import_seq) VALUES ('t1', 'u1', '2026-11-28', 'T', "
                + "'a_faire', 2)")
        try database.run(
            "INSERT INTO flows (id, user_id, date, libelle_action, etat, steps_total, steps_done, import_seq) "
                + "VALUES ('f1', ?, '2026-11-28', 'Run', 'termine', 0, 0, 3)", [.text(Self.composed)])
        try database.run(
            "INSERT INTO moods (user_id, date, mood, import_seq) VALUES (?, '2026-11-28', 3, 4)",
            [.text(Self.decomposed)])
        try database.run("INSERT INTO logins (user_id, at_us, import_seq) VALUES ('u3', 1, 5)")
        try database.run(
            "INSERT INTO focus_sessions (id, user_id, started_at_us, total_seconds, remaining_seconds, import_seq) "
                + "VALUES ('s1', 'u1', 1, 1500, 0, 6)")
        try Schema.migrate(database, ImportLog.migrations + HabitsSchema.migrations)
        XCTAssertEqual(try listed(database), try database.rows(Self.recordUsersSQL))
        XCTAssertEqual(
            try listed(database).map { $0[0].string ?? "" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
            ["u1", "u3", Self.decomposed, Self.composed].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
            "both spellings, the unknown user of a login, not the user without records")
    }

    func testTheImportersNameTheUserOfEveryRecordTheyWrite() throws {
        try store.user("u0", timezone: "Europe/Paris")
        try store.task("t1", user: "u1", date: "2026-11-20")
        try store.flow("f1", user: "u2", date: "2026-11-20")
        try store.mood("u5", date: "2026-11-20", mood: 4)
        try store.login("u3", at: "2026-11-20T08:00:00Z")
        try store.session("s1", user: "u4", startedAt: "2026-11-20T08:00:00Z", total: 1500, remaining: 0)
        try store.task("t2", user: "u1", date: "2026-11-21")
        // One importer, both spellings: remembered by their bytes, not by Swift's `==`.
        try store.task("t3", user: Self.composed, date: "2026-11-21")
        try store.task("t4", user: Self.decomposed, date: "2026-11-21")
        XCTAssertEqual(try listed(store.database), try store.rows(Self.recordUsersSQL))
        XCTAssertEqual(try store.count("habits_record_users"), 7, "u1 once, u0 (no record) not at all")
    }

    /// The writer compares each user with the last one before any hashing, by their bytes packed in
    /// two words up to 16 bytes and as text beyond: ids that differ only past the 16th byte, in
    /// their length, in their last byte, or in the composition of an `é` are each written, one
    /// after the other, and an id written before is not lost behind a different last one.
    func testUsersOneAfterAnotherAreToldApartByEveryByte() throws {
        let users = try HabitsRecordUsers(database: store.database)
        let sixteen = "abcdefghijklmnop"
        let ids = [
            sixteen, sixteen, "abcdefghijklmnoq", sixteen + "q", sixteen + "r", sixteen,
            "a-long-user-named-Ren\u{E9}e", "a-long-user-named-Rene\u{301}e", "", "\u{E9}", "e\u{301}", "u1",
        ]
        try store.database.transaction {
            for id in ids { try users.note(id) }
        }
        let expected = Array(Set(ids.map { Array($0.utf8) })).sorted { $0.lexicographicallyPrecedes($1) }
        XCTAssertEqual(expected.count, 10, "the fixture's distinct ids, by their bytes")
        XCTAssertEqual(
            try listed(store.database).map { Array(($0[0].string ?? "?").utf8) }
                .sorted { $0.lexicographicallyPrecedes($1) }, expected)
    }

    /// A rollback takes the user's row away with the records: the writer then writes the user
    /// again, in a savepoint's rollback and in a transaction's.
    func testAUserRolledBackIsWrittenAgain() throws {
        let users = try HabitsRecordUsers(database: store.database)
        struct Refused: Error {}
        for nested in [false, true] {
            let user = nested ? "in-savepoint" : "in-transaction"
            XCTAssertThrowsError(
                try store.database.transaction {
                    if nested {
                        try store.database.transaction {
                            try users.note(user)
                            try store.database.flushWriters()
                            throw Refused()
                        }
                    } else {
                        try users.note(user)
                        throw Refused()
                    }
                })
            XCTAssertEqual(try store.count("habits_record_users"), 0)
        }
        try store.database.transaction {
            try users.note("in-transaction")
            try users.note("in-savepoint")
        }
        XCTAssertEqual(try listed(store.database), [["in-savepoint"], ["in-transaction"]])
    }

    /// A write that fails outside a transaction (nothing rolls back to tell the writer) is not
    /// taken as done: the same user is written at the next record.
    func testAUserWhoseWriteFailedIsWrittenAgain() throws {
        let users = try HabitsRecordUsers(database: store.database)
        try store.database.execute("ALTER TABLE habits_record_users RENAME TO record_users_away")
        XCTAssertThrowsError(try users.note("u1"))
        try store.database.execute("ALTER TABLE record_users_away RENAME TO habits_record_users")
        try users.note("u1")
        XCTAssertEqual(try listed(store.database), [["u1"]])
    }

    /// A task that moves from u2 to u1 leaves u2 named with no record: the report is the one of a
    /// database that only ever had the records as they end.
    func testAUserWhoseRecordsAllMovedIsInNoTableOfTheReport() throws {
        try store.user("u1", timezone: "Europe/Paris")
        try store.user("u2", timezone: "Europe/Paris")
        try store.task("t1", user: "u1", date: "2026-11-20")
        try store.task("t2", user: "u2", date: "2026-11-20")
        try store.task("t2", user: "u1", date: "2026-11-20")
        XCTAssertEqual(try listed(store.database), [["u1"], ["u2"]])
        let clean = try HabitsTestStore()
        try clean.user("u1", timezone: "Europe/Paris")
        try clean.user("u2", timezone: "Europe/Paris")
        try clean.task("t1", user: "u1", date: "2026-11-20")
        try clean.task("t2", user: "u1", date: "2026-11-20")
        XCTAssertEqual(try listed(clean.database), [["u1"]])
        let moved = try store.report(from: "2026-11-20")
        let expected = try clean.report(from: "2026-11-20")
        XCTAssertEqual(moved.figures, expected.figures)
        XCTAssertEqual(moved.tables.map(\.name), expected.tables.map(\.name))
        for (table, expectedTable) in zip(moved.tables, expected.tables) {
            XCTAssertEqual(table.rows.all, expectedTable.rows.all, table.name)
        }
        XCTAssertFalse(moved.rows("daily").isEmpty)
    }
}
