import XCTest
import JSON
@testable import Fleet

final class EventImportTests: FleetTestCase {
    func testValidEventIsStoredWithDatesMinutesAndZone() throws {
        try importRecords(.events, [Sample.event], firstSequence: 7)
        XCTAssertEqual(
            try rows(
                "SELECT id, name, starts_on, ends_on, timezone, opens_at_minutes, closes_at_minutes, import_seq "
                    + "FROM events"
            ),
            [["salon2016", "Mondial de l'Automobile", "2016-10-01", "2016-10-16", "America/New_York", 600, 1200, 7]])
    }

    func testAbsentOrNullTimeZoneIsStoredAsParis() throws {
        try importRecords(
            .events,
            [Sample.event.without("timezone"), Sample.event.with("id", "salon2017").with("timezone", nil as JSONValue)])
        XCTAssertEqual(
            try rows("SELECT id, timezone FROM events ORDER BY id"),
            [["salon2016", "Europe/Paris"], ["salon2017", "Europe/Paris"]])
    }

    func testOneDayEventIsValid() throws {
        try importRecords(.events, [Sample.event.with("ends_on", "2016-10-01")])
        XCTAssertEqual(try rows("SELECT starts_on, ends_on FROM events"), [["2016-10-01", "2016-10-01"]])
    }

    func testLaterEventReplacesEarlierWholeAndIntegerIdMatchesText() throws {
        try importRecords(
            .events,
            [
                Sample.event.with("id", 2016),
                Sample.event.with("id", "2016").with("name", "Mondial").without("timezone"),
            ])
        XCTAssertEqual(
            try rows("SELECT id, name, timezone, import_seq FROM events"), [["2016", "Mondial", "Europe/Paris", 2]])
    }

    func testUnknownFieldsAreIgnored() throws {
        try importRecords(.events, [Sample.event.with("venue", "Porte de Versailles").with("halls", [1, 2])])
        XCTAssertEqual(try count("events"), 1)
    }

    func testRequiredFields() throws {
        try assertRejected(.events, Sample.event.without("id"), "field id: missing (required)")
        try assertRejected(.events, Sample.event.with("id", nil as JSONValue), "field id: missing (required) null")
        try assertRejected(.events, Sample.event.with("name", nil as JSONValue), "field name: missing (required) null")
        try assertRejected(.events, Sample.event.without("starts_on"), "field starts_on: missing (required)")
        try assertRejected(.events, Sample.event.without("ends_on"), "field ends_on: missing (required)")
        try assertRejected(.events, Sample.event.without("opens_at"), "field opens_at: missing (required)")
        try assertRejected(.events, Sample.event.without("closes_at"), "field closes_at: missing (required)")
    }

    func testInvalidValues() throws {
        try assertRejected(
            .events, Sample.event.with("id", ""), #"field id: invalid id (a non-empty string or an integer) """#)
        try assertRejected(
            .events, Sample.event.with("id", .number(4.5, literal: "4.5")),
            "field id: invalid id (a non-empty string or an integer) 4.5")
        try assertRejected(.events, Sample.event.with("name", 12), "field name: must be a string 12")
        try assertRejected(
            .events, Sample.event.with("starts_on", "2016-13-42"),
            #"field starts_on: invalid date (YYYY-MM-DD) "2016-13-42""#)
        try assertRejected(
            .events, Sample.event.with("ends_on", "2016-02-30"),
            #"field ends_on: invalid date (YYYY-MM-DD) "2016-02-30""#)
        try assertRejected(
            .events, Sample.event.with("timezone", "Mars/Olympus"),
            #"field timezone: unknown time zone "Mars/Olympus""#)
        try assertRejected(.events, Sample.event.with("timezone", "CET"), #"field timezone: unknown time zone "CET""#)
        try assertRejected(
            .events, Sample.event.with("opens_at", "9:00"), #"field opens_at: invalid time (HH:MM) "9:00""#)
        try assertRejected(
            .events, Sample.event.with("closes_at", "24:00"), #"field closes_at: invalid time (HH:MM) "24:00""#)
        try assertRejected(.events, Sample.event.with("opens_at", 540), "field opens_at: invalid time (HH:MM) 540")
    }

    func testEndsOnBeforeStartsOnIsRejected() throws {
        try assertRejected(
            .events, Sample.event.with("ends_on", "2016-09-30"),
            #"field ends_on: must not be before starts_on (2016-10-01) "2016-09-30""#)
    }

    /// An event of more than a year is a typo (issue 30: it also bounds every sum of hours).
    func testAnEventOfMoreThan366DaysIsRejected() throws {
        try assertRejected(
            .events, Sample.event.with("ends_on", "2017-10-02"),
            #"field ends_on: must be at most 366 days from starts_on (2016-10-01), both included "2017-10-02""#)
        try importRecords(.events, [Sample.event.with("ends_on", "2017-10-01")])
        XCTAssertEqual(try rows("SELECT ends_on FROM events"), [["2017-10-01"]], "366 days, both included")
    }

    func testClosesAtMustBeAfterOpensAt() throws {
        try assertRejected(
            .events, Sample.event.with("closes_at", "10:00"),
            #"field closes_at: must be after opens_at (10:00) "10:00""#)
        try assertRejected(
            .events, Sample.event.with("opens_at", "09:05").with("closes_at", "09:04"),
            #"field closes_at: must be after opens_at (09:05) "09:04""#)
    }

    func testRejectedEventNeverChangesAValidOne() throws {
        try importRecords(.events, [Sample.event])
        try assertRejected(
            .events, Sample.event.with("name", "Changed").with("closes_at", "08:00"),
            #"field closes_at: must be after opens_at (10:00) "08:00""#)
        XCTAssertEqual(try rows("SELECT name FROM events"), [["Mondial de l'Automobile"]])
    }

    func testNonObjectAndRepeatedFieldAreRejected() throws {
        try assertRejected(.events, [1, 2], "field (record): not an object [1,2]")
        let repeated: JSONValue = [
            "id": "salon2016", "name": "A", "name": "B", "starts_on": "2016-10-01",
            "ends_on": "2016-10-02", "opens_at": "10:00", "closes_at": "20:00",
        ]
        try assertRejected(.events, repeated, "field name: repeated field")
    }
}
