import Foundation
import XCTest
import JSON
import ReportModel
import Time
@testable import Fleet

/// Fixtures for the fleet analysis: records written as the back office exports them, imported
/// through the real importers into a real temporary SQLite file, then read back from the Report.
///
/// Unless a test says otherwise the event is `salon2016`, 2016-10-01 to 2016-10-03 in
/// Europe/Paris (UTC+2 on those days), open 09:00–19:00: three 10-hour windows.
class FleetAnalysisTestCase: FleetTestCase {
    /// After the event: nothing is cut.
    static let afterEvent = "2016-10-10T00:00:00+02:00"

    func importEvent(
        id: String = "salon2016", name: String = "Mondial de l'Automobile",
        startsOn: String = "2016-10-01", endsOn: String = "2016-10-03",
        timezone: String = "Europe/Paris", opensAt: String = "09:00", closesAt: String = "19:00"
    ) throws {
        try importRecords(
            .events,
            [
                [
                    "id": .string(id), "name": .string(name), "starts_on": .string(startsOn),
                    "ends_on": .string(endsOn),
                    "timezone": .string(timezone), "opens_at": .string(opensAt), "closes_at": .string(closesAt),
                ]
            ], firstSequence: 1)
    }

    /// A check-out or check-in record; signed with one two-point stroke unless told otherwise.
    func record(
        _ id: String, at recordedAt: String, km: Double? = nil, oil: Int64 = 4, interior: Int64 = 4,
        exterior: Int64 = 4, signature: JSONValue? = [[[10, 10], [20, 20]]],
        impacts: [(type: String, x: Double, y: Double)] = []
    ) -> JSONValue {
        var value: JSONValue = [
            "id": .string(id), "recorded_at": .string(recordedAt), "oil_level": .integer(oil),
            "interior_cleanliness": .integer(interior), "exterior_cleanliness": .integer(exterior),
        ]
        if let km { value = value.with("mileage_km", .number(km, literal: String(km))) }
        if let signature { value = value.with("signature", signature) }
        if !impacts.isEmpty {
            value = value.with(
                "impacts",
                .array(
                    impacts.map { impact in
                        [
                            "type": .string(impact.type), "x": .number(impact.x, literal: String(impact.x)),
                            "y": .number(impact.y, literal: String(impact.y)),
                        ]
                    }))
        }
        return value
    }

    /// An assignment of `salon2016` with its records embedded.
    func assignment(
        _ id: String, plate: String, out plannedOut: String, in plannedIn: String,
        event: String = "salon2016", group: String? = nil, driver: String? = nil,
        brand: String = "Peugeot", model: String? = "3008", cancelled: Bool = false,
        checkOut: JSONValue? = nil, checkIn: JSONValue? = nil
    ) -> JSONValue {
        var value: JSONValue = [
            "id": .string(id), "event_id": .string(event), "brand_name": .string(brand),
            "license_plate_number": .string(plate), "planned_time_out": .string(plannedOut),
            "planned_time_in": .string(plannedIn), "cancelled": .bool(cancelled),
        ]
        if let group { value = value.with("group_id", .string(group)) }
        if let driver { value = value.with("driver_id", .string(driver)) }
        if let model { value = value.with("model_name", .string(model)) }
        if let checkOut { value = value.with("check_out_record", checkOut) }
        if let checkIn { value = value.with("check_in_record", checkIn) }
        return value
    }

    /// Imports assignments after everything else already imported (their import order counts).
    func importAssignments(_ assignments: [JSONValue]) throws {
        try importRecords(.assignments, assignments, firstSequence: 100)
    }

    func makeReport(
        asOf: String = FleetAnalysisTestCase.afterEvent, event: String = "salon2016",
        graceMinutes: Int = 15
    ) throws -> Report {
        let instant = try XCTUnwrap(Timestamp(asOf))
        return try FleetAnalysis.report(
            database: try db(), options: FleetOptions(eventId: event, asOf: instant, graceMinutes: graceMinutes))
    }

    /// A table's rows, each as a dictionary by column name, for readable assertions.
    func rows(
        _ report: Report, _ table: String, file: StaticString = #filePath, line: UInt = #line
    ) throws -> [[String: Value]] {
        let table = try XCTUnwrap(report.table(named: table), "no table \(table)", file: file, line: line)
        return table.rows.all.map { values in
            Dictionary(uniqueKeysWithValues: zip(table.columns.map(\.name), values))
        }
    }

    func figure(_ report: Report, _ metric: String, file: StaticString = #filePath, line: UInt = #line) throws -> Value
    {
        try XCTUnwrap(report.figures.first { $0.metric == metric }, "no figure \(metric)", file: file, line: line).value
    }

    /// Asserts a numeric cell within a millionth (hours are µs / 3.6e9, so thirds do not come out exact).
    func assertNumber(_ value: Value?, _ expected: Double, file: StaticString = #filePath, line: UInt = #line) {
        guard let number = value?.doubleValue else {
            XCTFail("expected \(expected), got \(String(describing: value))", file: file, line: line)
            return
        }
        XCTAssertEqual(number, expected, accuracy: 1e-6, file: file, line: line)
    }

    /// The quality rows as (issue, record) pairs.
    func issues(_ report: Report) throws -> [[String]] {
        try rows(report, "quality").map { row in
            [row["issue"], row["record"]].map { value -> String in
                if case .text(let text)? = value { return text }
                return "?"
            }
        }
    }
}
