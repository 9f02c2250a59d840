import JSON
import Time
import XCTest
@testable import Habits

final class FocusSessionsImportTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    static let session: JSONValue = [
        "id": "p1", "userId": "u1", "startedAt": "2026-11-28T08:00:00+01:00", "totalSeconds": 1500,
        "remainingSeconds": 300, "endedAt": "2026-11-28T08:20:00+01:00",
    ]

    func testValidSessionIsStored() throws {
        try store.load(.focusSessions, Self.session)
        let started = try XCTUnwrap(Timestamp("2026-11-28T07:00:00Z")).microseconds
        let ended = try XCTUnwrap(Timestamp("2026-11-28T07:20:00Z")).microseconds
        XCTAssertEqual(
            try store.rows(
                "SELECT id, user_id, started_at_us, total_seconds, remaining_seconds, ended_at_us, import_seq FROM "
                    + "focus_sessions"
            ),
            [["p1", "u1", .integer(started), 1500, 300, .integer(ended), .integer(store.lastSequence)]])
    }

    func testRemainingSecondsMayBeZeroOrTheWholeSession() throws {
        try store.load(.focusSessions, record(Self.session, ["id": "p2", "remainingSeconds": 0, "endedAt": nil]))
        try store.load(.focusSessions, record(Self.session, ["id": "p3", "remainingSeconds": 1500, "endedAt": .null]))
        XCTAssertEqual(
            try store.rows("SELECT id, remaining_seconds, ended_at_us FROM focus_sessions ORDER BY id"),
            [["p2", 0, .null], ["p3", 1500, .null]])
    }

    func testInvalidSessionsAreRejected() throws {
        try store.load(.focusSessions, Self.session)
        let cases: [(String, JSONValue?, String)] = [
            ("totalSeconds", 0, "field totalSeconds: must be an integer from 1 to 86400 0"),
            ("totalSeconds", -5, "field totalSeconds: must be an integer from 1 to 86400 -5"),
            (
                "totalSeconds", .number(1500.0, literal: "1500.0"),
                "field totalSeconds: must be an integer from 1 to 86400 1500.0"
            ),
            ("totalSeconds", 86_401, "field totalSeconds: must be an integer from 1 to 86400 86401"),
            ("totalSeconds", nil, "field totalSeconds: missing (required)"),
            ("remainingSeconds", -1, "field remainingSeconds: must be an integer from 0 to 86400 -1"),
            ("remainingSeconds", 1501, "field remainingSeconds: must be an integer from 0 to totalSeconds (1500) 1501"),
            ("remainingSeconds", "300", "field remainingSeconds: must be an integer from 0 to 86400 \"300\""),
            ("startedAt", .null, "field startedAt: missing (required) null"),
            (
                "startedAt", "2026-11-28T08:00:00",
                "field startedAt: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) "
                    + "\"2026-11-28T08:00:00\""
            ),
            ("endedAt", 12, "field endedAt: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) 12"),
        ]
        for (field, value, message) in cases {
            try store.assertRejected(.focusSessions, record(Self.session, [field: value]), message)
        }
    }

    func testLaterSessionReplacesEarlierWhole() throws {
        try store.load(.focusSessions, Self.session)
        try store.load(
            .focusSessions, record(Self.session, ["id": "p1", "remainingSeconds": 0, "endedAt": nil, "note": "x"]))
        try store.load(.focusSessions, record(Self.session, ["id": "p1", "remainingSeconds": 0, "endedAt": nil]))
        XCTAssertEqual(try store.rows("SELECT remaining_seconds, ended_at_us FROM focus_sessions"), [[0, .null]])
    }
}

final class LoginsImportTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    func testTwoWritingsOfOneInstantAreOneLogin() throws {
        try store.load(.logins, ["userId": "u1", "at": "2026-11-28T09:00:00+02:00"])
        try store.load(.logins, ["userId": "u1", "at": "2026-11-28T07:00:00.000Z"])
        try store.load(.logins, ["userId": 1042, "at": "2026-11-28T07:00:00Z"])
        try store.load(.logins, ["userId": "1042", "at": "2026-11-28T08:00:00+01:00", "device": "iPhone"])
        try store.load(.logins, ["userId": "u1", "at": "2026-11-28T07:00:00.000001Z"])
        let instant = try XCTUnwrap(Timestamp("2026-11-28T07:00:00Z")).microseconds
        XCTAssertEqual(
            try store.rows("SELECT user_id, at_us FROM logins ORDER BY user_id, at_us"),
            [
                ["1042", .integer(instant)], ["u1", .integer(instant)], ["u1", .integer(instant + 1)],
            ])
        XCTAssertEqual(
            try store.rows("SELECT import_seq FROM logins WHERE user_id = '1042'"), [[4]],
            "the later import wins the tie")
    }

    func testInvalidLoginsAreRejected() throws {
        let login: JSONValue = ["userId": "u1", "at": "2026-11-28T09:00:00+02:00"]
        try store.load(.logins, login)
        try store.assertRejected(
            .logins, record(login, ["at": "2016-02-30T09:00:00Z"]),
            "field at: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) \"2016-02-30T09:00:00Z\"")
        try store.assertRejected(.logins, record(login, ["at": nil]), "field at: missing (required)")
        try store.assertRejected(.logins, record(login, ["userId": .null]), "field userId: missing (required) null")
        try store.assertRejected(
            .logins, record(login, ["userId": ["u1"]]),
            "field userId: invalid id (a non-empty string or an integer) [\"u1\"]")
    }
}

final class MoodsImportTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    static let mood: JSONValue = ["userId": "u1", "date": "2026-11-28", "mood": 4, "note": "bonne journée"]

    func testMoodIsKeyedByUserAndDateAndReplacedWhole() throws {
        try store.load(.moods, Self.mood)
        try store.load(.moods, Self.mood)
        try store.load(.moods, record(Self.mood, ["date": "2026-11-29", "mood": 1]))
        XCTAssertEqual(
            try store.rows("SELECT user_id, date, mood, note FROM moods ORDER BY date"),
            [["u1", "2026-11-28", 4, "bonne journée"], ["u1", "2026-11-29", 1, "bonne journée"]])
        try store.load(.moods, ["userId": "u1", "date": "2026-11-28", "mood": 5, "note": nil])
        XCTAssertEqual(
            try store.rows("SELECT mood, note, import_seq FROM moods WHERE date = '2026-11-28'"),
            [[5, .null, .integer(store.lastSequence)]])
        try store.load(.moods, ["userId": 7, "date": "2026-11-28", "mood": 2])
        try store.load(.moods, ["userId": "7", "date": "2026-11-28", "mood": 3])
        XCTAssertEqual(try store.rows("SELECT mood FROM moods WHERE user_id = '7'"), [[3]])
    }

    func testInvalidMoodsAreRejected() throws {
        try store.load(.moods, Self.mood)
        let cases: [(String, JSONValue?, String)] = [
            ("mood", 0, "field mood: must be an integer from 1 to 5 0"),
            ("mood", 6, "field mood: must be an integer from 1 to 5 6"),
            ("mood", .number(3.5, literal: "3.5"), "field mood: must be an integer from 1 to 5 3.5"),
            ("mood", nil, "field mood: missing (required)"),
            ("note", 3, "field note: must be a string 3"),
            ("date", "2026-11-28T00:00:00Z", "field date: invalid date (YYYY-MM-DD) \"2026-11-28T00:00:00Z\""),
        ]
        for (field, value, message) in cases {
            try store.assertRejected(.moods, record(Self.mood, [field: value]), message)
        }
    }
}
