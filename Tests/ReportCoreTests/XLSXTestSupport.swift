import Foundation
import ReportTestSupport
import XCTest
@testable import ReportModel
@testable import Time
@testable import Writers
#if canImport(Glibc)
import Glibc
#endif
import ReportModel
import Time
import Writers

/// What `Support/xlsx_dump.py` prints: the workbook as openpyxl reads it back.
struct XLSXDump: Decodable, Sendable {
    struct Properties: Decodable, Sendable {
        let title: String?
        let subject: String?
        let created: String?
    }

    struct Cell: Decodable, Sendable {
        /// The value as text (numbers as Python prints them), nil for an empty cell.
        let v: String?
        /// openpyxl's kind: n number, s string, b boolean, d date.
        let t: String
        /// The number format.
        let f: String
        /// The horizontal alignment (`right`, `center`), nil for the default.
        let a: String?
    }

    struct ConditionalFormat: Decodable, Sendable {
        let range: String
        let types: [String]
    }

    struct Sheet: Decodable, Sendable {
        let name: String
        let freezePanes: String?
        let autoFilter: String?
        let widths: [String: Double]?
        let conditionalFormats: [ConditionalFormat]?
        let maxRow: Int?
        let rowCount: Int?
        let rows: [[Cell]]

        func cell(_ row: Int, _ column: Int) -> Cell? {
            guard row < rows.count, column < rows[row].count else { return nil }
            return rows[row][column]
        }

        /// The first row whose first cell is `label` (Summary sheet lookups).
        func row(labelled label: String) -> [Cell]? { rows.first { $0.first?.v == label } }
    }

    struct Chart: Decodable, Sendable {
        let file: String
        let kinds: [String]
        let refs: [String]
        let title: String
    }

    let properties: Properties?
    let sheets: [Sheet]
    let charts: [Chart]

    func sheet(_ name: String) -> Sheet? { sheets.first { $0.name == name } }
}

enum XLSXTestSupport {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/xlsx_dump.py")

    /// python3 with openpyxl (the shared policy: missing fails, `make test` installs it).
    static func requireOpenpyxl() throws {
        try RequiredTool.pythonModule("openpyxl", install: "pip install openpyxl")
    }

    /// Reads a workbook back through openpyxl.
    static func dump(_ url: URL, countsOnly: Bool = false) throws -> XLSXDump {
        try requireOpenpyxl()
        let arguments = [script.path] + (countsOnly ? ["--counts"] : []) + [url.path]
        let result = try run("/usr/bin/env", ["python3"] + arguments)
        guard result.status == 0 else {
            XCTFail("xlsx_dump.py failed (\(result.status)): \(result.error)")
            throw XLSXError.invalid("dump failed")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(XLSXDump.self, from: result.output)
    }

    struct ProcessResult {
        let status: Int32
        let output: Data
        let error: String
    }

    /// Runs a program to its end through the shared `ChildProcess` (output through files, so no
    /// pipe can fill up and stall it); killed after `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 300) throws -> ProcessResult {
        let child = try ChildProcess(executable, arguments)
        let deadline = Date().addingTimeInterval(timeout)
        while child.poll() == nil && Date() < deadline { usleep(20_000) }
        child.kill(SIGKILL)
        let result = child.wait()
        return ProcessResult(status: result.status, output: Data(result.out.utf8), error: result.err)
    }

    static func temporaryDirectory() throws -> URL { try makeTemporaryFolder("xlsx-tests") }

    /// Runs `body` with file descriptor 2 sent to a file, and returns what was written there:
    /// libxlsxwriter prints its warnings with fprintf(stderr), below anything Swift could catch.
    static func capturingStandardError(_ body: () throws -> Void) throws -> String {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stderr").path
        let capture = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard capture >= 0 else { throw XLSXError.invalid("cannot open \(path)") }
        fflush(nil)  // every C stream, stderr included
        let saved = dup(2)
        dup2(capture, 2)
        close(capture)
        defer {
            fflush(nil)  // every C stream, stderr included
            dup2(saved, 2)
            close(saved)
        }
        try body()
        fflush(nil)  // every C stream, stderr included
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<unreadable>"
    }

    static func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }
}

/// A small fleet-like report that uses every column type, chart kind and sheet feature.
enum XLSXSampleReport {
    static let asOf = Timestamp("2016-10-09T20:00:00+02:00") ?? Timestamp(seconds: 0)

    static func day(_ text: String) -> Value { Day(text).map(Value.day) ?? .empty }
    static func time(_ text: String) -> Value { Timestamp(text).map(Value.timestamp) ?? .empty }

    static let vehicles = Table(
        name: "vehicles",
        columns: [
            Column("plate"), Column("loans", .integer), Column("hours_out", .duration),
            Column("utilization", .percent, dataBar: true), Column("km", .decimal(places: 1)),
            Column("revenue_eur", .euros),
        ],
        rows: [
            [.text("AB-123-CD"), .integer(3), .number(12.5), .number(0.7312), .number(153.25), .number(1234.5)],
            [.text("EF-456-GH"), .integer(0), .number(0), .number(0), .empty, .number(0)],
            [.text("=cmd|'/c calc'!A1"), .integer(7), .number(40.25), .number(1), .number(9), .number(-12)],
        ])

    static let daily = Table(
        name: "daily",
        columns: [
            Column("day", .date), Column("group"), Column("utilization", .percent, dataBar: true),
            Column("check_outs", .integer),
        ],
        rows: [
            [day("2016-10-01"), .text("Premium"), .number(0.5), .integer(4)],
            [day("2016-10-02"), .text("Premium"), .number(0.75), .integer(6)],
        ])

    static let loans = Table(
        name: "loans",
        columns: [
            Column("assignment_id", .integer), Column("out_at", .timestamp), Column("signed_out", .boolean),
            Column("driver"),
        ],
        rows: [
            [.integer(41), time("2016-10-01T09:12:30+02:00"), .boolean(true), .text("Élodie Dupont")],
            [.integer(42), time("2016-10-01T23:30:00-05:00"), .boolean(false), .empty],
        ])

    static let damage = Table(
        name: "damage_types",
        columns: [Column("type"), Column("count", .integer)],
        rows: [[.text("scratch"), .integer(5)], [.text("dent"), .integer(2)]])

    static let quality = Table(
        name: "quality",
        columns: [Column("issue"), Column("record"), Column("detail")],
        rows: [[.text("late_check_in"), .text("a-17"), .text("returned 40 min late")]])

    static let csvOnly = Table(
        name: "summary", columns: [Column("metric"), Column("value")],
        rows: [[.text("x"), .text("1")]], outputs: .csv)

    static func make() -> Report {
        Report(
            kind: "fleet", title: "Fleet report: Salon 2016", scope: "salon2016", asOf: asOf,
            parameters: [(name: "grace_minutes", value: "15")],
            figures: [
                Figure("vehicles", .integer(12), .integer), Figure("utilization", .number(0.7312), .percent),
                Figure("hours_out", .number(52.75), .duration), Figure("revenue", .number(1234.5), .euros),
                Figure("first_day", day("2016-10-01"), .date), Figure("all_signed", .boolean(true), .boolean),
            ],
            tables: [quality, vehicles, daily, loans, damage, csvOnly],
            charts: [
                Chart(
                    .column, title: "Daily utilization", table: "daily", category: "day",
                    series: ["utilization"], fileStem: "utilization"),
                Chart(
                    .pie, title: "New damage by type", table: "damage_types", category: "type",
                    series: ["count"], fileStem: "damage"),
                Chart(
                    .line, title: "Check-outs", table: "daily", category: "day",
                    series: ["check_outs"], fileStem: "check-outs"),
            ],
            heatMap: HeatMap(
                title: "Damage zones", rowLabels: ["1", "2"], columnLabels: ["A", "B", "C"],
                cells: [[0, 1, 4], [2, 0, 7]], backdrop: WriterTestSupport.backdrop, fileStem: "zones"))
    }
}
