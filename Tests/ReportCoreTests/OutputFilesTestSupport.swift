import Foundation
import XCTest
import ReportModel
import Time
@testable import ReportModel
@testable import Time

/// Shared by the writer tests: temporary folders, golden files and a small report covering every
/// column type, empty values, injection cells, a header-only table and a long table.
enum WriterTestSupport {
    /// A fresh folder under the system's temporary directory, removed when the test ends.
    static func temporaryDirectory(for testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("report-writers-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            try? FileManager.default.removeItem(at: url)
        }
        return url
    }

    static let snapshotDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")

    /// Compares `bytes` with the golden file `__Snapshots__/<name>` byte for byte.
    ///
    /// With `RECORD_SNAPSHOTS=1` in the environment (or when the golden file does not exist yet)
    /// the file is written and the test FAILS saying so, so that a recording run can never pass
    /// silently: review the new files with `git diff`, then run again without the variable.
    static func assertSnapshot(
        _ bytes: [UInt8], named name: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let url = snapshotDirectory.appendingPathComponent(name)
        let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        guard !recording, let expected = FileManager.default.contents(atPath: url.path) else {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
                XCTFail(
                    "Recorded snapshot \(name); check it with git diff and run again without RECORD_SNAPSHOTS",
                    file: file, line: line)
            } catch {
                XCTFail("Could not record snapshot \(name): \(error)", file: file, line: line)
            }
            return
        }
        guard [UInt8](expected) != bytes else { return }
        let expectedLines = String(decoding: expected, as: UTF8.self).components(separatedBy: "\n")
        let actualLines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
        let common = min(expectedLines.count, actualLines.count)
        let index = (0..<common).first { expectedLines[$0] != actualLines[$0] } ?? common
        let expectedLine = index < expectedLines.count ? expectedLines[index].debugDescription : "<end>"
        let actualLine = index < actualLines.count ? actualLines[index].debugDescription : "<end>"
        XCTFail(
            "Snapshot \(name) differs at line \(index + 1):\n  expected \(expectedLine)\n  actual   \(actualLine)\n"
                + "(re-record with RECORD_SNAPSHOTS=1 if the change is intended)", file: file, line: line)
    }

    static func assertSnapshot(_ text: String, named name: String, file: StaticString = #filePath, line: UInt = #line) {
        assertSnapshot(Array(text.utf8), named: name, file: file, line: line)
    }

    static func timestamp(_ text: String) -> Timestamp {
        guard let value = Timestamp(text) else {
            XCTFail("bad timestamp literal \(text)")
            return Timestamp(microseconds: 0)
        }
        return value
    }

    static func day(_ text: String) -> Value {
        guard let value = Day(text) else {
            XCTFail("bad day literal \(text)")
            return .empty
        }
        return .day(value)
    }

    /// Every column type, empty values, injection cells, quotes, commas and line breaks.
    static var itemsTable: Table {
        let columns = [
            Column("key"), Column("count", .integer), Column("share", .percent, dataBar: true),
            Column("duration", .duration), Column("price", .euros), Column("ratio", .decimal(places: 3)),
            Column("day", .date), Column("at", .timestamp), Column("flag", .boolean),
        ]
        let rows: [[Value]] = [
            [
                .text("plain"), .integer(3), .number(0.7312), .number(1.5), .number(12.5), .number(0.125),
                day("2016-10-01"), .timestamp(timestamp("2016-10-01T09:12:00+02:00")), .boolean(true),
            ],
            [
                .text("=SUM(A1)"), .integer(-7), .number(0.125), .number(2.675), .number(-0.0), .number(1e-9),
                .empty, .timestamp(timestamp("2016-10-02T23:59:30.250Z")), .boolean(false),
            ],
            [.text("+1"), .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty],
            [
                .text("-x"), .integer(-42), .number(-0.035), .number(-1.005), .number(1234567.891), .number(-2.0005),
                day("2016-02-29"), .timestamp(timestamp("2016-10-01T09:12:00-05:30")), .empty,
            ],
            [
                .text("@x"), .integer(0), .number(1.2), .number(1e15), .number(99.995), .integer(5),
                day("0999-12-31"), .empty, .boolean(true),
            ],
            [
                .text("\tx"), .number(7.5), .number(0), .number(-0.004), .integer(12), .number(9.9995),
                .empty, .empty, .empty,
            ],
            [
                .text("say \"hi\", ok"), .integer(Int(Int64.max)), .empty, .empty, .empty, .empty, .empty, .empty,
                .empty,
            ],
            [.text("line1\nline2 | a|b"), .integer(1), .empty, .empty, .empty, .empty, .empty, .empty, .empty],
            [.text("\rcarriage\r\nreturn"), .integer(2), .empty, .empty, .empty, .empty, .empty, .empty, .empty],
            [.text("café ünïcode ✓"), .integer(3), .number(0.05), .empty, .empty, .empty, .empty, .empty, .empty],
        ]
        return Table(name: "items", columns: columns, rows: rows, caption: "Every column type, | and all.")
    }

    /// Twelve rows: two more than Markdown shows.
    static var longTable: Table {
        let names = [
            "Fitness", "Work", "Family", "Reading", "Music", "Sport", "Travel", "Garden", "Cooking",
            "Friends", "Health", "Learning",
        ]
        let rows: [[Value]] = names.enumerated().map { index, name in
            [
                .text(name), .integer(10 + index * 7 % 13), .number(Double(index * 9 % 11) / 10),
                index == 4 ? .empty : .number(Double(index % 5) / 4),
            ]
        }
        return Table(
            name: "categories",
            columns: [
                Column("category"), Column("minutes", .integer), Column("percent", .percent),
                Column("accuracy", .percent),
            ], rows: rows)
    }

    static var sampleReport: Report {
        let cells: [[Double]] = [[0, 1, 2, 0], [3, 7, 0, 1], [0, 0, 4, 2], [1, 0, 0, 12]]
        return Report(
            kind: "fleet", title: "Sample report", scope: "salon2016",
            asOf: timestamp("2016-10-01T18:00:00+02:00"),
            parameters: [(name: "grace_minutes", value: "15"), (name: "note", value: "a|b")],
            figures: [
                Figure("users", .integer(3), .integer),
                Figure("utilization", .number(0.7312), .percent),
                Figure("hours_out", .number(12.345), .duration),
                Figure("revenue_eur", .number(99.995), .euros),
                Figure("average_score", .number(72.25), .decimal(places: 1)),
                Figure("first_day", day("2016-09-30"), .date),
                Figure("label", .text("=cmd"), .text),
                Figure("missing", .empty, .integer),
            ],
            tables: [
                itemsTable,
                Table(name: "empty", columns: [Column("name"), Column("count", .integer)], rows: [[Value]]()),
                longTable,
                Table(name: "csv_only", columns: [Column("value", .integer)], rows: [[.integer(1)]], outputs: [.csv]),
                Table(
                    name: "markdown_only", columns: [Column("value", .integer)], rows: [[.integer(2)]],
                    outputs: [.markdown]),
            ],
            charts: [
                Chart(
                    .column, title: "Minutes by category", table: "categories", category: "category",
                    series: ["minutes"], fileStem: "minutes"),
                Chart(
                    .line, title: "Percent & accuracy", table: "categories", category: "category",
                    series: ["percent", "accuracy"], fileStem: "percent"),
                Chart(
                    .pie, title: "Share of minutes", table: "categories", category: "category",
                    series: ["minutes"], fileStem: "share"),
            ],
            heatMap: HeatMap(
                title: "New damage by zone", rowLabels: ["1", "2", "3", "4"],
                columnLabels: ["A", "B", "C", "D"], cells: cells, backdrop: WriterTestSupport.backdrop,
                fileStem: "damage"),
            notes: ["Times are in Europe/Paris.", "Two lines\nbecome one."],
            toolVersion: "0.1.0")
    }
}

extension WriterTestSupport {
    /// A backdrop of a rounded frame and a label: what a domain's drawing (the fleet's car) goes
    /// through, without naming a domain.
    static let backdrop = HeatMapBackdrop(
        canvasHeight: 480, maximumCellWidth: 60, gridWidth: 300, gridHeight: 330, gridTop: 110, cellOpacity: 0.85,
        frameMargins: (30, 50, 30, 30),
        shapes: [
            .rectangle(
                x: .points(0), y: .points(0), width: .init(1), height: .init(1), fill: "#f2f2f2",
                stroke: "#555555", cornerRadius: .init(0.25, maximum: 60), fromBottom: false),
            .rectangle(
                x: .points(-12), y: .init(0.86), width: .points(16), height: .init(0.2, maximum: 60),
                fill: "#444444", stroke: nil, cornerRadius: .points(4), fromBottom: true),
            .polygon(
                [.init(.init(0.16), .points(30)), .init(.init(0.84), .points(30)), .init(.init(0.5), .points(10))],
                fill: "#cfe3f3", stroke: "#555555"),
            .label("front", at: .init(.init(0.5), .points(-8)), size: 11, fill: "#777777"),
        ])
}
