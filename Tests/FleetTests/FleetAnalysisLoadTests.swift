import JSON
import XCTest
import ReportModel
import Time
@testable import Fleet

/// The analysis reads every loan record and impact of the database and passes over those of
/// other events, of superseded records and made after as-of; the records of unknown assignments
/// are listed whether the database holds other events or not (ids not all digits sort by their
/// bytes: `r10` before `r9`).
final class FleetAnalysisLoadTests: FleetAnalysisTestCase {
    func testRecordsOfOtherEventsAndLaterRecordsArePassedOver() throws {
        try importEvent()
        try importEvent(id: "salon2017", startsOn: "2017-10-01", endsOn: "2017-10-03")
        try importAssignments([
            assignment(
                "1", plate: "AA-1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00", impacts: [("scratch", 10, 10)])),
            // Another event's loan of the same car: none of it belongs to salon2016.
            assignment(
                "2", plate: "AA-1", out: "2017-10-01T09:00:00+02:00", in: "2017-10-01T12:00:00+02:00",
                event: "salon2017",
                checkOut: record("o2", at: "2017-10-01T09:00:00+02:00", impacts: [("impact", 50, 50)]),
                checkIn: record("i2", at: "2017-10-01T11:00:00+02:00", impacts: [("impact", 300, 300)])),
        ])
        try importRecords(
            .loanRecords,
            [
                // A later check-out of assignment 1, made after the first as-of below.
                record("o3", at: "2016-10-01T10:00:00+02:00").with("assignment_id", "1").with("kind", "check_out"),
                record("r10", at: "2016-10-01T09:00:00+02:00").with("assignment_id", "404").with("kind", "check_in"),
                // Made after both as-ofs: an orphan is listed whenever it was made.
                record("r9", at: "2030-01-01T09:00:00+02:00").with("assignment_id", "404").with("kind", "check_out"),
            ], firstSequence: 200)

        let early = try makeReport(asOf: "2016-10-01T09:30:00+02:00")
        let late = try makeReport()
        for (report, out) in [(early, "2016-10-01T09:00:00+02:00"), (late, "2016-10-01T10:00:00+02:00")] {
            let loans = try rows(report, "loans")
            XCTAssertEqual(loans.map { $0["assignment_id"] }, [.text("1")])
            if case .timestamp(let outAt)? = loans.first?["out_at"] {
                XCTAssertEqual(outAt, Timestamp(out))
            } else {
                XCTFail("out_at")
            }
            XCTAssertEqual(try figure(report, "vehicles"), .integer(1))
            XCTAssertEqual(try figure(report, "between_loans_damage"), .integer(0))
            XCTAssertEqual(try rows(report, "damage").count, 0)
            let orphans = try rows(report, "quality").filter {
                $0["issue"] == .text("loan_record_of_unknown_assignment")
            }
            XCTAssertEqual(orphans.map { $0["record"] }, [.text("r10"), .text("r9")])
        }
    }

    /// A database of several shows: the event's rows read through the indexes (`Scope.event`, what
    /// a report of a small event among many uses) are those the whole-table scans keep, in the
    /// same order, with the same attached records and impacts.
    func testTheEventsRowsThroughTheIndexesAreThoseOfTheWholeTableScans() throws {
        try importEvent()
        try importEvent(id: "salon2017", startsOn: "2017-10-01", endsOn: "2017-10-03")
        var assignments: [JSONValue] = []
        for number in 1...12 {
            let event = number <= 3 ? "salon2016" : "salon2017"
            let day = event == "salon2016" ? "2016-10-01" : "2017-10-01"
            assignments.append(
                assignment(
                    "\(number)", plate: "AA-\(number % 4)", out: "\(day)T0\(number % 5 + 1):00:00+02:00",
                    in: "\(day)T1\(number % 5):00:00+02:00", event: event,
                    checkOut: record(
                        "o\(number)", at: "\(day)T0\(number % 5 + 1):05:00+02:00", impacts: [("scratch", 10, 10)]),
                    checkIn: number % 3 == 0
                        ? nil
                        : record(
                            "i\(number)", at: "\(day)T1\(number % 5):05:00+02:00",
                            impacts: [
                                ("impact", Double(number), 20), ("scratch", 30, Double(number)),
                            ])))
        }
        try importAssignments(assignments)
        // A second check-out of assignment 2, imported later: the latest wins on both paths.
        try importRecords(
            .loanRecords,
            [record("o2b", at: "2016-10-01T03:10:00+02:00").with("assignment_id", "2").with("kind", "check_out")],
            firstSequence: 500)
        XCTAssertEqual(FleetQueries.Scope.choose(eventAssignments: 3, allAssignments: 12), .event)
        XCTAssertEqual(FleetQueries.Scope.choose(eventAssignments: 9, allAssignments: 12), .wholeTables)
        func dump(_ rows: FleetRows) -> [String] {
            rows.order.map { index in
                let row = rows.row(at: Int(index))
                let checkOut = rows.impacts.impacts(of: Int(index), .checkOut)
                return "\(row) \(checkOut) \(rows.impacts.impacts(of: Int(index), .checkIn))"
            }
        }
        for event in ["salon2016", "salon2017"] {
            let asOf = try XCTUnwrap(Timestamp("2018-01-01T00:00:00+01:00"))
            let whole = try FleetRows.load(try db(), eventId: event, asOf: asOf, scope: .wholeTables)
            let indexed = try FleetRows.load(try db(), eventId: event, asOf: asOf, scope: .event)
            XCTAssertEqual(whole.count, event == "salon2016" ? 3 : 9)
            XCTAssertEqual(dump(indexed), dump(whole), event)
            XCTAssertFalse(dump(whole).joined().isEmpty)
        }
    }

    /// With one event in the database, the records scan finds the orphans itself.
    func testOrphansFoundByTheScanWhenTheEventHoldsEveryAssignment() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "AA-1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00"))
        ])
        try importRecords(
            .loanRecords,
            [
                record("r10", at: "2016-10-01T09:00:00+02:00").with("assignment_id", "404").with("kind", "check_in"),
                record("r9", at: "2030-01-01T09:00:00+02:00").with("assignment_id", "405").with("kind", "check_out"),
            ], firstSequence: 200)
        let quality = try rows(try makeReport(asOf: "2016-10-01T09:30:00+02:00"), "quality").filter {
            $0["issue"] == .text("loan_record_of_unknown_assignment")
        }
        XCTAssertEqual(quality.map { $0["record"] }, [.text("r10"), .text("r9")])
        XCTAssertEqual(
            quality.map { $0["detail"] },
            [
                .text("check_in of assignment \"404\", which no assignments file holds"),
                .text("check_out of assignment \"405\", which no assignments file holds"),
            ])
    }
}
