import JSON
import ReportModel
import Store
import Time
import XCTest
@testable import Bookings

/// A bookings database for analysis tests: records go in through the real importers (JSON
/// values, validated and upserted), reports come out of the real entry point.
///
/// By default it holds one customer `c1` (postal code 75011) and one service `s1` (45.00 €), so
/// that bookings written with the defaults raise no orphan issue.
final class BookingsAnalysisFixture {
    let store: BookingsTestStore

    init(defaults: Bool = true) throws {
        store = try BookingsTestStore()
        if defaults {
            try customer("c1", postalCode: "75011")
            try service("s1", name: "Coupe femme", category: "Coupe", price: 4500)
        }
    }

    var database: Database { store.database }

    func customer(_ id: String, postalCode: String? = nil, created: String = "2026-01-01T10:00:00+01:00") throws {
        var fields: [(String, JSONValue)] = [("id", .string(id)), ("created_at", .string(created))]
        if let postalCode { fields.append(("postal_code", .string(postalCode))) }
        try store.load(.customers, Self.object(fields))
    }

    func service(_ id: String, name: String, category: String, price: Int64, oldPrice: Int64? = nil) throws {
        var fields: [(String, JSONValue)] = [
            ("id", .string(id)), ("name", .string(name)), ("category", .string(category)),
            ("price_cents", .integer(price)), ("duration_minutes", 45),
        ]
        if let oldPrice { fields.append(("old_price_cents", .integer(oldPrice))) }
        try store.load(.services, Self.object(fields))
    }

    func slot(_ id: String, starts: String, ends: String, capacity: Int64) throws {
        try store.load(
            .slots,
            [
                "id": .string(id), "starts_at": .string(starts), "ends_at": .string(ends),
                "capacity": .integer(capacity),
            ])
    }

    /// A service line: (service id, price, old price).
    typealias Line = (service: String, price: Int64, oldPrice: Int64?)

    func booking(
        _ id: String, starts: String, created: String = "2026-01-01T10:00:00+01:00", status: String = "paid",
        amount: Int64 = 4500, customer: String = "c1", lines: [Line] = [("s1", 4500, nil)],
        slot: String? = nil, cancelled: String? = nil, postalCode: String? = nil
    ) throws {
        let services: [JSONValue] = lines.map { line in
            var fields: [(String, JSONValue)] = [
                ("service_id", .string(line.service)), ("price_cents", .integer(line.price)),
            ]
            if let old = line.oldPrice { fields.append(("old_price_cents", .integer(old))) }
            return Self.object(fields)
        }
        var fields: [(String, JSONValue)] = [
            ("id", .string(id)), ("customer_id", .string(customer)), ("starts_at", .string(starts)),
            ("created_at", .string(created)), ("status", .string(status)), ("services", .array(services)),
            ("amount_cents", .integer(amount)),
        ]
        if let slot { fields.append(("slot_id", .string(slot))) }
        if let cancelled { fields.append(("cancelled_at", .string(cancelled))) }
        if let postalCode { fields.append(("postal_code", .string(postalCode))) }
        try store.load(.bookings, Self.object(fields))
    }

    static func object(_ fields: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members: fields.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    /// The report of a month (`--month`), seen at `asOf`.
    func report(
        month: String, asOf: String = "2027-01-01T00:00:00Z", timeZone: String = "Europe/Paris"
    ) throws -> Report {
        let options = try BookingsOptions.month(month, timeZone: timeZone, asOf: try XCTUnwrap(Timestamp(asOf)))
        return try BookingsAnalysis.report(database: database, options: options)
    }

    /// The report of `--from/--to`, seen at `asOf`.
    func report(from: String, to: String, asOf: String = "2027-01-01T00:00:00Z") throws -> Report {
        let options = BookingsOptions(
            from: try XCTUnwrap(Day(from)), to: try XCTUnwrap(Day(to)),
            asOf: try XCTUnwrap(Timestamp(asOf)))
        return try BookingsAnalysis.report(database: database, options: options)
    }
}

extension Report {
    /// Every row of a table, failing the test when the table is missing.
    func rows(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[Value]] {
        try XCTUnwrap(table(named: name), "no table \(name)", file: file, line: line).rows.all
    }

    /// The rows of a table whose first cell is `key` (a day, a month, an id).
    func rows(_ name: String, where key: Value, file: StaticString = #filePath, line: UInt = #line) throws -> [[Value]]
    {
        try rows(name, file: file, line: line).filter { $0.first == key }
    }

    /// A headline figure's value, failing the test when the metric is missing.
    func figure(_ metric: String, file: StaticString = #filePath, line: UInt = #line) throws -> Value {
        try XCTUnwrap(figures.first { $0.metric == metric }, "no figure \(metric)", file: file, line: line).value
    }
}

/// `Value.day` of an ISO date written in a test.
func day(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Value {
    .day(try XCTUnwrap(Day(text), file: file, line: line))
}

/// Asserts that a numeric Value is a number close to `expected` (money and ratios are Doubles).
func assertNumber(
    _ value: Value?, _ expected: Double, accuracy: Double = 1e-9, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    guard let number = value?.doubleValue else {
        XCTFail(
            "\(String(describing: value)) is not a number; expected \(expected). \(message)", file: file, line: line)
        return
    }
    XCTAssertEqual(number, expected, accuracy: accuracy, message, file: file, line: line)
}
