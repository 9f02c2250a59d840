import Foundation
import XCTest
import Import
import JSON
import ReportModel
import ReportTestSupport
import Store
import Time
@testable import Fleet

/// Loan records and impacts carry their assignment's event (fleet schema step 2, issue 29): the
/// record that came before its assignment, the assignment that moves to another event, the record
/// imported again, each by a record at a time (tests, `importRecord`) and by a file's transaction
/// (`report import`, where the importers read the events once), and an existing database migrated.
final class FleetEventIdTests: FleetAnalysisTestCase {
    /// The two ways records reach the store: on their own, or a file's worth in one transaction.
    enum Path: CaseIterable { case recordByRecord, fileTransaction }

    func importRecords(_ kind: ExportKind, _ records: [JSONValue], path: Path, firstSequence: Int64) throws {
        switch path {
        case .recordByRecord: try importRecords(kind, records, firstSequence: firstSequence)
        case .fileTransaction:
            try db().transaction { try importRecords(kind, records, firstSequence: firstSequence) }
        }
    }

    /// (id, assignment, event) of every loan record, and (record, position, event) of every impact.
    func placement() throws -> (records: [[SQLValue]], impacts: [[SQLValue]]) {
        (
            try rows("SELECT id, assignment_id, event_id FROM loan_records ORDER BY id"),
            try rows("SELECT record_id, position, event_id FROM loan_impacts ORDER BY record_id, position")
        )
    }

    func secondEvent() throws {
        try importRecords(
            .events,
            [
                [
                    "id": "expo2016", "name": "Expo", "starts_on": "2016-10-01", "ends_on": "2016-10-03",
                    "timezone": "Europe/Paris", "opens_at": "09:00", "closes_at": "19:00",
                ]
            ], firstSequence: 2)
    }

    /// A one-hour loan 10:00–11:00 on 2016-10-01 (Paris): its check-out with one scratch.
    func checkOut(_ id: String = "o1") -> JSONValue {
        record(id, at: "2016-10-01T10:00:00+02:00", km: 100, impacts: [("scratch", 10, 20)])
    }

    func checkIn(_ id: String = "i1") -> JSONValue {
        record(id, at: "2016-10-01T11:00:00+02:00", km: 130, impacts: [("scratch", 10, 20), ("impact", 50, 60)])
    }

    func loanAssignment(event: String, checkIn: JSONValue? = nil) -> JSONValue {
        assignment(
            "7", plate: "MOVE1", out: "2016-10-01T10:00:00+02:00", in: "2016-10-01T11:00:00+02:00", event: event,
            checkOut: checkOut(), checkIn: checkIn)
    }

    /// A record from a `loan_records` file before its assignment: in the unknown bucket (listed by
    /// every report as such), then in its assignment's event once the assignment arrives, and
    /// counted there: the loan is returned (check-in from the file), one hour, 30 km.
    func testRecordBeforeItsAssignmentTakesItsEventWhenTheAssignmentArrives() throws {
        try recordBeforeItsAssignment(.recordByRecord)
    }

    func testRecordBeforeItsAssignmentTakesItsEventWhenTheAssignmentArrivesInAFileTransaction() throws {
        try recordBeforeItsAssignment(.fileTransaction)
    }

    private func recordBeforeItsAssignment(_ path: Path) throws {
        try importEvent()
        let fileCheckIn = checkIn().with("assignment_id", "7").with("kind", "check_in")
        try importRecords(.loanRecords, [fileCheckIn], path: path, firstSequence: 10)
        XCTAssertEqual(try placement().records, [["i1", "7", ""]], "\(path)")
        XCTAssertEqual(try placement().impacts, [["i1", 0, ""], ["i1", 1, ""]], "\(path)")
        let before = try makeReport()
        XCTAssertEqual(try figure(before, "loans"), .integer(0))
        XCTAssertEqual(try issues(before), [["loan_record_of_unknown_assignment", "i1"]], "\(path)")

        try importRecords(.assignments, [loanAssignment(event: "salon2016")], path: path, firstSequence: 100)
        XCTAssertEqual(try placement().records, [["i1", "7", "salon2016"], ["o1", "7", "salon2016"]], "\(path)")
        XCTAssertEqual(
            try placement().impacts,
            [["i1", 0, "salon2016"], ["i1", 1, "salon2016"], ["o1", 0, "salon2016"]], "\(path)")
        // The moved record keeps its own import order.
        XCTAssertEqual(try rows("SELECT import_seq FROM loan_records WHERE id = 'i1'"), [[10]])
        let report = try makeReport()
        XCTAssertEqual(try figure(report, "loans"), .integer(1), "\(path)")
        XCTAssertEqual(try figure(report, "returned_loans"), .integer(1), "\(path)")
        assertNumber(try figure(report, "loan_hours"), 1)
        XCTAssertEqual(try rows(report, "loans").map { $0["km"] }, [.number(30)], "\(path)")
        XCTAssertEqual(try issues(report), [], "\(path)")
        // A record of a known assignment takes its event at once.
        let late = record("o2", at: "2016-10-01T10:30:00+02:00").with("assignment_id", "7")
            .with("kind", "check_out")
        try importRecords(.loanRecords, [late], path: path, firstSequence: 200)
        XCTAssertEqual(try rows("SELECT event_id FROM loan_records WHERE id = 'o2'"), [["salon2016"]])
    }

    /// An assignment moved from salon2016 to expo2016 between two exports takes its records and
    /// impacts along, the one the later export no longer embeds (i1, from a file) included: the
    /// loan is counted once, in expo2016, and salon2016 has no assignment left.
    func testAssignmentThatChangesEventMovesItsRecordsAndImpacts() throws {
        try assignmentThatChangesEvent(.recordByRecord)
    }

    func testAssignmentThatChangesEventMovesItsRecordsAndImpactsInAFileTransaction() throws {
        try assignmentThatChangesEvent(.fileTransaction)
    }

    private func assignmentThatChangesEvent(_ path: Path) throws {
        try importEvent()
        try secondEvent()
        try importRecords(.assignments, [loanAssignment(event: "salon2016")], path: path, firstSequence: 100)
        let fileCheckIn = checkIn().with("assignment_id", "7").with("kind", "check_in")
        try importRecords(.loanRecords, [fileCheckIn], path: path, firstSequence: 150)
        XCTAssertEqual(try figure(try makeReport(), "returned_loans"), .integer(1), "\(path)")

        try importRecords(.assignments, [loanAssignment(event: "expo2016")], path: path, firstSequence: 300)
        XCTAssertEqual(try placement().records, [["i1", "7", "expo2016"], ["o1", "7", "expo2016"]], "\(path)")
        XCTAssertEqual(
            try placement().impacts,
            [["i1", 0, "expo2016"], ["i1", 1, "expo2016"], ["o1", 0, "expo2016"]], "\(path)")
        XCTAssertEqual(try count("loan_records"), 2)
        XCTAssertEqual(try count("loan_impacts"), 3)
        let expo = try makeReport(event: "expo2016")
        XCTAssertEqual(try figure(expo, "assignments"), .integer(1), "\(path)")
        XCTAssertEqual(try figure(expo, "loans"), .integer(1), "\(path)")
        XCTAssertEqual(try figure(expo, "returned_loans"), .integer(1), "\(path)")
        XCTAssertEqual(try rows(expo, "loans").map { $0["km"] }, [.number(30)], "\(path)")
        let salon = try makeReport(event: "salon2016")
        XCTAssertEqual(try figure(salon, "assignments"), .integer(0), "\(path)")
        XCTAssertEqual(try figure(salon, "loans"), .integer(0), "\(path)")
        // The event scope (a database of many events) reads the same.
        let asOf = try XCTUnwrap(Timestamp(FleetAnalysisTestCase.afterEvent))
        XCTAssertEqual(try FleetRows.load(try db(), eventId: "salon2016", asOf: asOf, scope: .event).count, 0)
        let moved = try FleetRows.load(try db(), eventId: "expo2016", asOf: asOf, scope: .event)
        XCTAssertEqual(moved.count, 1)
        XCTAssertEqual(moved.row(at: 0).checkIn?.id, "i1", "\(path)")
        XCTAssertEqual(try FleetScopes.scopes(try db()).map(\.count), [1, 0], "\(path)")
    }

    /// One file holding the assignment twice, first in salon2016 then in expo2016: the second
    /// takes the first's records along (the file's transaction knows what it wrote).
    func testAssignmentTwiceInOneFileEndsInTheLaterEvent() throws { try assignmentTwiceInOneFile(.recordByRecord) }

    func testAssignmentTwiceInOneFileEndsInTheLaterEventInAFileTransaction() throws {
        try assignmentTwiceInOneFile(.fileTransaction)
    }

    private func assignmentTwiceInOneFile(_ path: Path) throws {
        try importEvent()
        try secondEvent()
        try importRecords(
            .assignments,
            [
                loanAssignment(event: "salon2016", checkIn: checkIn()),
                assignment(
                    "7", plate: "MOVE1", out: "2016-10-01T10:00:00+02:00", in: "2016-10-01T11:00:00+02:00",
                    event: "expo2016"),
            ], path: path, firstSequence: 100)
        XCTAssertEqual(try placement().records, [["i1", "7", "expo2016"], ["o1", "7", "expo2016"]], "\(path)")
        XCTAssertEqual(try rows("SELECT DISTINCT event_id FROM loan_impacts"), [["expo2016"]], "\(path)")
        XCTAssertEqual(try figure(try makeReport(event: "expo2016"), "returned_loans"), .integer(1), "\(path)")
    }

    /// A record imported again (embedded, then from a file, then embedded in the moved
    /// assignment) is one row with one set of impacts, wherever its event is.
    func testRecordImportedAgainIsStoredOnce() throws { try recordImportedAgain(.recordByRecord) }

    func testRecordImportedAgainIsStoredOnceInAFileTransaction() throws { try recordImportedAgain(.fileTransaction) }

    private func recordImportedAgain(_ path: Path) throws {
        try importEvent()
        try secondEvent()
        try importRecords(.assignments, [loanAssignment(event: "salon2016")], path: path, firstSequence: 100)
        let again = checkOut().with("assignment_id", "7").with("kind", "check_out")
        try importRecords(.loanRecords, [again, again], path: path, firstSequence: 150)
        try importRecords(.assignments, [loanAssignment(event: "expo2016")], path: path, firstSequence: 300)
        try importRecords(.loanRecords, [again], path: path, firstSequence: 400)
        XCTAssertEqual(try placement().records, [["o1", "7", "expo2016"]], "\(path)")
        XCTAssertEqual(try placement().impacts, [["o1", 0, "expo2016"]], "\(path)")
        XCTAssertEqual(try rows("SELECT import_seq FROM loan_records"), [[400]])
        XCTAssertEqual(try figure(try makeReport(event: "expo2016"), "loans"), .integer(1), "\(path)")
    }

    /// A database at fleet step 1 with rows (an assignment in each event, one with impacts, a
    /// record of an unknown assignment) migrated in place: every record and impact gets its
    /// assignment's event ('' for the unknown one), and both reports are those of the same records
    /// imported at step 2.
    func testStepOneDatabaseMigratesInPlaceAndReportsTheSame() throws {
        try importEvent()
        try secondEvent()
        try importAssignments([
            loanAssignment(event: "salon2016", checkIn: checkIn()),
            assignment(
                "8", plate: "OTHER", out: "2016-10-02T10:00:00+02:00", in: "2016-10-02T12:00:00+02:00",
                event: "expo2016", checkOut: record("o8", at: "2016-10-02T10:15:00+02:00", km: 5)),
        ])
        try importRecords(
            .loanRecords,
            [record("x9", at: "2016-10-02T09:00:00+02:00").with("assignment_id", "99").with("kind", "check_in")],
            firstSequence: 500)

        let old = try Database(path: try TestStore.freshLocation(in: directory, name: "step1.sqlite"))
        try Schema.migrate(old, ImportLog.migrations + [FleetSchema.version1])
        // Step 1's columns, copied from the rows the importers wrote at step 2.
        for table in FleetTestCase.tables {
            let columns = try rows(TestStore.columnsSQL, [.text(table)]).compactMap { $0.first?.string }
                .filter { !(["loan_records", "loan_impacts"].contains(table) && $0 == "event_id") }
            let list = columns.joined(separator: ", ")
            for row in try rows("SELECT \(list) FROM \(table)") {
                try old.run(
                    "INSERT INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))", row)
            }
        }
        try Schema.migrate(old, ImportLog.migrations + FleetModule.module.migrations)
        XCTAssertEqual(
            try old.rows("SELECT id, event_id FROM loan_records ORDER BY id"),
            [["i1", "salon2016"], ["o1", "salon2016"], ["o8", "expo2016"], ["x9", ""]])
        XCTAssertEqual(
            try old.rows("SELECT record_id, position, event_id FROM loan_impacts ORDER BY record_id, position"),
            [["i1", 0, "salon2016"], ["i1", 1, "salon2016"], ["o1", 0, "salon2016"]])
        XCTAssertEqual(try old.secondaryIndexes(of: "loan_records").map(\.name), ["loan_records_event_assignment"])
        for table in FleetTestCase.tables {
            XCTAssertEqual(
                try TableSnapshot.of(old, tables: [table]), try TableSnapshot.of(db(), tables: [table]), table)
        }
        let asOf = try XCTUnwrap(Timestamp(FleetAnalysisTestCase.afterEvent))
        for event in ["salon2016", "expo2016"] {
            let migrated = try FleetAnalysis.report(database: old, options: FleetOptions(eventId: event, asOf: asOf))
            let imported = try makeReport(event: event)
            XCTAssertEqual(migrated.figures, imported.figures, event)
            XCTAssertEqual(migrated.tables.map(\.name), imported.tables.map(\.name), event)
            XCTAssertEqual(migrated.tables.map(\.rows.all), imported.tables.map(\.rows.all), event)
        }
        let salon = try makeReport(event: "salon2016")
        XCTAssertEqual(try figure(salon, "returned_loans"), .integer(1))
        XCTAssertEqual(try issues(salon), [["loan_record_of_unknown_assignment", "x9"]])
        XCTAssertEqual(try figure(try makeReport(event: "expo2016"), "still_out"), .integer(1))
    }
}
