import Foundation
import Import
import JSON
import Time
import ReportTestSupport
import XCTest
@testable import Bookings

final class CustomersImportTests: XCTestCase {
    private var store: BookingsTestStore!

    override func setUpWithError() throws { store = try BookingsTestStore() }
    override func tearDown() { store = nil }

    /// Contact values distinctive enough that finding any of them in the file means it was stored.
    static let contacts: [String: String] = [
        "first_name": "Jeannette-Zoé", "last_name": "Dupontel-Vasquez", "email": "jeanne.dupont@example.fr",
        "phone": "+33 6 12 34 56 78", "address": "12 rue des Lilas Imaginaires, Paris",
    ]

    static var customer: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "id", value: "cust-ZX81"), .init(key: "created_at", value: "2026-10-01T12:00:00+02:00"),
            .init(key: "postal_code", value: "75011"),
        ]
        for (key, value) in contacts.sorted(by: { $0.key < $1.key }) {
            members.append(.init(key: key, value: .string(value)))
        }
        return .object(JSONObject(members: members))
    }

    func testValidCustomerIsStoredWithoutContactDetails() throws {
        try store.load(.customers, Self.customer)
        let created = try XCTUnwrap(Timestamp("2026-10-01T10:00:00Z")).microseconds
        XCTAssertEqual(
            try store.rows("SELECT * FROM customers"),
            [["cust-ZX81", .integer(created), "75011", .integer(store.lastSequence)]])
        let columns = try store.database.rows(TestStore.columnsSQL, ["customers"]).compactMap { $0[0].string }
        XCTAssertEqual(columns, ["id", "created_at_us", "postal_code", "import_seq"])
    }

    /// SPEC §1.2: contact fields are never stored. Scans the raw bytes of the database and its WAL
    /// (before and after a checkpoint) and every text cell of every table.
    func testContactFieldsNeverReachTheDatabaseFile() throws {
        try store.load(.customers, Self.customer)
        try store.load(.customers, record(Self.customer, ["id": "cust-2", "postal_code": nil]))
        // Contact fields of any type are ignored, never validated nor quoted in a rejection.
        try store.load(
            .customers,
            record(Self.customer, ["id": "cust-3", "email": ["jeanne.dupont@example.fr"], "phone": 33612345678]))
        do {
            try store.load(.customers, record(Self.customer, ["id": "cust-4", "created_at": "yesterday"]))
            XCTFail("an invalid created_at is rejected")
        } catch let error as FieldError {
            for value in Self.contacts.values { XCTAssertFalse(error.description.contains(value), error.description) }
        }
        XCTAssertEqual(try store.count("customers"), 3)

        if TestStore.backend == .sqlite { try assertNoContactInTheFiles() }
        let tables = try store.database.tableNames()
        XCTAssertTrue(tables.contains("customers"))
        for table in tables {
            for row in try store.rows("SELECT * FROM \(table)") {
                for case .text(let text) in row {
                    for (field, value) in Self.contacts {
                        XCTAssertFalse(text.contains(value), "\(field) found in \(table)")
                    }
                    XCTAssertFalse(text.contains("jeanne.dupont"), "e-mail found in \(table)")
                }
            }
        }
    }

    /// The raw bytes of the SQLite file and its WAL (PostgreSQL's files belong to the server).
    private func assertNoContactInTheFiles() throws {
        let databasePath = store.database.path
        func fileBytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }
        let databaseBefore = fileBytes(databasePath)
        let walBefore = fileBytes(databasePath + "-wal")
        XCTAssertFalse(walBefore.isEmpty, "the WAL holds the recent writes")
        // The scan finds what is stored: the customer id is in the database or its WAL.
        let storedId = Data("cust-ZX81".utf8)
        XCTAssertTrue(walBefore.range(of: storedId) != nil || databaseBefore.range(of: storedId) != nil)

        try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let afterCheckpoint = fileBytes(databasePath)
        XCTAssertNotNil(afterCheckpoint.range(of: storedId), "after a checkpoint the id is in the main file")
        for (field, value) in Self.contacts {
            let needle = Data(value.utf8)
            for (name, bytes) in [
                ("database", databaseBefore), ("wal", walBefore), ("checkpointed database", afterCheckpoint),
                ("wal after checkpoint", fileBytes(databasePath + "-wal")),
            ] {
                XCTAssertNil(bytes.range(of: needle), "\(field) found in the \(name) file")
            }
        }
    }

    func testInvalidCustomersAreRejectedAndReplacementIsWhole() throws {
        try store.load(.customers, Self.customer)
        try store.assertRejected(
            .customers, record(Self.customer, ["created_at": nil]), "field created_at: missing (required)")
        try store.assertRejected(
            .customers, record(Self.customer, ["created_at": "2026-10-01T12:00:00"]),
            "field created_at: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) "
                + "\"2026-10-01T12:00:00\""
        )
        try store.assertRejected(
            .customers, record(Self.customer, ["postal_code": 75011]), "field postal_code: must be a string 75011")
        try store.assertRejected(.customers, record(Self.customer, ["id": .null]), "field id: missing (required) null")
        guard case .object(var object) = Self.customer else { return XCTFail("the fixture is an object") }
        object.members.append(.init(key: "email", value: "autre@example.fr"))
        try store.assertRejected(.customers, .object(object), "field email: repeated field")

        try store.load(.customers, ["id": "cust-ZX81", "created_at": "2026-10-02T00:00:00Z", "postal_code": .null])
        try store.load(.customers, ["id": "cust-ZX81", "created_at": "2026-10-02T00:00:00Z"])
        XCTAssertEqual(try store.rows("SELECT id, postal_code FROM customers"), [["cust-ZX81", .null]])
        try store.load(.customers, ["id": 1042, "created_at": "2026-10-02T00:00:00Z"])
        try store.load(.customers, ["id": "1042", "created_at": "2026-10-03T00:00:00Z", "postal_code": "93100"])
        XCTAssertEqual(try store.rows("SELECT postal_code FROM customers WHERE id = '1042'"), [["93100"]])
    }
}
