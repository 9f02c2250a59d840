import Foundation
import Import
import JSON
import ReportTestSupport
import Store
import Time
import XCTest
@testable import Bookings

final class BookingsImportTests: XCTestCase {
    private var store: BookingsTestStore!

    override func setUpWithError() throws { store = try BookingsTestStore() }
    override func tearDown() { store = nil }

    /// Bookings step 2 gives every service line its booking's customer (the column a distributed
    /// database places both by), also the lines a database of the release before holds.
    func testServiceLinesCarryTheirBookingsCustomerAlsoAfterAMigrationInPlace() throws {
        let directory = try makeTemporaryFolder("bookings-migration")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try TestStore.freshLocation(in: directory.path)
        let old = try Database(path: location)
        try Schema.migrate(old, ImportLog.migrations + [BookingsSchema.version1])
        try old.run(
            "INSERT INTO bookings (id, customer_id, starts_at_us, created_at_us, status, amount_cents, import_seq) "
                + "VALUES ('b1', 'c1', 0, 0, 'paid', 100, 1)")
        try old.run(
            "INSERT INTO booking_lines (booking_id, position, service_id, price_cents) VALUES ('b1', 0, 's1', 100)")
        try Schema.migrate(old, ImportLog.migrations + BookingsSchema.migrations)
        XCTAssertEqual(try old.rows("SELECT booking_id, customer_id FROM booking_lines"), [["b1", "c1"]])
        let importer = try BookingsImporter(database: old)
        let moved: JSONValue = [
            "id": "b1", "customer_id": "c2", "starts_at": "2026-11-02T10:00:00+01:00",
            "created_at": "2026-11-01T10:00:00+01:00", "status": "paid", "amount_cents": 100,
            "services": [["service_id": "s1", "price_cents": 100]],
        ]
        try importer.importRecord(moved, sequence: 2)
        XCTAssertEqual(try old.rows("SELECT booking_id, customer_id FROM booking_lines"), [["b1", "c2"]])
    }

    static let booking: JSONValue = [
        "id": "b1", "customer_id": "c1", "slot_id": "m-2026-11-28", "starts_at": "2026-11-28T09:30:00+01:00",
        "created_at": "2026-11-20T18:00:00Z", "status": "paid",
        "services": [
            ["service_id": "s1", "price_cents": 4500, "old_price_cents": 5500],
            ["service_id": 12, "price_cents": 2000],
            ["service_id": "s1", "price_cents": 4500, "old_price_cents": 4000],
        ],
        "amount_cents": 11000, "paid_at": "2026-11-20T18:05:00.5Z", "cancelled_at": nil, "postal_code": "75011",
    ]

    private func lines(_ id: String = "b1") throws -> [[SQLValue]] {
        try store.rows(
            "SELECT position, service_id, price_cents, old_price_cents FROM booking_lines WHERE booking_id = '\(id)' "
                + "ORDER BY position"
        )
    }

    func testValidBookingIsStoredWithItsLines() throws {
        try store.load(.bookings, Self.booking)
        let starts = try XCTUnwrap(Timestamp("2026-11-28T08:30:00Z")).microseconds
        let created = try XCTUnwrap(Timestamp("2026-11-20T18:00:00Z")).microseconds
        let paid = try XCTUnwrap(Timestamp("2026-11-20T18:05:00Z")).microseconds + 500_000
        XCTAssertEqual(
            try store.rows(
                """
                SELECT id, customer_id, slot_id, starts_at_us, created_at_us, status, amount_cents, paid_at_us,
                       cancelled_at_us, postal_code, import_seq FROM bookings
                """),
            [
                [
                    "b1", "c1", "m-2026-11-28", .integer(starts), .integer(created), "paid", 11000, .integer(paid),
                    .null, "75011", .integer(store.lastSequence),
                ]
            ])
        XCTAssertEqual(
            try lines(), [[0, "s1", 4500, 5500], [1, "12", 2000, .null], [2, "s1", 4500, 4000]],
            "lines keep their order, repeats and own old prices")
    }

    func testEveryStatusIsAccepted() throws {
        for (index, status) in BookingRecord.statuses.enumerated() {
            try store.load(.bookings, record(Self.booking, ["id": .integer(Int64(index)), "status": .string(status)]))
        }
        XCTAssertEqual(
            try store.rows("SELECT status FROM bookings ORDER BY id").compactMap { $0[0].string },
            BookingRecord.statuses)
    }

    func testOptionalFieldsAbsentOrNullAreNull() throws {
        try store.load(.bookings, record(Self.booking, ["slot_id": nil, "paid_at": .null, "postal_code": nil]))
        XCTAssertEqual(
            try store.rows("SELECT slot_id, paid_at_us, cancelled_at_us, postal_code FROM bookings"),
            [[.null, .null, .null, .null]])
    }

    func testInvalidBookingsAreRejected() throws {
        try store.load(.bookings, Self.booking)
        let timestampRule = "invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM)"
        let cases: [(String, JSONValue?, String)] = [
            ("customer_id", nil, "field customer_id: missing (required)"),
            ("customer_id", "", "field customer_id: invalid id (a non-empty string or an integer) \"\""),
            (
                "slot_id", .number(3.5, literal: "3.5"),
                "field slot_id: invalid id (a non-empty string or an integer) 3.5"
            ),
            ("starts_at", "2016-13-42T09:00:00Z", "field starts_at: \(timestampRule) \"2016-13-42T09:00:00Z\""),
            ("created_at", .null, "field created_at: missing (required) null"),
            (
                "status", "Paid",
                "field status: must be one of pending, confirmed, paid, done, cancelled, no_show \"Paid\""
            ),
            (
                "status", "canceled",
                "field status: must be one of pending, confirmed, paid, done, cancelled, no_show \"canceled\""
            ),
            ("services", [], "field services: must list at least one service []"),
            ("services", nil, "field services: missing (required)"),
            (
                "services", ["service_id": "s1", "price_cents": 1],
                "field services: must be a list {\"service_id\":\"s1\",\"price_cents\":1}"
            ),
            ("services", ["s1"], "field services[0]: must be an object \"s1\""),
            (
                "services", [["service_id": "s1", "price_cents": 1], ["price_cents": 1]],
                "field services[1].service_id: missing (required)"
            ),
            (
                "services", [["service_id": "s1", "price_cents": -1]],
                "field services[0].price_cents: must be an integer from 0 to 1000000000000 -1"
            ),
            (
                "services", [["service_id": "s1", "price_cents": .number(45.5, literal: "45.5")]],
                "field services[0].price_cents: must be an integer from 0 to 1000000000000 45.5"
            ),
            (
                "services", [["service_id": "s1", "price_cents": 1, "old_price_cents": -2]],
                "field services[0].old_price_cents: must be an integer from 0 to 1000000000000 -2"
            ),
            ("amount_cents", -1, "field amount_cents: must be an integer from 0 to 1000000000000 -1"),
            // Past the limit (issue 30): two Int64.max amounts summed to a wrong revenue before.
            (
                "amount_cents", 1_000_000_000_001,
                "field amount_cents: must be an integer from 0 to 1000000000000 1000000000001"
            ),
            (
                "amount_cents", .integer(Int64.max),
                "field amount_cents: must be an integer from 0 to 1000000000000 9223372036854775807"
            ),
            ("amount_cents", nil, "field amount_cents: missing (required)"),
            ("paid_at", "2026-11-20", "field paid_at: \(timestampRule) \"2026-11-20\""),
            ("cancelled_at", "2026-11-20T25:00:00Z", "field cancelled_at: \(timestampRule) \"2026-11-20T25:00:00Z\""),
            ("postal_code", 75011, "field postal_code: must be a string 75011"),
        ]
        for (field, value, message) in cases {
            try store.assertRejected(.bookings, record(Self.booking, [field: value]), message)
        }
    }

    func testLaterBookingReplacesEarlierWholeWithItsLines() throws {
        try store.load(.bookings, Self.booking)
        try store.load(.bookings, Self.booking)
        XCTAssertEqual(try store.count("bookings"), 1)
        XCTAssertEqual(try store.count("booking_lines"), 3)
        try store.load(
            .bookings,
            [
                "id": "b1", "customer_id": "c2", "starts_at": "2026-11-29T15:00:00Z",
                "created_at": "2026-11-21T10:00:00Z",
                "status": "cancelled", "services": [["service_id": "s9", "price_cents": 3000]], "amount_cents": 0,
                "cancelled_at": "2026-11-29T14:00:00Z",
            ])
        XCTAssertEqual(
            try store.rows("SELECT customer_id, slot_id, status, amount_cents, paid_at_us, postal_code FROM bookings"),
            [["c2", .null, "cancelled", 0, .null, .null]])
        XCTAssertEqual(try lines(), [[0, "s9", 3000, .null]])
    }

    func testIntegerAndTextIdsAreOneBookingAndUnknownFieldsAreIgnored() throws {
        try store.load(.bookings, record(Self.booking, ["id": 1042, "coupon": "NOEL", "customer_id": 77]))
        try store.load(.bookings, record(Self.booking, ["id": "1042", "customer_id": "77", "amount_cents": 9000]))
        XCTAssertEqual(try store.rows("SELECT id, customer_id, amount_cents FROM bookings"), [["1042", "77", 9000]])
        XCTAssertEqual(try store.count("booking_lines"), 3)
    }
}
