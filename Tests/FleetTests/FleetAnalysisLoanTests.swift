import XCTest
import JSON
import Time
@testable import Fleet

/// Loans, statuses, no-shows, late returns, km and record checks (SPEC §5).
final class FleetAnalysisLoanTests: FleetAnalysisTestCase {
    /// A no-show is past planned_time_out + grace at as-of with neither record; exactly at the
    /// grace boundary, or before it, it is not one yet.
    func testNoShowAfterGraceAndNotYetBefore() throws {
        try importEvent()
        try importAssignments([
            // 09:30 + 15 min = 09:45, before the 10:00 as-of: a no-show.
            assignment("1", plate: "NS1", out: "2016-10-01T09:30:00+02:00", in: "2016-10-01T12:00:00+02:00"),
            // 09:45 + 15 min = 10:00: not before as-of.
            assignment("2", plate: "NS2", out: "2016-10-01T09:45:00+02:00", in: "2016-10-01T12:00:00+02:00"),
            // 09:50 + 15 min = 10:05: not yet.
            assignment("3", plate: "NS3", out: "2016-10-01T09:50:00+02:00", in: "2016-10-01T12:00:00+02:00"),
        ])
        let report = try makeReport(asOf: "2016-10-01T10:00:00+02:00")
        XCTAssertEqual(try figure(report, "no_shows"), .integer(1))
        XCTAssertEqual(try figure(report, "loans"), .integer(0))
        // No-shows are vehicles of the event all the same.
        XCTAssertEqual(try figure(report, "vehicles"), .integer(3))
        let loans = try rows(report, "loans")
        XCTAssertEqual(loans.map { $0["status"] }, [.text("in"), .text("in"), .text("in")])
        XCTAssertEqual(loans[0]["hours"], .empty)
        XCTAssertEqual(loans[0]["out_at"], .empty)
        XCTAssertEqual(loans[0]["km"], .empty)
        XCTAssertEqual(loans[0]["signed_out"], .boolean(false))
        // With a 30-minute grace nobody is a no-show at 10:00 (09:30 + 30 = 10:00, not before).
        XCTAssertEqual(
            try figure(try makeReport(asOf: "2016-10-01T10:00:00+02:00", graceMinutes: 30), "no_shows"), .integer(0))
    }

    /// Late means checked in MORE than grace after planned_time_in; late_minutes rounds half up.
    func testLateReturnsAtTheGraceBoundaryAndAfter() throws {
        try importEvent()
        func loan(_ id: String, returnedAt: String) -> JSONValue {
            assignment(
                id, plate: "LATE\(id)", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                driver: "d1",
                checkOut: record("o\(id)", at: "2016-10-01T09:00:00+02:00"), checkIn: record("i\(id)", at: returnedAt))
        }
        try importRecords(.drivers, [["id": "d1", "name": "Camille Martin"]])
        try importAssignments([
            loan("1", returnedAt: "2016-10-01T12:15:00+02:00"),  // exactly 15 min: on time
            loan("2", returnedAt: "2016-10-01T12:16:00+02:00"),  // 16 min: late, 16
            loan("3", returnedAt: "2016-10-01T12:20:30+02:00"),  // 20.5 min: late, rounds up to 21
            loan("4", returnedAt: "2016-10-01T12:20:29+02:00"),  // 20.48 min: late, 20
            assignment(
                "5", plate: "LATE5", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T10:00:00+02:00",
                checkOut: record("o5", at: "2016-10-01T09:00:00+02:00")),  // still out: never late
        ])
        let report = try makeReport()
        let loans = try rows(report, "loans")
        // Whole minutes (rounded half up), an integer column: `297`, never `297.00`.
        XCTAssertEqual(
            loans.map { $0["late_minutes"] }, [.integer(0), .integer(16), .integer(21), .integer(20), .empty])
        XCTAssertEqual(try figure(report, "late_returns"), .integer(3))
        // 3 late of 4 checked-in loans.
        assertNumber(try figure(report, "late_rate"), 0.75)
        XCTAssertEqual(
            try rows(report, "vehicles").map { $0["late_returns"] },
            [.integer(0), .integer(1), .integer(1), .integer(1), .integer(0)])
        XCTAssertEqual(try rows(report, "drivers").first?["late_returns"], .integer(3))
        // The most late returns, most minutes first, on-time ones left out.
        XCTAssertEqual(
            try rows(report, "most_late_returns").map { $0["assignment_id"] }, [.text("3"), .text("4"), .text("2")])
        // Grace 0: the 12:15 return is late by 15 minutes.
        XCTAssertEqual(try rows(try makeReport(graceMinutes: 0), "loans").first?["late_minutes"], .integer(15))
    }

    /// A cancelled assignment is no vehicle (unless the plate has another assignment) and no loan row.
    func testCancelledAssignmentIsNeitherVehicleNorLoan() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "CAN1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00", cancelled: true,
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00")),
            assignment(
                "2", plate: "CAN2", out: "2016-10-02T09:00:00+02:00", in: "2016-10-02T12:00:00+02:00",
                brand: "Ferrari", model: "488", cancelled: true),
            assignment(
                "3", plate: "can-2", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                brand: "Peugeot", model: "208"),
        ])
        let report = try makeReport()
        XCTAssertEqual(try figure(report, "assignments"), .integer(3))
        XCTAssertEqual(try figure(report, "cancelled_assignments"), .integer(2))
        XCTAssertEqual(try figure(report, "vehicles"), .integer(1))
        XCTAssertEqual(try figure(report, "loans"), .integer(0))
        XCTAssertEqual(try figure(report, "no_shows"), .integer(1))
        // The later assignment by planned time is cancelled, so the brand is the 208's.
        let vehicles = try rows(report, "vehicles")
        XCTAssertEqual(vehicles.map { $0["plate"] }, [.text("CAN2")])
        XCTAssertEqual(vehicles.first?["brand"], .text("Peugeot"))
        XCTAssertEqual(vehicles.first?["model"], .text("208"))
        XCTAssertEqual(try rows(report, "loans").map { $0["assignment_id"] }, [.text("3")])
        // 1 vehicle × 3 days × 10 h.
        assertNumber(try figure(report, "available_hours"), 30)
    }

    /// A check-in without a check-out is `done`, but no loan and no no-show: a data-quality issue.
    func testCheckInWithoutCheckOutIsDoneButNoLoan() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "7", plate: "CI1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkIn: record("i7", at: "2016-10-01T12:00:00+02:00"))
        ])
        let report = try makeReport()
        let loan = try XCTUnwrap(rows(report, "loans").first)
        XCTAssertEqual(loan["status"], .text("done"))
        XCTAssertEqual(loan["hours"], .empty)
        XCTAssertEqual(loan["late_minutes"], .empty)
        XCTAssertEqual(loan["signed_in"], .boolean(true))
        XCTAssertEqual(try figure(report, "loans"), .integer(0))
        XCTAssertEqual(try figure(report, "returned_loans"), .integer(0))
        XCTAssertEqual(try figure(report, "no_shows"), .integer(0))
        XCTAssertEqual(try figure(report, "hours_out"), .number(0))
        XCTAssertEqual(try issues(report), [["check_in_without_check_out", "7"]])
    }

    /// km is check-in minus check-out mileage: negative is empty and an issue; 0 is a valid km,
    /// so impacts per 1,000 km over 0 km is empty.
    func testNegativeKmIsEmptyAndAnIssue() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "KM1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00", km: 1000, oil: 4, interior: 3, exterior: 2),
                checkIn: record(
                    "i1", at: "2016-10-01T12:00:00+02:00", km: 900, oil: 3, interior: 3, exterior: 4,
                    impacts: [("impact", 10, 10)])),
            assignment(
                "2", plate: "KM2", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o2", at: "2016-10-01T09:00:00+02:00", km: 500),
                checkIn: record("i2", at: "2016-10-01T12:00:00+02:00", km: 500, impacts: [("scratch", 10, 10)])),
            assignment(
                "3", plate: "KM3", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o3", at: "2016-10-01T09:00:00+02:00"),
                checkIn: record("i3", at: "2016-10-01T12:00:00+02:00", km: 800)),
        ])
        let report = try makeReport()
        let loans = try rows(report, "loans")
        XCTAssertEqual(loans.map { $0["km"] }, [.empty, .number(0), .empty])
        // Deltas are check-in − check-out: oil 3 − 4, interior 3 − 3, exterior 4 − 2.
        XCTAssertEqual(loans[0]["oil_delta"], .integer(-1))
        XCTAssertEqual(loans[0]["interior_delta"], .integer(0))
        XCTAssertEqual(loans[0]["exterior_delta"], .integer(2))
        XCTAssertEqual(try issues(report), [["negative_km", "1"]])
        XCTAssertEqual(try figure(report, "km"), .number(0))
        // Loan 2 has a valid km of 0 and 1 new impact: 1 / 0 × 1000 is empty.
        XCTAssertEqual(try figure(report, "impacts_per_1000_km"), .empty)
        XCTAssertEqual(try figure(report, "new_impacts"), .integer(2))
    }

    /// A signature needs a stroke of ≥ 2 points; a point off the 400 × 400 pad is an issue too.
    func testMissingAndOutOfBoxSignatures() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "SIG1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00", signature: [[[10, 10]]]),
                checkIn: record("i1", at: "2016-10-01T12:00:00+02:00", signature: [[[10, 10], [450, 20]]])),
            assignment(
                "2", plate: "SIG2", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o2", at: "2016-10-01T09:00:00+02:00", signature: nil)),
        ])
        let report = try makeReport()
        let loans = try rows(report, "loans")
        XCTAssertEqual(loans.map { $0["signed_out"] }, [.boolean(false), .boolean(false)])
        // Loan 2 has no check-in: signed_in is false without the record, and that is no issue.
        XCTAssertEqual(loans.map { $0["signed_in"] }, [.boolean(true), .boolean(false)])
        XCTAssertEqual(
            try issues(report),
            [
                ["signature_missing", "1"], ["signature_missing", "2"], ["signature_out_of_box", "1"],
            ])
        let details = try rows(report, "quality").map { $0["detail"] }
        XCTAssertEqual(details.first, .text("check_out record o1 has no signature"))
    }

    /// The latest record of a kind wins, by recorded_at then import order.
    func testLatestRecordOfAKindIsAttached() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "REC1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00", km: 100))
        ])
        // A second check-out, later, from a loan_records file; and a check-in whose twin with the
        // same recorded_at was imported later and so replaces it as the attached one.
        try importRecords(
            .loanRecords,
            [
                record("o2", at: "2016-10-01T10:00:00+02:00", km: 110).with("assignment_id", "1").with(
                    "kind", "check_out"),
                record("i1", at: "2016-10-01T13:00:00+02:00", km: 150).with("assignment_id", "1").with(
                    "kind", "check_in"),
                record("i2", at: "2016-10-01T13:00:00+02:00", km: 160).with("assignment_id", "1").with(
                    "kind", "check_in"),
            ], firstSequence: 200)
        let loan = try XCTUnwrap(rows(try makeReport(), "loans").first)
        if case .timestamp(let out)? = loan["out_at"] {
            XCTAssertEqual(out, Timestamp("2016-10-01T10:00:00+02:00"))
        } else {
            XCTFail("out_at")
        }
        // 160 − 110.
        XCTAssertEqual(loan["km"], .number(50))
        // 10:00 → 13:00.
        assertNumber(loan["hours"], 3)
    }
}
