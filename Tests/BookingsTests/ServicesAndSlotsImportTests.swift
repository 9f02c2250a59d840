import Import
import JSON
import Time
import XCTest
@testable import Bookings

final class ServicesImportTests: XCTestCase {
    private var store: BookingsTestStore!

    override func setUpWithError() throws { store = try BookingsTestStore() }
    override func tearDown() { store = nil }

    static let service: JSONValue = [
        "id": "s1", "name": "Coupe femme", "category": "coupe", "price_cents": 4500, "old_price_cents": 5500,
        "duration_minutes": 45,
    ]

    func testValidServiceIsStoredAndReplacedWhole() throws {
        try store.load(.services, Self.service)
        XCTAssertEqual(
            try store.rows(
                "SELECT id, name, category, price_cents, old_price_cents, duration_minutes, import_seq FROM services"),
            [["s1", "Coupe femme", "coupe", 4500, 5500, 45, .integer(store.lastSequence)]])
        try store.load(.services, Self.service)
        XCTAssertEqual(try store.count("services"), 1)
        try store.load(.services, record(Self.service, ["old_price_cents": .null, "price_cents": 0, "promo": true]))
        XCTAssertEqual(try store.rows("SELECT price_cents, old_price_cents FROM services"), [[0, .null]])
    }

    func testIntegerAndTextIdsAreOneService() throws {
        try store.load(.services, record(Self.service, ["id": 1042]))
        try store.load(.services, record(Self.service, ["id": "1042", "name": "Brushing"]))
        XCTAssertEqual(try store.rows("SELECT id, name FROM services"), [["1042", "Brushing"]])
    }

    func testInvalidServicesAreRejected() throws {
        try store.load(.services, Self.service)
        let cases: [(String, JSONValue?, String)] = [
            ("name", nil, "field name: missing (required)"),
            ("category", .null, "field category: missing (required) null"),
            ("price_cents", -1, "field price_cents: must be an integer from 0 to 1000000000000 -1"),
            (
                "price_cents", .number(45.0, literal: "45.0"),
                "field price_cents: must be an integer from 0 to 1000000000000 45.0"
            ),
            ("price_cents", "4500", "field price_cents: must be an integer from 0 to 1000000000000 \"4500\""),
            ("old_price_cents", -5, "field old_price_cents: must be an integer from 0 to 1000000000000 -5"),
            (
                "price_cents", 1_000_000_000_001,
                "field price_cents: must be an integer from 0 to 1000000000000 1000000000001"
            ),
            ("duration_minutes", 0, "field duration_minutes: must be an integer ≥ 1 0"),
            ("duration_minutes", nil, "field duration_minutes: missing (required)"),
        ]
        for (field, value, message) in cases {
            try store.assertRejected(.services, record(Self.service, [field: value]), message)
        }
    }

    func testModuleRefusesKindsOfOtherDomains() throws {
        XCTAssertThrowsError(
            try BookingsModule.module.imports.makeImporter(ExportKind("tasks", domain: "habits"), store.database))
        XCTAssertEqual(BookingsModule.module.name, .bookings)
    }
}

final class SlotsImportTests: XCTestCase {
    private var store: BookingsTestStore!

    override func setUpWithError() throws { store = try BookingsTestStore() }
    override func tearDown() { store = nil }

    static let slot: JSONValue = [
        "id": "m-2026-11-28", "starts_at": "2026-11-28T09:00:00+01:00", "ends_at": "2026-11-28T12:00:00+01:00",
        "capacity": 3,
    ]

    func testValidSlotIsStoredAsInstants() throws {
        try store.load(.slots, Self.slot)
        let starts = try XCTUnwrap(Timestamp("2026-11-28T08:00:00Z")).microseconds
        let ends = try XCTUnwrap(Timestamp("2026-11-28T11:00:00Z")).microseconds
        XCTAssertEqual(
            try store.rows("SELECT id, starts_at_us, ends_at_us, capacity, import_seq FROM slots"),
            [["m-2026-11-28", .integer(starts), .integer(ends), 3, .integer(store.lastSequence)]])
        try store.load(.slots, record(Self.slot, ["capacity": 0]))
        XCTAssertEqual(
            try store.rows("SELECT capacity FROM slots"), [[0]], "a later record replaces; capacity 0 is valid")
    }

    func testEndsAtIsComparedAsAnInstant() throws {
        // 11:00+01:00 is 10:00Z: after a 09:30Z start, and not after a 10:00Z start, although its wall
        // clock reads later than both.
        try store.load(
            .slots,
            ["id": "a", "starts_at": "2026-11-28T09:30:00Z", "ends_at": "2026-11-28T11:00:00+01:00", "capacity": 1])
        XCTAssertEqual(try store.count("slots"), 1)
        try store.assertRejected(
            .slots,
            ["id": "b", "starts_at": "2026-11-28T10:00:00Z", "ends_at": "2026-11-28T11:00:00+01:00", "capacity": 1],
            "field ends_at: must be after starts_at \"2026-11-28T11:00:00+01:00\"")
    }

    func testInvalidSlotsAreRejected() throws {
        try store.load(.slots, Self.slot)
        let cases: [(String, JSONValue?, String)] = [
            (
                "ends_at", "2026-11-28T09:00:00+01:00",
                "field ends_at: must be after starts_at \"2026-11-28T09:00:00+01:00\""
            ),
            (
                "ends_at", "2026-11-28T08:59:59+01:00",
                "field ends_at: must be after starts_at \"2026-11-28T08:59:59+01:00\""
            ),
            ("ends_at", nil, "field ends_at: missing (required)"),
            (
                "starts_at", "2026-11-28T09:00+0100",
                "field starts_at: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) "
                    + "\"2026-11-28T09:00+0100\""
            ),
            ("capacity", -1, "field capacity: must be an integer from 0 to 10000 -1"),
            ("capacity", 10_001, "field capacity: must be an integer from 0 to 10000 10001"),
            ("capacity", .null, "field capacity: missing (required) null"),
            ("id", .bool(false), "field id: invalid id (a non-empty string or an integer) false"),
        ]
        for (field, value, message) in cases {
            try store.assertRejected(.slots, record(Self.slot, [field: value]), message)
        }
    }
}
