import Foundation
import XCTest
import Import
import JSON
import Store
import ReportTestSupport
@testable import Fleet

/// A fresh fleet database in its own temporary directory for every test, with helpers to import
/// records and to check that a rejected record leaves every fleet table as it was.
class FleetTestCase: XCTestCase {
    static let tables = ["events", "groups", "drivers", "assignments", "loan_records", "loan_impacts"]

    private(set) var directory = ""
    private(set) var database: Database?
    /// The test's database: a file in `directory`, or a database of the PostgreSQL test server.
    private(set) var location = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "fleet-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        location = try TestStore.freshLocation(in: directory)
        let database = try Database(path: location)
        try Schema.migrate(database, ImportLog.migrations + FleetModule.module.migrations)
        // On Citus, the fleet tables are laid out as `report distribute` lays them out
        // (REPORT_TEST_BACKEND=citus), as `DomainTestStore` does for the other domains.
        if TestStore.isCitus { _ = try database.distribute(FleetModule.module.distribution) }
        self.database = database
    }

    override func tearDownWithError() throws {
        database = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    func db() throws -> Database {
        try XCTUnwrap(database)
    }

    /// Imports records of one kind, the sequence counting up from `firstSequence`.
    func importRecords(_ kind: ExportKind, _ records: [JSONValue], firstSequence: Int64 = 1) throws {
        let importer = try FleetModule.module.imports.makeImporter(kind, try db())
        for (offset, record) in records.enumerated() {
            try importer.importRecord(record, sequence: firstSequence + Int64(offset))
        }
    }

    /// Every row of every fleet table, in a stable order.
    func snapshot() throws -> [String: [[SQLValue]]] { try TableSnapshot.of(db(), tables: FleetTestCase.tables) }

    /// Asserts that `record` is rejected with exactly `message` and that no fleet table changed.
    func assertRejected(
        _ kind: ExportKind, _ record: JSONValue, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try snapshot()
        let importer = try FleetModule.module.imports.makeImporter(kind, try db())
        do {
            try importer.importRecord(record, sequence: 999)
            XCTFail("accepted a record that should fail with: \(message)", file: file, line: line)
        } catch let error as FieldError {
            XCTAssertEqual(error.description, message, file: file, line: line)
        }
        XCTAssertEqual(try snapshot(), before, "a rejected record changed the database", file: file, line: line)
    }

    /// The rows of a query, for short assertions.
    func rows(_ sql: String, _ parameters: [SQLValue] = []) throws -> [[SQLValue]] {
        try db().rows(sql, parameters)
    }

    func count(_ table: String) throws -> Int64 {
        try XCTUnwrap(try db().scalarInt("SELECT count(*) FROM \(table)"))
    }
}

extension JSONValue {
    /// The same object with `key` set to `value` (in place when present, else appended), or removed
    /// when `value` is nil: tests vary one field of a valid record.
    func with(_ key: String, _ value: JSONValue?) -> JSONValue {
        guard case .object(var object) = self else { return self }
        if let index = object.members.firstIndex(where: { $0.key == key }) {
            if let value { object.members[index].value = value } else { object.members.remove(at: index) }
        } else if let value {
            object.members.append(JSONObject.Member(key: key, value: value))
        }
        return .object(object)
    }

    func without(_ key: String) -> JSONValue { with(key, nil) }
}

/// Valid records of every fleet kind, to be varied one field at a time.
enum Sample {
    static let event: JSONValue = [
        "id": "salon2016", "name": "Mondial de l'Automobile", "starts_on": "2016-10-01", "ends_on": "2016-10-16",
        "timezone": "America/New_York", "opens_at": "10:00", "closes_at": "20:00",
    ]

    static let group: JSONValue = ["id": "press", "event_id": "salon2016", "name": "Presse"]

    static let driver: JSONValue = ["id": 77, "name": "Camille Martin", "company": "Le Journal"]

    /// A check-out with two signature strokes, two impacts, two photos.
    static func loanRecord(id: JSONValue = "r1") -> JSONValue {
        [
            "id": id, "recorded_at": "2016-10-01T09:35:12.250+02:00", "mileage_km": 1234.5, "oil_level": 4,
            "interior_cleanliness": 3, "exterior_cleanliness": 2,
            "signature": [[[10, 10], [20.5, 30]], [[50, 50]]],
            "impacts": [["type": "scratch", "x": 100, "y": 250.5], ["type": "impact", "x": 0, "y": 400]],
            "photos": ["https://example.com/1.jpg", "https://example.com/2.jpg"], "comment": "rayure porte",
        ]
    }

    static func fileLoanRecord(
        id: JSONValue = "r1", assignment: JSONValue = 501, kind: JSONValue = "check_out"
    ) -> JSONValue {
        loanRecord(id: id).with("assignment_id", assignment).with("kind", kind)
    }

    static let minimalLoanRecord: JSONValue = [
        "id": "r2", "recorded_at": "2016-10-01T18:05:00Z", "oil_level": 0, "interior_cleanliness": 4,
        "exterior_cleanliness": 1,
    ]

    static let assignment: JSONValue = [
        "id": 501, "event_id": "salon2016", "group_id": "press", "driver_id": 77, "brand_name": "Peugeot",
        "model_name": "3008", "license_plate_number": "ab-123 cd",
        "planned_time_out": "2016-10-01T09:30:00+02:00", "planned_time_in": "2016-10-01T12:00:00+02:00",
        "cancelled": false, "check_out_record": loanRecord(), "check_in_record": minimalLoanRecord,
    ]
}
