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
        XCTAssertEqual(try columns("loan_impacts"), ["record_id", "position", "type", "x", "y"])
    }

    func testMigratingAgainChangesNothing() throws {
        try importRecords(.events, [Sample.event])
        try Schema.migrate(try db(), Schema.core + FleetModule.module.migrations)
        XCTAssertEqual(try rows("SELECT version FROM schema_migrations WHERE domain = 'fleet'"), [[1]])
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
}
