import XCTest
import JSON
@testable import Fleet

final class GroupAndDriverImportTests: FleetTestCase {
    func testGroupIsStored() throws {
        try importRecords(.groups, [Sample.group.with("colour", "blue")], firstSequence: 3)
        XCTAssertEqual(
            try rows("SELECT id, event_id, name, import_seq FROM groups"), [["press", "salon2016", "Presse", 3]])
    }

    func testGroupIdsAsIntegersAndTextAreOneRow() throws {
        try importRecords(
            .groups,
            [
                Sample.group.with("id", 12).with("event_id", 2016),
                Sample.group.with("id", "12").with("name", "VIP"),
            ])
        XCTAssertEqual(try rows("SELECT id, event_id, name, import_seq FROM groups"), [["12", "salon2016", "VIP", 2]])
    }

    func testGroupRules() throws {
        try assertRejected(.groups, Sample.group.without("event_id"), "field event_id: missing (required)")
        try assertRejected(
            .groups, Sample.group.with("event_id", true),
            "field event_id: invalid id (a non-empty string or an integer) true")
        try assertRejected(.groups, Sample.group.with("name", nil as JSONValue), "field name: missing (required) null")
        try assertRejected(.groups, Sample.group.with("name", ["Presse"]), #"field name: must be a string ["Presse"]"#)
    }

    func testDriverIsStoredAndCompanyIsOptional() throws {
        try importRecords(
            .drivers,
            [
                Sample.driver, Sample.driver.with("id", 78).without("company"),
                Sample.driver.with("id", 79).with("company", nil as JSONValue),
            ])
        XCTAssertEqual(
            try rows("SELECT id, name, company, import_seq FROM drivers ORDER BY id"),
            [
                ["77", "Camille Martin", "Le Journal", 1], ["78", "Camille Martin", .null, 2],
                ["79", "Camille Martin", .null, 3],
            ])
    }

    func testLaterDriverReplacesEarlierWhole() throws {
        try importRecords(
            .drivers, [Sample.driver, Sample.driver.with("id", "77").with("name", "C. Martin").without("company")])
        XCTAssertEqual(try rows("SELECT id, name, company FROM drivers"), [["77", "C. Martin", .null]])
    }

    func testDriverRules() throws {
        try assertRejected(.drivers, Sample.driver.without("id"), "field id: missing (required)")
        try assertRejected(.drivers, Sample.driver.without("name"), "field name: missing (required)")
        try assertRejected(.drivers, Sample.driver.with("company", 5), "field company: must be a string 5")
    }
}
