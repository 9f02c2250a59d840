import Foundation
import ReportTestSupport
import XCTest
import ReportModel
import Time
import Writers
@testable import Writers

/// The CSV contract a loader can trust without guessing (SPEC §6.1): a `datapackage.json` beside
/// every CSV folder, checked by the Frictionless reference validator, and every file loaded in
/// DuckDB and pandas with the types of that schema alone (`Support/csv_schema_check.py`).
final class CSVSchemaTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/csv_schema_check.py")

    private func requireTools() throws {
        try RequiredTool.pythonModule("duckdb", install: "pip install duckdb")
        try RequiredTool.pythonModule("pandas", install: "pip install pandas")
        try RequiredTool.pythonModule("frictionless", install: "pip install frictionless")
    }

    private func check(_ folders: [URL]) throws -> (status: Int32, output: String) {
        let result = try XLSXTestSupport.run(
            "/usr/bin/env", ["python3", Self.script.path] + folders.map(\.path), timeout: 300)
        return (result.status, String(decoding: result.output, as: UTF8.self) + result.error)
    }

    /// Every sample report folder (`Reports/`, kept current by SampleReportsTests).
    func testEverySampleFolderValidatesAndLoadsFromItsSchemaAlone() throws {
        try requireTools()
        let reports = Self.root.appendingPathComponent("Reports")
        let folders = try FileManager.default.contentsOfDirectory(at: reports, includingPropertiesForKeys: nil)
            .filter { $0.hasDirectoryPath }.sorted { $0.path < $1.path }
        XCTAssertGreaterThanOrEqual(folders.count, 5, "the five sample reports' CSV folders")
        let result = try check(folders)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.hasPrefix("ok \(folders.count) folders"), result.output)
    }

    /// Types come from the columns: a postal code is text (`06000` stays `06000`), instants across
    /// a DST change are one UTC column, a whole measure has no decimals, a count is an integer.
    func testTypesComeFromTheColumnsNotFromTheData() throws {
        try requireTools()
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        func time(_ text: String) -> Value { Timestamp(text).map(Value.timestamp) ?? .empty }
        let table = Table(
            name: "visits",
            columns: [
                Column("postal_code"), Column("at", .timestamp), Column("km", .measure(maximumPlaces: 1), unit: "km"),
                Column("late_minutes", .integer, unit: "minutes"), Column("share", .percent),
                Column("signed", .boolean),
            ],
            rows: [
                [
                    .text("06000"), time("2026-10-24T17:05:00+02:00"), .number(18962), .integer(297), .number(0.5),
                    .boolean(true),
                ],
                [
                    .text("75001"), time("2026-10-26T17:05:00+01:00"), .number(12.5), .integer(0), .empty,
                    .boolean(false),
                ],
            ] as [[Value]]
        ).keyed("postal_code")
        let report = Report(
            kind: "bookings", title: "Test", scope: "dst", asOf: Timestamp(seconds: 1_790_000_000),
            figures: [Figure("bookings", .integer(2), .integer)], tables: [table])
        let urls = try CSVWriter().write(report, to: directory)
        XCTAssertEqual(urls.map(\.lastPathComponent), ["visits.csv", "summary.csv", "datapackage.json"])
        let csv = try String(contentsOf: urls[0], encoding: .utf8)
        XCTAssertEqual(
            csv,
            "postal_code,at,km,late_minutes,share,signed\r\n06000,2026-10-24T15:05:00Z,18962,297,0.5000,true\r\n"
                + "75001,2026-10-26T16:05:00Z,12.5,0,,false\r\n")
        let package = try JSONSerialization.jsonObject(with: Data(contentsOf: urls[2])) as? [String: Any]
        let resources = try XCTUnwrap(package?["resources"] as? [[String: Any]])
        let schema = try XCTUnwrap(resources.first?["schema"] as? [String: Any])
        let fields = try XCTUnwrap(schema["fields"] as? [[String: Any]])
        XCTAssertEqual(
            fields.map { $0["type"] as? String }, ["string", "datetime", "number", "integer", "number", "boolean"])
        XCTAssertEqual(schema["primaryKey"] as? [String], ["postal_code"])
        XCTAssertTrue((fields[2]["description"] as? String ?? "").contains("(km)"), "\(fields[2])")
        XCTAssertEqual(resources.map { $0["path"] as? String }, ["visits.csv", "summary.csv"])
        let result = try check([urls[0].deletingLastPathComponent()])
        XCTAssertEqual(result.status, 0, result.output)
    }

    /// The check is real: a schema that calls a text column an integer fails the validator.
    func testASchemaThatLiesFailsTheCheck() throws {
        try requireTools()
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let table = Table(
            name: "codes", columns: [Column("code"), Column("count", .integer)],
            rows: [[.text("A-12"), .integer(1)], [.text("06000"), .integer(2)]])
        let report = Report(kind: "bookings", title: "Test", scope: "lie", asOf: Timestamp(seconds: 0), tables: [table])
        let urls = try CSVWriter().write(report, to: directory)
        let packageURL = try XCTUnwrap(urls.last)
        let text = try String(contentsOf: packageURL, encoding: .utf8)
        XCTAssertEqual(try check([packageURL.deletingLastPathComponent()]).status, 0)
        let lie = text.replacingOccurrences(of: "\"type\": \"string\"", with: "\"type\": \"integer\"")
        XCTAssertNotEqual(lie, text)
        try Data(lie.utf8).write(to: packageURL)
        let result = try check([packageURL.deletingLastPathComponent()])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("frictionless validate fails"), result.output)
    }

    /// The schema is written with the folder, and only what the folder holds is listed in it.
    func testTheSchemaListsEveryFileOfTheFolder() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let report = Report(
            kind: "fleet", title: "T", scope: "s", asOf: Timestamp(seconds: 0),
            tables: [
                Table(name: "a", columns: [Column("x")], rows: [[Value]]()),
                Table(name: "b", columns: [Column("x")], rows: [[Value]](), outputs: [.xlsx]),
            ])
        let urls = try CSVWriter(options: CSVOptions(bom: true)).write(report, to: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: urls[0].deletingLastPathComponent().path)
        XCTAssertEqual(Set(names), ["a.csv", "summary.csv", "datapackage.json"])
        let text = try String(contentsOf: try XCTUnwrap(urls.last), encoding: .utf8)
        XCTAssertTrue(text.contains("\"encoding\": \"utf-8-sig\""), "a BOM is said in the schema")
        XCTAssertFalse(text.contains("b.csv"))
        XCTAssertEqual(TableSchema.packageName("Fleet salon/2016"), "fleet-salon-2016")
    }
}
