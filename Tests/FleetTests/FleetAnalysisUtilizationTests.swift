import XCTest
import Time
@testable import Fleet

/// Utilization: the union of a car's loan intervals clipped to the opening windows (SPEC §5).
final class FleetAnalysisUtilizationTests: FleetAnalysisTestCase {
    /// A loan from 18:00 to 10:00 next day with a 09:00–19:00 window adds 1 h to day 1 and 1 h to day 2.
    func testOvernightLoanCountsInBothDaysWindows() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "AA-111-AA", out: "2016-10-01T18:00:00+02:00", in: "2016-10-02T10:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T18:00:00+02:00"),
                checkIn: record("i1", at: "2016-10-02T10:00:00+02:00"))
        ])
        let report = try makeReport()
        let daily = try rows(report, "daily")
        XCTAssertEqual(daily.count, 3)  // 3 days × 1 group (none)
        // Day 1: 18:00–19:00 = 1 h; day 2: 09:00–10:00 = 1 h; day 3: nothing.
        assertNumber(daily[0]["hours_out"], 1)
        assertNumber(daily[1]["hours_out"], 1)
        assertNumber(daily[2]["hours_out"], 0)
        // Each day: 1 vehicle × 10 h; utilization 1 / 10.
        assertNumber(daily[0]["available_hours"], 10)
        assertNumber(daily[0]["utilization"], 0.1)
        XCTAssertEqual(daily[0]["check_outs"], .integer(1))
        XCTAssertEqual(daily[0]["check_ins"], .integer(0))
        XCTAssertEqual(daily[1]["check_outs"], .integer(0))
        XCTAssertEqual(daily[1]["check_ins"], .integer(1))
        XCTAssertEqual(daily[0]["group"], .empty)
        // Fleet: 2 h out of 3 × 10 h; the loan itself lasted 16 h (18:00 → 10:00).
        assertNumber(try figure(report, "hours_out"), 2)
        assertNumber(try figure(report, "available_hours"), 30)
        assertNumber(try figure(report, "utilization"), 2.0 / 30.0)
        assertNumber(try figure(report, "loan_hours"), 16)
        let utilization = try rows(report, "daily_utilization")
        XCTAssertEqual(
            utilization.map { $0["day"] },
            [.day(Day("2016-10-01")!), .day(Day("2016-10-02")!), .day(Day("2016-10-03")!)])
        assertNumber(utilization[1]["utilization"], 0.1)
    }

    /// 2016-10-30 in Europe/Paris has 25 hours: a loan from 18:00 on the 29th to 18:00 on the 30th
    /// lasts 25 h, and a 01:00–05:00 window on the 30th lasts 5 h (02:00–03:00 happens twice).
    func testLoanAcrossDaylightSavingChangeHasItsTrueLength() throws {
        try importEvent(
            id: "dst2016", startsOn: "2016-10-29", endsOn: "2016-10-30", opensAt: "01:00", closesAt: "05:00")
        try importAssignments([
            assignment(
                "1", plate: "DST1", out: "2016-10-29T18:00:00+02:00", in: "2016-10-30T18:00:00+01:00",
                event: "dst2016",
                checkOut: record("o1", at: "2016-10-29T18:00:00+02:00"),
                checkIn: record("i1", at: "2016-10-30T18:00:00+01:00"))
        ])
        let report = try makeReport(asOf: "2016-11-01T00:00:00+01:00", event: "dst2016")
        // 16:00Z → 17:00Z next day = 25 h.
        let loan = try XCTUnwrap(rows(report, "loans").first)
        assertNumber(loan["hours"], 25)
        // Windows: the 29th 01:00–05:00 CEST = 4 h; the 30th 01:00 CEST (23:00Z) – 05:00 CET (04:00Z) = 5 h.
        let daily = try rows(report, "daily")
        assertNumber(daily[0]["available_hours"], 4)
        assertNumber(daily[1]["available_hours"], 5)
        // Out from 18:00 on the 29th: nothing of that day's window; all 5 h of the 30th's.
        assertNumber(daily[0]["hours_out"], 0)
        assertNumber(daily[1]["hours_out"], 5)
        assertNumber(try figure(report, "utilization"), 5.0 / 9.0)
        // Shown in the event's zone: the check-in carries +01:00, the check-out +02:00.
        if case .timestamp(let inAt)? = loan["in_at"] {
            XCTAssertEqual(inAt.offsetSeconds, 3600)
        } else {
            XCTFail("in_at")
        }
        if case .timestamp(let outAt)? = loan["out_at"] {
            XCTAssertEqual(outAt.offsetSeconds, 7200)
        } else {
            XCTFail("out_at")
        }
    }

    /// Two overlapping loans of one car count their union once and are reported as one pair; a
    /// loan that starts exactly when another ends does not overlap it (half-open intervals).
    func testOverlappingLoansCountTheirUnionAndArePairedOnce() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "OV1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00"),
                checkIn: record("i1", at: "2016-10-01T12:00:00+02:00")),
            assignment(
                "2", plate: "OV1", out: "2016-10-01T11:00:00+02:00", in: "2016-10-01T14:00:00+02:00",
                checkOut: record("o2", at: "2016-10-01T11:00:00+02:00"),
                checkIn: record("i2", at: "2016-10-01T14:00:00+02:00")),
            assignment(
                "3", plate: "OV1", out: "2016-10-01T14:00:00+02:00", in: "2016-10-01T15:00:00+02:00",
                checkOut: record("o3", at: "2016-10-01T14:00:00+02:00"),
                checkIn: record("i3", at: "2016-10-01T15:00:00+02:00")),
        ])
        let report = try makeReport()
        // Union of 09–12, 11–14, 14–15 = 09–15 = 6 h; the loans themselves sum 3 + 3 + 1 = 7 h.
        assertNumber(try figure(report, "hours_out"), 6)
        assertNumber(try figure(report, "loan_hours"), 7)
        let vehicle = try XCTUnwrap(rows(report, "vehicles").first)
        assertNumber(vehicle["hours_out"], 6)
        XCTAssertEqual(vehicle["loans"], .integer(3))
        // 6 h of 30 h available.
        assertNumber(vehicle["utilization"], 0.2)
        XCTAssertEqual(try figure(report, "overlapping_pairs"), .integer(1))
        XCTAssertEqual(try issues(report), [["overlapping_loans", "1, 2"]])
    }

    /// A car still out at as-of counts until as-of; a car still out after the event's end counts
    /// until the close of the last day, and one checked out after that close counts nothing.
    func testCarsStillOutEndAtAsOfOrAtTheLastClose() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "OUT1", out: "2016-10-01T10:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T10:00:00+02:00")),
            assignment(
                "2", plate: "OUT2", out: "2016-10-03T17:00:00+02:00", in: "2016-10-03T18:00:00+02:00",
                checkOut: record("o2", at: "2016-10-03T17:00:00+02:00")),
            assignment(
                "3", plate: "OUT3", out: "2016-10-03T20:00:00+02:00", in: "2016-10-03T21:00:00+02:00",
                checkOut: record("o3", at: "2016-10-03T20:00:00+02:00")),
        ])
        // As-of during day 2: car 1 is out from 10-01 10:00 to as-of 10-02 12:00 = 26 h; the
        // windows give it day 1 10:00–19:00 = 9 h and day 2 09:00–12:00 = 3 h.
        let during = try makeReport(asOf: "2016-10-02T12:00:00+02:00")
        let duringLoans = try rows(during, "loans")
        XCTAssertEqual(duringLoans[0]["status"], .text("out"))
        assertNumber(duringLoans[0]["hours"], 26)
        XCTAssertEqual(duringLoans[0]["in_at"], .empty)
        XCTAssertEqual(duringLoans[0]["late_minutes"], .empty)
        XCTAssertEqual(duringLoans[0]["new_impacts"], .empty)
        assertNumber(try rows(during, "vehicles")[0]["hours_out"], 12)
        // Cars 2 and 3 are not checked out yet at that as-of (their records come later).
        XCTAssertEqual(duringLoans[1]["status"], .text("in"))
        XCTAssertEqual(try figure(during, "still_out"), .integer(1))

        // After the event: car 1 ends at the last close (10-03 19:00): 10-01 10:00 → 10-03 19:00
        // = 57 h; car 2 17:00 → 19:00 = 2 h; car 3 out at 20:00, after the close: 0 h.
        let after = try makeReport()
        let loans = try rows(after, "loans")
        assertNumber(loans[0]["hours"], 57)
        assertNumber(loans[1]["hours"], 2)
        assertNumber(loans[2]["hours"], 0)
        XCTAssertEqual(loans.map { $0["status"] }, [.text("out"), .text("out"), .text("out")])
        XCTAssertEqual(try figure(after, "still_out"), .integer(3))
        XCTAssertEqual(try figure(after, "late_returns"), .integer(0))
        // Hours out: car 1 = 9 + 10 + 10 = 29 h, car 2 = 2 h, car 3 = 0.
        let vehicles = try rows(after, "vehicles")
        assertNumber(vehicles[0]["hours_out"], 29)
        assertNumber(vehicles[1]["hours_out"], 2)
        assertNumber(vehicles[2]["hours_out"], 0)
        assertNumber(try figure(after, "loan_hours"), 59)
    }

    /// An as-of in the middle of the event: later windows have length 0 (empty utilization), today's
    /// is partial, and a check-in recorded after as-of is not known yet.
    func testAsOfInTheMiddleOfTheEventCutsTheWindows() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "MID1", out: "2016-10-02T10:00:00+02:00", in: "2016-10-02T11:00:00+02:00",
                checkOut: record("o1", at: "2016-10-02T10:00:00+02:00"),
                checkIn: record("i1", at: "2016-10-02T11:00:00+02:00")),
            assignment(
                "2", plate: "MID2", out: "2016-10-02T11:00:00+02:00", in: "2016-10-02T15:00:00+02:00",
                checkOut: record("o2", at: "2016-10-02T11:00:00+02:00"),
                checkIn: record("i2", at: "2016-10-02T15:00:00+02:00")),
        ])
        let report = try makeReport(asOf: "2016-10-02T12:30:00+02:00")
        // Windows per car: 10 h + 09:00–12:30 = 3.5 h + 0 h = 13.5 h; 2 cars = 27 h.
        let daily = try rows(report, "daily")
        assertNumber(daily[0]["available_hours"], 20)
        assertNumber(daily[1]["available_hours"], 7)
        assertNumber(daily[2]["available_hours"], 0)
        XCTAssertEqual(daily[2]["utilization"], .empty)
        assertNumber(try figure(report, "available_hours"), 27)
        // Car 1: 1 h. Car 2: the 15:00 check-in is after as-of, so it is still out: 11:00–12:30 = 1.5 h.
        let loans = try rows(report, "loans")
        XCTAssertEqual(loans[1]["status"], .text("out"))
        assertNumber(loans[1]["hours"], 1.5)
        assertNumber(try figure(report, "hours_out"), 2.5)
        // Day 2: 2.5 h out of 7 h.
        assertNumber(daily[1]["utilization"], 2.5 / 7)
        XCTAssertEqual(try figure(report, "returned_loans"), .integer(1))
        XCTAssertEqual(try rows(report, "daily_utilization")[2]["utilization"], .empty)
        XCTAssertFalse(report.notes.isEmpty)
    }

    /// An event with no assignments at all is a valid report: zeros, empty ratios, headers only.
    func testEventWithNoLoansGivesZerosAndEmptyRatios() throws {
        try importEvent()
        let report = try makeReport()
        for metric in [
            "vehicles", "assignments", "loans", "returned_loans", "still_out", "no_shows", "new_impacts",
            "late_returns", "between_loans_damage", "overlapping_pairs",
        ] {
            XCTAssertEqual(try figure(report, metric), .integer(0), metric)
        }
        for metric in ["available_hours", "hours_out", "loan_hours", "km"] {
            XCTAssertEqual(try figure(report, metric), .number(0), metric)
        }
        for metric in ["utilization", "late_rate", "damage_rate", "impacts_per_1000_km"] {
            XCTAssertEqual(try figure(report, metric), .empty, metric)
        }
        for table in ["vehicles", "daily", "loans", "damage", "drivers", "quality", "most_used_cars"] {
            XCTAssertEqual(try rows(report, table).count, 0, table)
        }
        // The chart tables still list every day and every type, with nothing in them.
        XCTAssertEqual(try rows(report, "daily_utilization").map { $0["utilization"] }, [.empty, .empty, .empty])
        XCTAssertEqual(
            try rows(report, "damage_by_type").map { $0["new_impacts"] }, Array(repeating: .integer(0), count: 4))
        XCTAssertEqual(report.heatMap?.cells, Array(repeating: Array(repeating: 0, count: 4), count: 4))
    }
}
