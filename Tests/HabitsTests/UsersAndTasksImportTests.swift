import Import
import JSON
import Store
import Time
import ReportTestSupport
import XCTest
@testable import Habits

final class UsersImportTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    static let user: JSONValue = [
        "id": "u1", "timezone": "America/New_York", "displayName": "Jeanne", "createdAt": "2026-01-02T03:04:05.5-05:00",
    ]

    func testValidUserIsStored() throws {
        try store.load(.users, Self.user)
        let created = try XCTUnwrap(Timestamp("2026-01-02T08:04:05.5Z")).microseconds
        XCTAssertEqual(
            try store.rows("SELECT id, timezone, display_name, created_at_us, import_seq FROM users"),
            [["u1", "America/New_York", "Jeanne", .integer(created), .integer(store.lastSequence)]])
    }

    func testMissingOrNullTimezoneStaysNullAndLaterRecordReplacesWhole() throws {
        try store.load(.users, Self.user)
        try store.load(.users, ["id": "u1", "timezone": nil])
        XCTAssertEqual(
            try store.rows("SELECT timezone, display_name, created_at_us FROM users"), [[.null, .null, .null]])
    }

    func testInvalidUsersAreRejected() throws {
        try store.load(.users, Self.user)
        try store.assertRejected(
            .users, record(Self.user, ["timezone": "Mars/Olympus"]),
            "field timezone: unknown time zone \"Mars/Olympus\"")
        try store.assertRejected(
            .users, record(Self.user, ["timezone": "+02:00"]), "field timezone: unknown time zone \"+02:00\"")
        try store.assertRejected(.users, record(Self.user, ["timezone": 2]), "field timezone: unknown time zone 2")
        try store.assertRejected(.users, record(Self.user, ["displayName": 2]), "field displayName: must be a string 2")
        try store.assertRejected(
            .users, record(Self.user, ["createdAt": "2026-01-02"]),
            "field createdAt: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) \"2026-01-02\"")
        try store.assertRejected(.users, record(Self.user, ["id": .null]), "field id: missing (required) null")
        try store.assertRejected(.users, "u1", "field (record): not an object \"u1\"")
    }

    func testIntegerAndTextIdsAreOneUser() throws {
        try store.load(.users, record(Self.user, ["id": 1042, "extra": true]))
        try store.load(.users, record(Self.user, ["id": "1042", "displayName": "Paul"]))
        XCTAssertEqual(try store.rows("SELECT id, display_name FROM users"), [["1042", "Paul"]])
    }

    func testModuleRefusesKindsOfOtherDomainsAndMigratesOnce() throws {
        XCTAssertThrowsError(
            try HabitsModule.module.imports.makeImporter(ExportKind("bookings", domain: "bookings"), store.database))
        XCTAssertEqual(HabitsModule.module.name, .habits)
        try Schema.migrate(store.database, ImportLog.migrations + HabitsModule.module.migrations)
        XCTAssertEqual(
            try store.database.scalarInt("SELECT COUNT(*) FROM schema_migrations WHERE domain = 'habits'"),
            Int64(HabitsSchema.migrations.count))
    }

    /// A record validated as one kind and handed to another kind's importer is a wiring mistake:
    /// the importer throws, names its kind, and stores nothing; its own kind's record is stored.
    func testAnImporterRefusesARecordValidatedForAnotherKind() throws {
        try store.load(.users, Self.user)
        let tasks = try HabitsModule.module.imports.makeImporter(ExportKind("tasks", domain: "habits"), store.database)
        let asUser = try UsersImporter.erasedValidator(RecordReader(record: Self.user))
        XCTAssertThrowsError(try tasks.store(asUser, 7)) { error in
            XCTAssertEqual(
                "\(error)", "internal error: a record validated for another kind reached the TaskRow importer")
        }
        XCTAssertEqual(try store.rows("SELECT COUNT(*) FROM tasks"), [[.integer(0)]])
        try tasks.store(try TasksImporter.erasedValidator(RecordReader(record: TasksImportTests.task)), 8)
        XCTAssertEqual(try store.rows("SELECT id, import_seq FROM tasks"), [["t1", .integer(8)]])
    }
}

final class TasksImportTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    static let task: JSONValue = [
        "id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "Appeler Marie", "state": "terminee",
        "contexte": ["maison", "famille"], "createdAt": "2026-11-27T22:00:00Z",
        "completedAt": "2026-11-28T09:30:00+01:00",
    ]

    private func contexts(_ id: String = "t1") throws -> [String] {
        // The stored JSON array's elements, through each backend's JSON functions.
        let sql =
            TestStore.backend == .sqlite
            ? "SELECT value FROM tasks, json_each(tasks.contexte) WHERE tasks.id = ? ORDER BY json_each.key"
            : "SELECT e.value FROM tasks, json_array_elements_text(tasks.contexte::json) WITH ORDINALITY AS e(value, "
                + "key) WHERE tasks.id = ? ORDER BY e.key"
        return try store.database.rows(sql, [.text(id)]).compactMap { $0[0].string }
    }

    func testValidTaskIsStoredWithItsContexts() throws {
        try store.load(.tasks, Self.task)
        let created = try XCTUnwrap(Timestamp("2026-11-27T22:00:00Z")).microseconds
        let completed = try XCTUnwrap(Timestamp("2026-11-28T08:30:00Z")).microseconds
        XCTAssertEqual(
            try store.rows(
                "SELECT id, user_id, date, libelle, state, created_at_us, completed_at_us, import_seq FROM tasks"),
            [
                [
                    "t1", "u1", "2026-11-28", "Appeler Marie", "terminee", .integer(created), .integer(completed),
                    .integer(store.lastSequence),
                ]
            ])
        XCTAssertEqual(try contexts(), ["maison", "famille"])
    }

    func testInvalidTasksAreRejected() throws {
        try store.load(.tasks, Self.task)
        let cases: [(String, JSONValue?, String)] = [
            ("state", "done", "field state: must be one of a_faire, en_cours, terminee \"done\""),
            ("state", "terminée", "field state: must be one of a_faire, en_cours, terminee \"terminée\""),
            ("state", nil, "field state: missing (required)"),
            ("libelle", .null, "field libelle: missing (required) null"),
            ("userId", "", "field userId: invalid id (a non-empty string or an integer) \"\""),
            ("date", "28/11/2026", "field date: invalid date (YYYY-MM-DD) \"28/11/2026\""),
            ("contexte", ["maison", .null], "field contexte[1]: must be a string null"),
            ("contexte", 3, "field contexte: must be a list 3"),
            (
                "completedAt", "2026-11-28T24:00:00Z",
                "field completedAt: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) "
                    + "\"2026-11-28T24:00:00Z\""
            ),
        ]
        for (field, value, message) in cases {
            try store.assertRejected(.tasks, record(Self.task, [field: value]), message)
        }
    }

    func testLaterTaskReplacesEarlierWholeAndTwiceIsOnce() throws {
        try store.load(.tasks, Self.task)
        try store.load(.tasks, Self.task)
        XCTAssertEqual(try store.count("tasks"), 1)
        XCTAssertEqual(try contexts(), ["maison", "famille"])
        try store.load(
            .tasks,
            [
                "id": "t1", "userId": "u1", "date": "2026-11-29", "libelle": "Appeler", "state": "a_faire",
                "contexte": .null, "completedAt": .null,
            ])
        XCTAssertEqual(
            try store.rows("SELECT date, state, created_at_us, completed_at_us FROM tasks"),
            [["2026-11-29", "a_faire", .null, .null]])
        XCTAssertEqual(try contexts(), [])
    }

    func testIntegerIdsMatchTextIdsAndUnknownFieldsAreIgnored() throws {
        try store.load(.tasks, record(Self.task, ["id": 1042, "priorite": "haute"]))
        try store.load(.tasks, record(Self.task, ["id": "1042", "contexte": ["bureau"]]))
        XCTAssertEqual(try store.count("tasks"), 1)
        XCTAssertEqual(try contexts("1042"), ["bureau"])
    }
}
