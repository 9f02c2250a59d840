import XCTest
import JSON
@testable import Fleet

final class LoanRecordImportTests: FleetTestCase {
    func testValidRecordIsStoredWithEveryColumn() throws {
        try importRecords(.loanRecords, [Sample.fileLoanRecord()], firstSequence: 5)
        XCTAssertEqual(
            try rows(
                """
                SELECT id, assignment_id, kind, recorded_at_us, recorded_at_offset, mileage_km, oil_level,
                       interior_cleanliness, exterior_cleanliness, signature_present, signature_out_of_box, photo_count,
                       comment, import_seq
                FROM loan_records
                """),
            [
                [
                    "r1", "501", "check_out", 1_475_307_312_250_000, 7200, .real(1234.5), 4, 3, 2, 1, 0, 2,
                    "rayure porte", 5,
                ]
            ])
        XCTAssertEqual(
            try rows("SELECT record_id, position, type, x, y FROM loan_impacts ORDER BY position"),
            [["r1", 0, "scratch", .real(100), .real(250.5)], ["r1", 1, "impact", .real(0), .real(400)]])
    }

    func testOptionalFieldsAbsentOrNull() throws {
        let record = Sample.minimalLoanRecord.with("assignment_id", 501).with("kind", "check_in")
            .with("mileage_km", nil as JSONValue).with("photos", nil as JSONValue).with("comment", nil as JSONValue)
            .with("signature", nil as JSONValue).with("impacts", nil as JSONValue)
        try importRecords(.loanRecords, [record])
        XCTAssertEqual(
            try rows(
                "SELECT mileage_km, signature_present, signature_out_of_box, photo_count, comment FROM loan_records"),
            [[.null, 0, 0, 0, .null]])
        XCTAssertEqual(try count("loan_impacts"), 0)
    }

    func testIntegerMileageAndZeroAreValid() throws {
        try importRecords(
            .loanRecords,
            [
                Sample.fileLoanRecord().with("mileage_km", 0),
                Sample.fileLoanRecord(id: "r2").with("mileage_km", 98765),
            ])
        XCTAssertEqual(
            try rows("SELECT id, mileage_km FROM loan_records ORDER BY id"), [["r1", .real(0)], ["r2", .real(98765)]])
    }

    func testSignatureFlags() throws {
        let cases: [(JSONValue, present: Int64, outOfBox: Int64)] = [
            ([] as JSONValue, 0, 0),
            ([[[10, 10]], [[20, 20]]], 0, 0),  // taps only
            ([[] as JSONValue, [[0, 0], [400, 400]]], 1, 0),  // the box edges are inside
            ([[[10, 10], [400.5, 20]]], 1, 1),
            ([[[-0.1, 10]]], 0, 1),
            ([[[10, 10], [20, .number(1000, literal: "1e3")]]], 1, 1),
        ]
        for (index, signatureCase) in cases.enumerated() {
            try importRecords(
                .loanRecords, [Sample.fileLoanRecord(id: .integer(Int64(index))).with("signature", signatureCase.0)])
            XCTAssertEqual(
                try rows(
                    "SELECT signature_present, signature_out_of_box FROM loan_records WHERE id = ?",
                    [.text(String(index))]),
                [[.integer(signatureCase.present), .integer(signatureCase.outOfBox)]], "signature case \(index)")
        }
    }

    func testRecordImportedTwiceIsOneRowAndLaterReplacesWholeWithImpacts() throws {
        let later = Sample.fileLoanRecord(assignment: "502", kind: "check_in").without("comment").without("photos")
            .with("impacts", [["type": "deepscratch", "x": 5, "y": 6]])
        try importRecords(.loanRecords, [Sample.fileLoanRecord(), Sample.fileLoanRecord(), later])
        XCTAssertEqual(
            try rows("SELECT id, assignment_id, kind, comment, photo_count, import_seq FROM loan_records"),
            [["r1", "502", "check_in", .null, 0, 3]])
        XCTAssertEqual(
            try rows("SELECT record_id, position, type, x, y FROM loan_impacts"),
            [["r1", 0, "deepscratch", .real(5), .real(6)]])
    }

    func testEmbeddedThenFileIsOneRowTakingItsPlaceFromTheFile() throws {
        try importRecords(.assignments, [Sample.assignment], firstSequence: 1)
        try importRecords(
            .loanRecords, [Sample.fileLoanRecord(assignment: "600", kind: "check_in").with("impacts", [] as JSONValue)],
            firstSequence: 2)
        XCTAssertEqual(
            try rows("SELECT id, assignment_id, kind, import_seq FROM loan_records ORDER BY id"),
            [["r1", "600", "check_in", 2], ["r2", "501", "check_in", 1]])
        XCTAssertEqual(try count("loan_impacts"), 0)
    }

    func testFileThenEmbeddedIsOneRowTakingItsPlaceFromTheAssignment() throws {
        try importRecords(
            .loanRecords, [Sample.fileLoanRecord(assignment: "600", kind: "check_in").with("impacts", [] as JSONValue)],
            firstSequence: 1)
        try importRecords(.assignments, [Sample.assignment], firstSequence: 2)
        XCTAssertEqual(
            try rows("SELECT id, assignment_id, kind, import_seq FROM loan_records ORDER BY id"),
            [["r1", "501", "check_out", 2], ["r2", "501", "check_in", 2]])
        XCTAssertEqual(try count("loan_impacts"), 2)
    }

    func testRecordOfUnknownAssignmentIsStored() throws {
        try importRecords(.loanRecords, [Sample.fileLoanRecord(assignment: "nowhere")])
        XCTAssertEqual(try rows("SELECT assignment_id FROM loan_records"), [["nowhere"]])
    }

    func testFileOnlyFields() throws {
        try assertRejected(
            .loanRecords, Sample.fileLoanRecord().without("assignment_id"), "field assignment_id: missing (required)")
        try assertRejected(.loanRecords, Sample.fileLoanRecord().without("kind"), "field kind: missing (required)")
        try assertRejected(
            .loanRecords, Sample.fileLoanRecord(kind: "checkout"),
            #"field kind: must be one of check_out, check_in "checkout""#)
        try assertRejected(
            .loanRecords, Sample.fileLoanRecord(kind: "CHECK_IN"),
            #"field kind: must be one of check_out, check_in "CHECK_IN""#)
    }

    func testLoanRecordRules() throws {
        let record = Sample.fileLoanRecord()
        try assertRejected(.loanRecords, record.without("id"), "field id: missing (required)")
        try assertRejected(
            .loanRecords, record.with("recorded_at", "2016-10-01T09:35:00"),
            (#"field recorded_at: invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM) "#
                + #""2016-10-01T09:35:00""#)
        )
        try assertRejected(
            .loanRecords, record.with("mileage_km", -1), "field mileage_km: must be a number from 0 to 10000000 -1")
        try assertRejected(
            .loanRecords, record.with("mileage_km", 10_000_001),
            "field mileage_km: must be a number from 0 to 10000000 10000001")
        try assertRejected(
            .loanRecords, record.with("mileage_km", .number(-0.5, literal: "-0.5")),
            "field mileage_km: must be a number from 0 to 10000000 -0.5")
        try assertRejected(.loanRecords, record.with("mileage_km", "12"), #"field mileage_km: must be a number "12""#)
        try assertRejected(
            .loanRecords, record.with("oil_level", nil as JSONValue), "field oil_level: missing (required) null")
        try assertRejected(
            .loanRecords, record.with("oil_level", .number(4.0, literal: "4.0")),
            "field oil_level: must be an integer from 0 to 4 4.0")
        try assertRejected(
            .loanRecords, record.with("oil_level", "4"), #"field oil_level: must be an integer from 0 to 4 "4""#)
        try assertRejected(
            .loanRecords, record.with("interior_cleanliness", 5),
            "field interior_cleanliness: must be an integer from 0 to 4 5")
        try assertRejected(
            .loanRecords, record.without("exterior_cleanliness"), "field exterior_cleanliness: missing (required)")
        try assertRejected(.loanRecords, record.with("photos", "a.jpg"), #"field photos: must be a list "a.jpg""#)
        try assertRejected(.loanRecords, record.with("photos", ["a.jpg", 1]), "field photos[1]: must be a string 1")
        try assertRejected(.loanRecords, record.with("comment", 5), "field comment: must be a string 5")
    }

    func testImpactRules() throws {
        let record = Sample.fileLoanRecord()
        try assertRejected(
            .loanRecords, record.with("impacts", ["type": "scratch"]),
            #"field impacts: must be a list {"type":"scratch"}"#)
        try assertRejected(.loanRecords, record.with("impacts", [3]), "field impacts[0]: must be an object 3")
        try assertRejected(
            .loanRecords, record.with("impacts", [["type": "scratch", "x": 1]]),
            "field impacts[0].y: missing (required)")
        try assertRejected(
            .loanRecords, record.with("impacts", [["x": 1, "y": 1]]), "field impacts[0].type: missing (required)")
        try assertRejected(
            .loanRecords,
            record.with("impacts", [["type": "scratch", "x": 1, "y": 1], ["type": "impact", "x": 1, "y": -0.5]]),
            "field impacts[1].y: must be a number from 0 to 400 -0.5")
        try assertRejected(
            .loanRecords, record.with("impacts", [["type": "scratch", "x": "1", "y": 1]]),
            #"field impacts[0].x: must be a number "1""#)
        try assertRejected(
            .loanRecords, record.with("impacts", [["type": "Scratch", "x": 1, "y": 1]]),
            #"field impacts[0].type: must be one of sinking, impact, scratch, deepscratch "Scratch""#)
    }

    func testMalformedSignaturesAreRejected() throws {
        let record = Sample.fileLoanRecord()
        try assertRejected(.loanRecords, record.with("signature", "yes"), #"field signature: must be a list "yes""#)
        try assertRejected(
            .loanRecords, record.with("signature", [5]), "field signature[0]: must be a list of [x, y] points 5")
        try assertRejected(
            .loanRecords, record.with("signature", [[1, 2]]),
            "field signature[0][0]: must be a point [x, y] of two numbers 1")
        try assertRejected(
            .loanRecords, record.with("signature", [[[1, 2], [1, 2, 3]]]),
            "field signature[0][1]: must be a point [x, y] of two numbers [1,2,3]")
        try assertRejected(
            .loanRecords, record.with("signature", [[[1, 2]], [[nil, 2]]]),
            "field signature[1][0]: must be a point [x, y] of two numbers [null,2]")
        try assertRejected(
            .loanRecords, record.with("signature", [[[1, .number(.infinity, literal: "1e999")]]]),
            "field signature[0][0]: must be a point [x, y] of two numbers [1,1e999]")
    }
}
