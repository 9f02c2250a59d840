import Import
import XCTest
import Store
import ReportTestSupport
@testable import Fleet

/// The fleet tables are the contract the analysis reads: these tests pin their columns.
final class FleetSchemaTests: FleetTestCase {
    func columns(_ table: String) throws -> [String] {
        try rows(TestStore.columnsSQL, [.text(table)]).compactMap { $0.first?.string }
    }

    func testTablesHaveTheDocumentedColumns() throws {
        XCTAssertEqual(
            try columns("events"),
            [
                "id", "name", "starts_on", "ends_on", "timezone", "opens_at_minutes",
                "closes_at_minutes", "import_seq",
            ])
        XCTAssertEqual(try columns("groups"), ["id", "event_id", "name", "import_seq"])
        XCTAssertEqual(try columns("drivers"), ["id", "name", "company", "import_seq"])
        XCTAssertEqual(
            try columns("assignments"),
            [
                "id", "event_id", "group_id", "driver_id", "brand_name", "model_name",
                "license_plate_number", "plate", "planned_time_out_us",
                "planned_time_out_offset", "planned_time_in_us", "planned_time_in_offset",
                "cancelled", "import_seq",
            ])
        XCTAssertEqual(try columns("loan_records"), LoanRecordStore.columns)
        XCTAssertEqual(try columns("loan_impacts"), ["record_id", "position", "type", "x", "y", "event_id"])
    }

    func testMigratingAgainChangesNothing() throws {
        try importRecords(.events, [Sample.event])
        try Schema.migrate(try db(), ImportLog.migrations + FleetModule.module.migrations)
        XCTAssertEqual(
            try rows("SELECT version FROM schema_migrations WHERE domain = 'fleet' ORDER BY version"),
            [[1], [2], [3], [4]])
        XCTAssertEqual(try count("events"), 1)
    }

    func testModuleRefusesOtherDomainsKinds() throws {
        XCTAssertEqual(FleetModule.module.name, .fleet)
        XCTAssertThrowsError(
            try FleetModule.module.imports.makeImporter(ExportKind("tasks", domain: "habits"), try db())
        ) { error in
            XCTAssertEqual("\(error)", "the fleet module has no importer for tasks")
        }
    }

    func testPlateNormalisation() {
        XCTAssertEqual(Plate.normalized("ab-123 cd"), "AB123CD")
        XCTAssertEqual(Plate.normalized("AB\u{2013}123\u{00A0}CD\t"), "AB123CD")
        XCTAssertEqual(Plate.normalized("é-1"), "É1")
        XCTAssertEqual(Plate.normalized(" - "), "")
    }

    /// ASCII plates are normalised byte by byte: every pair of ASCII characters, and random
    /// longer plates, give what Unicode upper-casing and Character white space give.
    func testASCIIPlatesNormaliseAsUnicodeDoes() {
        func unicode(_ written: String) -> String {
            String(written.uppercased().filter { !$0.isWhitespace && !Plate.dashes.contains($0) })
        }
        var plates: [String] = []
        for first in 0..<128 {
            for second in 0..<128 {
                plates.append(String(decoding: [UInt8(first), UInt8(second)], as: UTF8.self))
            }
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 -\t\r\n\u{0B}\u{0C}\u{1C}\u{1F}_.x")
        for _ in 0..<2_000 {
            plates.append(
                String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement()! }))
        }
        for plate in plates {
            XCTAssertNotNil(Plate.normalizedASCII(plate))
            XCTAssertEqual(Plate.normalized(plate), unicode(plate), "\(Array(plate.utf8))")
        }
        XCTAssertNil(Plate.normalizedASCII("é-1"))
    }
}
