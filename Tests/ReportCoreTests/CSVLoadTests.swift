import Foundation
import ReportTestSupport
import XCTest
import ReportModel
import Time
import Writers
@testable import ReportModel
@testable import Time
@testable import Writers

/// The CSV files load as typed columns in the tools dashboards are built with: DuckDB's
/// `read_csv_auto` and pandas' `read_csv(parse_dates=…)` (`Support/csv_load_check.py`). A
/// timestamp column that mixes `…:28+02:00` and `…:28.859000+02:00` stays text in pandas and
/// makes `to_datetime` raise, which is what this guards against.
final class CSVLoadTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/csv_load_check.py")

    private func requireLoaders() throws {
        try RequiredTool.pythonModule("duckdb", install: "pip install duckdb")
        try RequiredTool.pythonModule("pandas", install: "pip install pandas")
    }

    private func check(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try XLSXTestSupport.run("/usr/bin/env", ["python3", Self.script.path] + paths)
        let output = String(decoding: result.output, as: UTF8.self)
        XCTAssertEqual(result.status, 0, output + result.error, file: file, line: line)
        return output
    }

    /// Every CSV file of the sample reports (`Reports/`, kept current by SampleReportsTests) and
    /// of the writer's golden files.
    func testEverySampleCSVLoadsWithTypedTimestampsInDuckDBAndPandas() throws {
        try requireLoaders()
        var paths: [String] = []
        for folder in ["Reports", "Tests"] {
            let base = Self.root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "csv" { paths.append(url.path) }
            }
        }
        XCTAssertGreaterThanOrEqual(
            paths.filter { $0.contains("/Reports/") }.count, 30, "the sample reports' CSV files")
        XCTAssertTrue(paths.contains { $0.hasSuffix("Reports/fleet-salon2016/loans.csv") })
        let output = try check(paths.sorted())
        // loans.csv alone has four timestamp columns: the check must have looked at them.
        let columns = output.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThanOrEqual(columns, 4, output)
    }

    /// Written fresh: a column mixing whole seconds and fractions loads as timestamps.
    func testAColumnMixingWholeSecondsAndFractionsLoads() throws {
        try requireLoaders()
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        func time(_ text: String) -> Value { Timestamp(text).map(Value.timestamp) ?? .empty }
        let table = Table(
            name: "loans", columns: [Column("id"), Column("in_at", .timestamp), Column("day", .date)],
            rows: [
                [.text("1"), time("2016-10-01T15:47:28+02:00"), Day("2016-10-01").map(Value.day) ?? .empty],
                [.text("2"), time("2016-10-01T15:47:28.859+02:00"), .empty],
                [.text("3"), .empty, .empty],
            ])
        let report = Report(kind: "fleet", title: "t", scope: "mixed", asOf: Timestamp(seconds: 0), tables: [table])
        let urls = try CSVWriter().write(report, to: directory)
        let output = try check(urls.filter { $0.pathExtension == "csv" }.map(\.path))
        XCTAssertTrue(output.hasPrefix("ok 2 files, 1 timestamp columns"), output)
    }
}
