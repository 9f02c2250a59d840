import XCTest
import JSON
@testable import Fleet

final class AssignmentImportTests: FleetTestCase {
    func testValidAssignmentIsStoredWithPlateKeyAndInstants() throws {
        try importRecords(.assignments, [Sample.assignment], firstSequence: 11)
        XCTAssertEqual(
            try rows(
                """
                SELECT id, event_id, group_id, driver_id, brand_name, model_name, license_plate_number, plate,
                       planned_time_out_us, planned_time_out_offset, planned_time_in_us, planned_time_in_offset,
                       cancelled, import_seq
                FROM assignments
                """),
            [
                [
                    "501", "salon2016", "press", "77", "Peugeot", "3008", "ab-123 cd", "AB123CD",
                    1_475_307_000_000_000, 7200, 1_475_316_000_000_000, 7200, 0, 11,
                ]
            ])
    }

    func testEmbeddedRecordsTakeAssignmentKindAndSequenceFromWhereTheySit() throws {
        // An embedded record's own assignment_id and kind, if the export adds them, are ignored.
        let checkIn = Sample.minimalLoanRecord.with("assignment_id", "999").with("kind", "check_out")
        try importRecords(.assignments, [Sample.assignment.with("check_in_record", checkIn)], firstSequence: 11)
        XCTAssertEqual(
            try rows("SELECT id, assignment_id, kind, import_seq FROM loan_records ORDER BY id"),
            [["r1", "501", "check_out", 11], ["r2", "501", "check_in", 11]])
        XCTAssertEqual(
            try rows("SELECT record_id, position, type, x, y FROM loan_impacts ORDER BY record_id, position"),
            [["r1", 0, "scratch", .real(100), .real(250.5)], ["r1", 1, "impact", .real(0), .real(400)]])
    }

    func testOptionalFieldsMayBeAbsentOrNull() throws {
        let bare = Sample.assignment.without("group_id").with("driver_id", nil as JSONValue).without("model_name")
            .with("cancelled", nil as JSONValue).without("check_out_record").with("check_in_record", nil as JSONValue)
        try importRecords(.assignments, [bare])
        XCTAssertEqual(
            try rows("SELECT group_id, driver_id, model_name, cancelled FROM assignments"), [[.null, .null, .null, 0]])
        XCTAssertEqual(try count("loan_records"), 0)
    }

    func testCancelledAndPlannedInBeforeOutAreStoredAsGiven() throws {
        let record = Sample.assignment.with("cancelled", true)
            .with("planned_time_in", "2016-10-01T18:05:00Z").with("planned_time_out", "2016-10-02T10:00:00-04:30")
        try importRecords(.assignments, [record])
        XCTAssertEqual(
            try rows(
                "SELECT cancelled, planned_time_out_us, planned_time_out_offset, planned_time_in_us, "
                    + "planned_time_in_offset FROM assignments"
            ),
            [[1, 1_475_418_600_000_000, -16200, 1_475_345_100_000_000, 0]])
    }

    func testSameAssignmentTwiceIsOneRowAndIntegerIdMatchesText() throws {
        try importRecords(.assignments, [Sample.assignment, Sample.assignment.with("id", "501")])
        XCTAssertEqual(try count("assignments"), 1)
        XCTAssertEqual(try count("loan_records"), 2)
        XCTAssertEqual(try count("loan_impacts"), 2)
        XCTAssertEqual(try rows("SELECT id, import_seq FROM assignments"), [["501", 2]])
    }

    func testLaterAssignmentReplacesEarlierWholeButKeepsRecordsOfOtherIds() throws {
        let later = Sample.assignment.with("id", "501").without("model_name").without("group_id")
            .with("license_plate_number", "XY 987 ZT")
            .with("check_out_record", Sample.loanRecord(id: "r3").with("impacts", nil as JSONValue))
            .without("check_in_record")
        try importRecords(.assignments, [Sample.assignment, later])
        XCTAssertEqual(
            try rows("SELECT model_name, group_id, license_plate_number, plate FROM assignments"),
            [[.null, .null, "XY 987 ZT", "XY987ZT"]])
        XCTAssertEqual(
            try rows("SELECT id, kind, import_seq FROM loan_records ORDER BY id"),
            [["r1", "check_out", 1], ["r2", "check_in", 1], ["r3", "check_out", 2]])
        XCTAssertEqual(
            try rows("SELECT record_id, position FROM loan_impacts ORDER BY record_id, position"),
            [["r1", 0], ["r1", 1]])
    }

    func testRequiredFields() throws {
        try assertRejected(.assignments, Sample.assignment.without("id"), "field id: missing (required)")
        try assertRejected(.assignments, Sample.assignment.without("event_id"), "field event_id: missing (required)")
        try assertRejected(
            .assignments, Sample.assignment.with("brand_name", nil as JSONValue),
            "field brand_name: missing (required) null")
        try assertRejected(
            .assignments, Sample.assignment.without("license_plate_number"),
            "field license_plate_number: missing (required)")
        try assertRejected(
            .assignments, Sample.assignment.without("planned_time_out"), "field planned_time_out: missing (required)")
        try assertRejected(
            .assignments, Sample.assignment.with("planned_time_in", nil as JSONValue),
            "field planned_time_in: missing (required) null")
    }

    func testInvalidValues() throws {
        try assertRejected(
            .assignments, Sample.assignment.with("group_id", ""),
            #"field group_id: invalid id (a non-empty string or an integer) """#)
        try assertRejected(
            .assignments, Sample.assignment.with("driver_id", .number(77.0, literal: "77.0")),
            "field driver_id: invalid id (a non-empty string or an integer) 77.0")
        try assertRejected(
            .assignments, Sample.assignment.with("model_name", 3008), "field model_name: must be a string 3008")
        try assertRejected(
            .assignments, Sample.assignment.with("license_plate_number", 123),
            "field license_plate_number: must be a string 123")
        try assertRejected(
            .assignments, Sample.assignment.with("planned_time_out", "2016-10-01 09:30:00+02:00"),
            (#"field planned_time_out: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) "#
                + #""2016-10-01 09:30:00+02:00""#)
        )
        try assertRejected(
            .assignments, Sample.assignment.with("planned_time_in", "2016-10-01T12:00:00+0200"),
            (#"field planned_time_in: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) "#
                + #""2016-10-01T12:00:00+0200""#)
        )
        try assertRejected(
            .assignments, Sample.assignment.with("cancelled", "yes"), #"field cancelled: must be true or false "yes""#)
        try assertRejected(
            .assignments, Sample.assignment.with("cancelled", 0), "field cancelled: must be true or false 0")
    }

    func testPlateOfOnlySpacesAndDashesIsRejected() throws {
        try assertRejected(
            .assignments, Sample.assignment.with("license_plate_number", " - -"),
            #"field license_plate_number: must hold a plate (empty without spaces and dashes) " - -""#)
        try assertRejected(
            .assignments, Sample.assignment.with("license_plate_number", ""),
            #"field license_plate_number: must hold a plate (empty without spaces and dashes) """#)
    }

    func testInvalidEmbeddedRecordRejectsTheWholeAssignment() throws {
        var impacts: JSONValue = [
            ["type": "scratch", "x": 1, "y": 1], ["type": "impact", "x": 2, "y": 2],
            ["type": "sinking", "x": 400.5, "y": 3],
        ]
        try assertRejected(
            .assignments, Sample.assignment.with("check_in_record", Sample.minimalLoanRecord.with("impacts", impacts)),
            "field check_in_record.impacts[2].x: must be a number from 0 to 400 400.5")
        impacts = [["type": "dent", "x": 1, "y": 1]]
        try assertRejected(
            .assignments, Sample.assignment.with("check_out_record", Sample.loanRecord().with("impacts", impacts)),
            #"field check_out_record.impacts[0].type: must be one of sinking, impact, scratch, deepscratch "dent""#)
        try assertRejected(
            .assignments, Sample.assignment.with("check_out_record", Sample.loanRecord().with("oil_level", 5)),
            "field check_out_record.oil_level: must be an integer from 0 to 4 5")
        try assertRejected(
            .assignments, Sample.assignment.with("check_in_record", Sample.minimalLoanRecord.without("recorded_at")),
            "field check_in_record.recorded_at: missing (required)")
        try assertRejected(
            .assignments,
            Sample.assignment.with("check_in_record", Sample.minimalLoanRecord.with("signature", [[[1, "2"]]])),
            #"field check_in_record.signature[0][0]: must be a point [x, y] of two numbers [1,"2"]"#)
        try assertRejected(
            .assignments, Sample.assignment.with("check_out_record", "r1"),
            #"field check_out_record: must be an object "r1""#)
    }

    func testInvalidEmbeddedRecordLeavesEarlierVersionsUntouched() throws {
        try importRecords(.assignments, [Sample.assignment])
        let broken = Sample.assignment.with("brand_name", "Renault")
            .with(
                "check_out_record",
                Sample.loanRecord().with("impacts", nil as JSONValue).with("exterior_cleanliness", -1))
        try assertRejected(
            .assignments, broken, "field check_out_record.exterior_cleanliness: must be an integer from 0 to 4 -1")
        XCTAssertEqual(try rows("SELECT brand_name FROM assignments"), [["Peugeot"]])
        XCTAssertEqual(try count("loan_impacts"), 2)
    }

    func testBothSidesWithOneIdAreRejected() throws {
        try assertRejected(
            .assignments, Sample.assignment.with("check_in_record", Sample.minimalLoanRecord.with("id", "r1")),
            #"field check_in_record.id: must differ from check_out_record.id "r1""#)
        try assertRejected(
            .assignments,
            Sample.assignment.with("check_in_record", Sample.minimalLoanRecord.with("id", 9))
                .with("check_out_record", Sample.loanRecord(id: "9")),
            #"field check_in_record.id: must differ from check_out_record.id "9""#)
    }

    func testRepeatedFieldInsideEmbeddedRecordIsRejected() throws {
        let repeated: JSONValue = [
            "id": "r2", "recorded_at": "2016-10-01T18:05:00Z", "oil_level": 0, "oil_level": 1,
            "interior_cleanliness": 4, "exterior_cleanliness": 1,
        ]
        try assertRejected(
            .assignments, Sample.assignment.with("check_in_record", repeated),
            "field check_in_record.oil_level: repeated field")
    }
}
