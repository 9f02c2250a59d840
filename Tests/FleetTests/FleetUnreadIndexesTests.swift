import Foundation
import XCTest
import Import
import JSON
import ReportTestSupport
import Store
import Time
@testable import Fleet

/// Fleet schema step 3 drops the two indexes no query reads by, `assignments_driver` and
/// `groups_event` (issue 32 item 2, docs/BENCHMARKS.md): a database of step 2 (on Citus, laid out
/// as `report distribute` lays it out) migrates in place, keeps every row, and gives the reports
/// of a database made at step 3.
final class FleetUnreadIndexesTests: FleetAnalysisTestCase {
    func names(_ database: Database, _ table: String) throws -> [String] {
        try database.secondaryIndexes(of: table).map(\.name)
    }

    func testAStepTwoDatabaseDropsTheUnreadIndexesInPlaceAndReportsTheSame() throws {
        try importEvent()
        try importRecords(.groups, [Sample.group], firstSequence: 2)
        try importRecords(.drivers, [Sample.driver], firstSequence: 3)
        try importAssignments([
            assignment(
                "7", plate: "AB-123-CD", out: "2016-10-01T10:00:00+02:00", in: "2016-10-01T11:00:00+02:00",
                group: "press", driver: "77", checkOut: record("o7", at: "2016-10-01T10:05:00+02:00", km: 100),
                checkIn: record("i7", at: "2016-10-01T11:10:00+02:00", km: 130, impacts: [("scratch", 10, 20)])),
            assignment(
                "8", plate: "EF-456-GH", out: "2016-10-02T10:00:00+02:00", in: "2016-10-02T12:00:00+02:00",
                driver: "77", checkOut: record("o8", at: "2016-10-02T10:00:00+02:00", km: 5)),
        ])

        let old = try Database(path: try TestStore.freshLocation(in: directory, name: "step2.sqlite"))
        try Schema.migrate(old, ImportLog.migrations + [FleetSchema.version1, FleetSchema.version2])
        if TestStore.isCitus { _ = try old.distribute(FleetModule.module.distribution) }
        XCTAssertTrue(try names(old, "assignments").contains("assignments_driver"))
        XCTAssertTrue(try names(old, "groups").contains("groups_event"))
        for table in FleetTestCase.tables {
            let columns = try rows(TestStore.columnsSQL, [.text(table)]).compactMap { $0.first?.string }
            let list = columns.joined(separator: ", ")
            for row in try rows("SELECT \(list) FROM \(table)") {
                try old.run(
                    "INSERT INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))", row)
            }
        }
        try Schema.migrate(old, ImportLog.migrations + FleetModule.module.migrations)

        for database in [old, try db()] {
            XCTAssertFalse(try names(database, "assignments").contains("assignments_driver"))
            XCTAssertTrue(try names(database, "assignments").contains("assignments_event_plate"))
            XCTAssertFalse(try names(database, "groups").contains("groups_event"))
            XCTAssertTrue(try names(database, "loan_records").contains("loan_records_event_assignment"))
        }
        for table in FleetTestCase.tables {
            XCTAssertEqual(
                try TableSnapshot.of(old, tables: [table]), try TableSnapshot.of(db(), tables: [table]), table)
        }
        let asOf = try XCTUnwrap(Timestamp(FleetAnalysisTestCase.afterEvent))
        let migrated = try FleetAnalysis.report(database: old, options: FleetOptions(eventId: "salon2016", asOf: asOf))
        let imported = try makeReport()
        XCTAssertEqual(migrated.figures, imported.figures)
        XCTAssertEqual(migrated.tables.map(\.name), imported.tables.map(\.name))
        XCTAssertEqual(migrated.tables.map(\.rows.all), imported.tables.map(\.rows.all))
        XCTAssertEqual(try figure(imported, "returned_loans"), .integer(1))
        XCTAssertEqual(try figure(imported, "loans"), .integer(2))
    }
}
