import Foundation
import Import
import JSON
import ReportTestSupport
import Store
import Time
import XCTest
@testable import Habits

final class FlowsImportTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    /// Habits step 5 gives every context its flow's user (the column a distributed database places
    /// both by), also the contexts a database of the release before holds; a flow that moves to
    /// another user takes its contexts along.
    func testContextsCarryTheirFlowsUserAlsoAfterAMigrationInPlace() throws {
        let directory = try makeTemporaryFolder("habits-contexts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try TestStore.freshLocation(in: directory.path)
        let old = try Database(path: location)
        try Schema.migrate(old, ImportLog.migrations + HabitsSchema.migrations.filter { $0.version <= 4 })
        try old.run(
            "INSERT INTO flows (id, user_id, date, libelle_action, etat, steps_total, steps_done, import_seq) "
                + "VALUES ('f1', 'u1', '2026-11-28', 'Run', 'termine', 0, 0, 1)")
        try old.run("INSERT INTO flow_contexts (flow_id, position, context) VALUES ('f1', 0, 'Sport')")
        try Schema.migrate(old, ImportLog.migrations + HabitsSchema.migrations)
        XCTAssertEqual(try old.rows("SELECT flow_id, user_id, context FROM flow_contexts"), [["f1", "u1", "Sport"]])
        let moved: JSONValue = [
            "id": "f1", "userId": "u2", "date": "2026-11-28", "libelleAction": "Run", "etat": "termine",
            "contexte": ["Sport", "Santé"], "etape": [],
        ]
        try FlowsImporter(database: old).importRecord(moved, sequence: 2)
        XCTAssertEqual(
            try old.rows("SELECT DISTINCT user_id FROM flow_contexts WHERE flow_id = 'f1'"), [["u2"]])
    }

    /// The columns of `flow_contexts`' primary key, in order, in the backend's catalogue.
    private static func contextsKey(_ database: Database) throws -> [String] {
        try database.rows(TestStore.primaryKeySQL, [.text("flow_contexts")]).compactMap { $0[0].string }
    }

    /// Habits step 7: on PostgreSQL (single server or Citus) a flow's contexts are keyed by user
    /// first, with an index on `(flow_id, position)` for the importer, also in a database of the
    /// release before, whose contexts stay; the import then replaces a flow's contexts as before.
    /// SQLite keeps `(flow_id, position)`.
    func testContextsAreKeyedByUserOnPostgreSQLAlsoAfterAMigrationInPlace() throws {
        XCTAssertEqual(
            try Self.contextsKey(store.database),
            TestStore.backend == .sqlite ? ["flow_id", "position"] : ["user_id", "flow_id", "position"])

        let directory = try makeTemporaryFolder("habits-contexts-key")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try TestStore.freshLocation(in: directory.path)
        let old = try Database(path: location)
        try Schema.migrate(old, ImportLog.migrations + HabitsSchema.migrations.filter { $0.version <= 6 })
        try old.run(
            "INSERT INTO flows (id, user_id, date, libelle_action, etat, steps_total, steps_done, import_seq) "
                + "VALUES ('f1', 'u1', '2026-11-28', 'Run', 'termine', 0, 0, 1)")
        try old.run("INSERT INTO flow_contexts (flow_id, position, context, user_id) VALUES ('f1', 0, 'Sport', 'u1')")
        XCTAssertEqual(try Self.contextsKey(old), ["flow_id", "position"])
        try Schema.migrate(old, ImportLog.migrations + HabitsSchema.migrations)
        XCTAssertEqual(
            try Self.contextsKey(old),
            TestStore.backend == .sqlite ? ["flow_id", "position"] : ["user_id", "flow_id", "position"])
        XCTAssertEqual(
            try old.rows("SELECT flow_id, position, user_id, context FROM flow_contexts"), [["f1", 0, "u1", "Sport"]])
        if TestStore.backend == .postgresql {
            XCTAssertEqual(
                try old.scalarInt(
                    "SELECT count(*) FROM pg_catalog.pg_indexes WHERE tablename = 'flow_contexts' "
                        + "AND schemaname = current_schema() AND indexdef LIKE '%(flow_id, \"position\")'"),
                1, "the index on the old key, for the importer")
        }
        let again: JSONValue = [
            "id": "f1", "userId": "u1", "date": "2026-11-28", "libelleAction": "Run", "etat": "termine",
            "contexte": ["Santé"], "etape": [],
        ]
        try FlowsImporter(database: old).importRecord(again, sequence: 2)
        XCTAssertEqual(
            try old.rows("SELECT flow_id, position, user_id, context FROM flow_contexts"), [["f1", 0, "u1", "Santé"]])
    }

    static let flow: JSONValue = [
        "id": "f1", "userId": "u1", "date": "2026-11-28", "libelleAction": "Courir", "objectif": "5 km",
        "etat": "termine", "energieRequise": 4, "tempsEstime": 30, "tempsRealise": 12.5,
        "contexte": ["sport", "santé", "sport"], "streakDay": 3,
        "etape": [
            ["id": "s1", "libelle": "Échauffement", "terminee": true],
            ["libelle": "Course", "terminee": false],
            ["id": 7, "libelle": "Étirements", "terminee": true],
        ],
        "createdAt": "2026-11-28T07:00:00+01:00", "completedAt": "2026-11-28T08:10:00.250Z",
    ]

    private func flowRow(_ id: String = "f1") throws -> [SQLValue] {
        try store.rows(
            """
            SELECT user_id, date, libelle_action, objectif, etat, energie_requise, temps_estime, temps_realise,
                   streak_day, steps_total, steps_done, created_at_us, completed_at_us, import_seq
            FROM flows WHERE id = '\(id)'
            """
        ).first ?? []
    }

    private func contexts(_ id: String = "f1") throws -> [String] {
        try store.rows("SELECT context FROM flow_contexts WHERE flow_id = '\(id)' ORDER BY position").compactMap {
            $0[0].string
        }
    }

    func testValidFlowIsStoredWithEveryColumn() throws {
        try store.load(.flows, Self.flow)
        let created = try XCTUnwrap(Timestamp("2026-11-28T06:00:00Z")).microseconds
        let completed = try XCTUnwrap(Timestamp("2026-11-28T08:10:00Z")).microseconds + 250_000
        XCTAssertEqual(
            try flowRow(),
            [
                "u1", "2026-11-28", "Courir", "5 km", "termine", 4, .real(30), .real(12.5),
                3, 3, 2, .integer(created), .integer(completed), .integer(store.lastSequence),
            ])
        XCTAssertEqual(try contexts(), ["sport", "santé", "sport"], "contexts keep their order and duplicates")
    }

    func testOptionalFieldsAbsentOrNullAreStoredAsNull() throws {
        let minimal: JSONValue = [
            "id": "f2", "userId": "u1", "date": "2026-11-28", "libelleAction": "Lire", "etat": "cree",
        ]
        try store.load(.flows, minimal)
        let nulls = record(
            minimal,
            [
                "id": "f3", "objectif": .null, "energieRequise": .null, "tempsEstime": .null, "tempsRealise": .null,
                "contexte": .null, "streakDay": .null, "etape": .null, "createdAt": .null, "completedAt": .null,
            ])
        try store.load(.flows, nulls)
        for id in ["f2", "f3"] {
            let row = try flowRow(id)
            XCTAssertEqual(Array(row[3...8]), [.null, "cree", .null, .null, .null, .null], id)
            XCTAssertEqual(Array(row[9...12]), [0, 0, .null, .null], id)
            XCTAssertEqual(try contexts(id), [], id)
        }
    }

    func testRequiredFieldNullOrMissingIsRejected() throws {
        try store.load(.flows, Self.flow)
        try store.assertRejected(.flows, record(Self.flow, ["userId": .null]), "field userId: missing (required) null")
        try store.assertRejected(
            .flows, record(Self.flow, ["libelleAction": nil]), "field libelleAction: missing (required)")
        try store.assertRejected(.flows, record(Self.flow, ["date": nil]), "field date: missing (required)")
        try store.assertRejected(.flows, record(Self.flow, ["etat": .null]), "field etat: missing (required) null")
        try store.assertRejected(.flows, record(Self.flow, ["id": nil]), "field id: missing (required)")
    }

    func testEveryFieldRuleRejectsAndLeavesTheTablesUnchanged() throws {
        try store.load(.flows, Self.flow)
        let timestampRule = "invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM)"
        let cases: [(String, JSONValue, String)] = [
            ("id", "", "field id: invalid id (a non-empty string or an integer) \"\""),
            ("id", .number(1.5, literal: "1.5"), "field id: invalid id (a non-empty string or an integer) 1.5"),
            ("userId", true, "field userId: invalid id (a non-empty string or an integer) true"),
            ("date", "2026-02-30", "field date: invalid date (YYYY-MM-DD) \"2026-02-30\""),
            ("libelleAction", 12, "field libelleAction: must be a string 12"),
            ("objectif", ["x"], "field objectif: must be a string [\"x\"]"),
            ("etat", "done", "field etat: must be one of cree, en_cours, termine \"done\""),
            ("etat", "Termine", "field etat: must be one of cree, en_cours, termine \"Termine\""),
            ("etat", "terminée", "field etat: must be one of cree, en_cours, termine \"terminée\""),
            ("energieRequise", 0, "field energieRequise: must be an integer from 1 to 5 0"),
            ("energieRequise", 6, "field energieRequise: must be an integer from 1 to 5 6"),
            (
                "energieRequise", .number(4.0, literal: "4.0"),
                "field energieRequise: must be an integer from 1 to 5 4.0"
            ),
            ("energieRequise", "4", "field energieRequise: must be an integer from 1 to 5 \"4\""),
            ("tempsEstime", -1, "field tempsEstime: must be a number from 0 to 1440 -1"),
            ("tempsEstime", 1441, "field tempsEstime: must be a number from 0 to 1440 1441"),
            ("tempsEstime", "30", "field tempsEstime: must be a number \"30\""),
            (
                "tempsRealise", .number(-0.5, literal: "-0.5"),
                "field tempsRealise: must be a number from 0 to 1440 -0.5"
            ),
            ("tempsRealise", .number(.infinity, literal: "1e999"), "field tempsRealise: number out of range 1e999"),
            ("contexte", "sport", "field contexte: must be a list \"sport\""),
            ("contexte", ["sport", 3], "field contexte[1]: must be a string 3"),
            ("streakDay", -1, "field streakDay: must be an integer ≥ 0 -1"),
            ("streakDay", .number(2.0, literal: "2.0"), "field streakDay: must be an integer ≥ 0 2.0"),
            (
                "etape", ["libelle": "x", "terminee": true],
                "field etape: must be a list {\"libelle\":\"x\",\"terminee\":true}"
            ),
            ("etape", ["x"], "field etape[0]: must be an object \"x\""),
            (
                "etape", [["libelle": "a", "terminee": true], ["libelle": "b"]],
                "field etape[1].terminee: missing (required)"
            ),
            ("etape", [["libelle": "a", "terminee": "oui"]], "field etape[0].terminee: must be true or false \"oui\""),
            ("etape", [["libelle": 5, "terminee": true]], "field etape[0].libelle: must be a string 5"),
            (
                "etape", [["id": "", "libelle": "a", "terminee": true]],
                "field etape[0].id: invalid id (a non-empty string or an integer) \"\""
            ),
            (
                "etape",
                [["id": "e1", "libelle": "a", "terminee": true], ["id": 1.5, "libelle": "b", "terminee": true]],
                "field etape[1].id: invalid id (a non-empty string or an integer) 1.5"
            ),
            ("etape", [["id": "e1", "terminee": true]], "field etape[0].libelle: missing (required)"),
            ("etape", [["libelle": .null, "terminee": true]], "field etape[0].libelle: missing (required) null"),
            ("createdAt", "2026-11-28 07:00:00Z", "field createdAt: \(timestampRule) \"2026-11-28 07:00:00Z\""),
            (
                "completedAt", "2026-11-28T07:00:00+0100",
                "field completedAt: \(timestampRule) \"2026-11-28T07:00:00+0100\""
            ),
            ("completedAt", "2026-11-28T07:00:00z", "field completedAt: \(timestampRule) \"2026-11-28T07:00:00z\""),
        ]
        for (field, value, message) in cases {
            try store.assertRejected(.flows, record(Self.flow, [field: value]), message)
        }
    }

    func testNotAnObjectAndRepeatedFieldsAreRejected() throws {
        try store.load(.flows, Self.flow)
        try store.assertRejected(.flows, [1, 2], "field (record): not an object [1,2]")
        guard case .object(var object) = Self.flow else { return XCTFail("the fixture is an object") }
        object.members.append(JSONObject.Member(key: "etat", value: "cree"))
        try store.assertRejected(.flows, .object(object), "field etat: repeated field")
        guard case .object(var step) = ["libelle": "a", "terminee": true] as JSONValue else { return XCTFail("object") }
        step.members.append(JSONObject.Member(key: "terminee", value: false))
        try store.assertRejected(
            .flows, record(Self.flow, ["etape": [.object(step)]]), "field etape[0].terminee: repeated field")
        // The empty name twice (found by the records fuzzer): named as written, not as nothing.
        object.members.removeLast()
        object.members += [JSONObject.Member(key: "", value: 1), JSONObject.Member(key: "", value: 2)]
        try store.assertRejected(.flows, .object(object), #"field "": repeated field"#)
        step.members = [JSONObject.Member(key: "", value: 1), JSONObject.Member(key: "", value: 2)]
        try store.assertRejected(
            .flows, record(Self.flow, ["etape": [.object(step)]]), #"field etape[0]."": repeated field"#)
    }

    func testAccentedAndCanonicallyEquivalentStatesMapToCanonicalValues() throws {
        let writings: [(String, String)] = [
            ("cree", "cree"), ("en_cours", "en_cours"), ("termine", "termine"),
            ("créé", "cree"),  // precomposed é
            ("cre\u{301}e\u{301}", "cree"),  // e + combining acute accent
            ("terminé", "termine"),
            ("termin" + "e\u{301}", "termine"),
        ]
        for (index, (written, canonical)) in writings.enumerated() {
            try store.load(.flows, record(Self.flow, ["id": .integer(Int64(index)), "etat": .string(written)]))
            XCTAssertEqual(
                try store.rows("SELECT etat FROM flows WHERE id = '\(index)'"), [[.text(canonical)]], written)
        }
        // A different accent is not canonically equivalent to the accepted writings.
        try store.assertRejected(
            .flows, record(Self.flow, ["etat": "termine\u{300}"]),
            "field etat: must be one of cree, en_cours, termine \"termine\u{300}\"")
    }

    func testSameRecordTwiceGivesOneRowAndOneSetOfContexts() throws {
        try store.load(.flows, Self.flow)
        try store.load(.flows, Self.flow)
        XCTAssertEqual(try store.count("flows"), 1)
        XCTAssertEqual(try contexts(), ["sport", "santé", "sport"])
        XCTAssertEqual(try flowRow().last, .integer(store.lastSequence), "import_seq is the latest import")
    }

    func testLaterRecordReplacesTheEarlierOneWholeWithItsChildren() throws {
        try store.load(.flows, Self.flow)
        try store.load(
            .flows,
            [
                "id": "f1", "userId": "u2", "date": "2026-11-29", "libelleAction": "Marcher",
                "etat": "en_cours", "contexte": ["plein air"],
            ])
        let row = try flowRow()
        XCTAssertEqual(
            row,
            [
                "u2", "2026-11-29", "Marcher", .null, "en_cours", .null, .null, .null,
                .null, 0, 0, .null, .null, .integer(store.lastSequence),
            ])
        XCTAssertEqual(try contexts(), ["plein air"])
        try store.load(.flows, record(Self.flow, ["contexte": nil]))
        XCTAssertEqual(try contexts(), [], "a record without contexts removes the earlier ones")
    }

    func testUnknownFieldsAreIgnoredAndNumericIdsEqualTextIds() throws {
        try store.load(.flows, record(Self.flow, ["id": 1042, "userId": 7, "couleur": "bleu", "meta": ["a": [1, 2]]]))
        try store.load(.flows, record(Self.flow, ["id": "1042", "userId": "7", "libelleAction": "Nager"]))
        XCTAssertEqual(try store.rows("SELECT id, user_id, libelle_action FROM flows"), [["1042", "7", "Nager"]])
        XCTAssertEqual(try contexts("1042"), ["sport", "santé", "sport"])
    }

    /// A step's id is checked, not kept: text, an integer of any size, `null` or absent.
    func testStepIdsOfEveryAllowedFormAreAccepted() throws {
        let huge = JSONValue.number(1.2345678901234567e19, literal: "12345678901234567890")
        try store.load(
            .flows,
            record(
                Self.flow,
                [
                    "etape": [
                        ["id": "e1", "libelle": "a", "terminee": true], ["id": 2, "libelle": "b", "terminee": false],
                        ["id": huge, "libelle": "c", "terminee": true],
                        ["id": .null, "libelle": "d", "terminee": true],
                        ["libelle": "e", "terminee": false],
                    ]
                ]))
        XCTAssertEqual(try store.rows("SELECT steps_total, steps_done FROM flows"), [[.integer(5), .integer(3)]])
    }

    func testIntegerTimesAndZeroAreAcceptedAsNumbers() throws {
        try store.load(.flows, record(Self.flow, ["tempsEstime": 0, "tempsRealise": 45]))
        XCTAssertEqual(try store.rows("SELECT temps_estime, temps_realise FROM flows"), [[.real(0), .real(45)]])
    }
}
