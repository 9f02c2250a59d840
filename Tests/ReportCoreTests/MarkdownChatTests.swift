import Foundation
import XCTest
import ReportModel
import Time
import Writers
@testable import ReportModel
@testable import Time
@testable import Writers

/// Markdown for chat (issue 12): the rows a reader wants first, the columns that fit, lines of
/// at most about 120 characters, and no link to a file that was not written.
final class MarkdownChatTests: XCTestCase {
    private func day(_ text: String) -> Value { Day(text).map(Value.day) ?? .empty }

    func testADailyTableShowsTheLatestDaysFirstAndCountsTheRest() {
        var rows: [[Value]] = []
        for number in 1...12 {
            rows.append([day(String(format: "2026-11-%02d", number)), .text("a"), .integer(number)])
        }
        rows.append([day("2026-11-12"), .text("b"), .integer(99)])  // same day: table order kept
        let table = Table(
            name: "daily", columns: [Column("day", .date), Column("user"), Column("score", .integer)],
            rows: rows, markdownLimit: 3
        ).markdown(.latestFirst("day"))
        let lines = MarkdownTable.lines(table)
        XCTAssertEqual(
            Array(lines.suffix(8)),
            [
                "The latest 3 by day, latest first.", "",
                "| Day | User | Score |", "|---|---|---:|",
                "| 2026-11-12 | a | 12 |", "| 2026-11-12 | b | 99 |", "| 2026-11-11 | a | 11 |",
                "", "10 more rows in the CSV and XLSX files.",
            ].suffix(8))
    }

    /// A running event: the days up to as-of come first, latest on top; the days still to come
    /// (empty figures) follow them in calendar order, never first.
    func testARunningEventListsItsDaysUpToAsOfFirstAndTheFutureAfter() throws {
        let rows: [[Value]] = (1...5).map { number in
            [day("2016-10-0\(number)"), number <= 3 ? .number(Double(number) / 10) : .empty]
        }
        let through = try XCTUnwrap(Day("2016-10-03"))
        let table = Table(
            name: "daily_utilization", columns: [Column("day", .date), Column("utilization", .percent)], rows: rows,
            markdownLimit: 5
        ).markdown(.latestFirstThrough("day", through))
        let lines = MarkdownTable.lines(table)
        let days = lines.filter { $0.hasPrefix("| 2016") }.map { String($0.dropFirst(2).prefix(10)) }
        XCTAssertEqual(days, ["2016-10-03", "2016-10-02", "2016-10-01", "2016-10-04", "2016-10-05"])
        XCTAssertTrue(lines.contains("Latest first by day up to 2016-10-03; the days after it follow."), "\(lines)")
    }

    func testOtherTablesShowTheirTopRowsByTheMainFigureAndChosenColumns() {
        let rows: [[Value]] = [
            [.text("A"), .number(0.2), .integer(1)], [.text("B"), .empty, .integer(2)],
            [.text("C"), .number(0.9), .integer(3)], [.text("D"), .number(0.5), .integer(4)],
        ]
        let table = Table(
            name: "vehicles", columns: [Column("plate"), Column("utilization", .percent), Column("km", .integer)],
            rows: rows, markdownLimit: 2
        ).markdown(.largestFirst("utilization"), columns: ["plate", "utilization"])
        let lines = MarkdownTable.lines(table)
        XCTAssertTrue(lines.contains("The top 2 by utilization."), "\(lines)")
        XCTAssertTrue(lines.contains("| Plate | Utilization |"), "\(lines)")
        let body = lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Plate") }
        XCTAssertEqual(body.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) }, ["C", "D"])
        XCTAssertEqual(lines.last, "2 more rows and 1 more column in the CSV and XLSX files.")
    }

    func testLongCellsAndNotesStayWithinAChatLine() {
        let detail = String(repeating: "overlap ", count: 30)
        let report = Report(
            kind: "fleet", title: "T", scope: "s", asOf: Timestamp(seconds: 0),
            tables: [
                Table(
                    name: "quality", columns: [Column("issue"), Column("detail")],
                    rows: [[.text("overlapping_loans"), .text(detail)]])
            ],
            notes: [String(repeating: "a note that goes on ", count: 20)])
        let markdown = MarkdownWriter().render(report).markdown
        for line in markdown.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 120, String(line)) }
        XCTAssertTrue(markdown.contains("| overlapping_loans | " + String(detail.prefix(59)) + "… |"), markdown)
        XCTAssertTrue(
            markdown.contains("\n- a note") && markdown.contains("goes\n  on a note"),
            "a wrapped note continues indented: \(markdown)")
    }

    /// Every line of the sample Markdown reports fits a chat window.
    func testSampleMarkdownLinesAreAtMost120Characters() throws {
        let reports = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Reports")
        let files = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix(".md") }
        XCTAssertEqual(files.count, 5)
        for file in files {
            let text = try String(contentsOf: reports.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 120, "\(file): \(line)") }
        }
    }
}

/// The PNG pictures are drawn by librsvg from the SVG, not by hand: pixels of the drawing show up.
final class PNGRendererTests: XCTestCase {
    func testAnSVGIsDrawnAtTwiceItsSizeOnWhite() throws {
        let svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"6\">"
            + "<rect x=\"0\" y=\"0\" width=\"5\" height=\"6\" fill=\"#ff0000\"/></svg>"
        let png = try PNGRenderer.png(fromSVG: svg)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(png[16..<20].reduce(0) { $0 << 8 | Int($1) }, 20, "width")
        XCTAssertEqual(png[20..<24].reduce(0) { $0 << 8 | Int($1) }, 12, "height")
    }

    func testBrokenSVGIsAnErrorNotACrash() {
        XCTAssertThrowsError(try PNGRenderer.png(fromSVG: "<svg unclosed")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot draw the chart as PNG: "), "\(error)")
        }
    }

    func testEveryChartOfASampleReportIsDrawn() throws {
        let report = WriterTestSupport.sampleReport
        for chart in report.charts {
            let png = try PNGRenderer.png(fromSVG: SVGCharts.render(chart, in: report))
            XCTAssertGreaterThan(png.count, 2_000, chart.title)
        }
    }
}
