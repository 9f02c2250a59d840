import Foundation
import XCTest
import ReportModel
import Time
import Writers
@testable import ReportModel
@testable import Time
@testable import Writers

/// What `Support/xlsx_print.py` reads from a workbook's XML: each sheet's print setup and charts.
struct XLSXPrintDump: Decodable {
    struct ChartAnchor: Decodable {
        let fromCol: Int
        let fromRow: Int
        let toCol: Int
        let toRow: Int
        let axisMin: Double?
    }

    struct Sheet: Decodable {
        let name: String
        let orientation: String
        let paper: String?
        let fitToPage: Bool
        let fitToWidth: Int
        let fitToHeight: Int
        let scale: Int
        let hidden: Bool
        let printTitles: String?
        let printArea: String?
        let header: String?
        let footer: String?
        let widths: [Double?]
        let charts: [ChartAnchor]

        /// The last column and row (0-based) of the print area `Summary!$A$1:$K$33`.
        var printAreaEnd: (column: Int, row: Int)? {
            guard let area = printArea, let end = area.split(separator: ":").last else { return nil }
            let parts = end.split(separator: "$")
            guard parts.count == 2, let row = Int(parts[1]) else { return nil }
            let column = parts[0].unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 } - 1
            return (column, row - 1)
        }
    }

    let sheets: [Sheet]

    func sheet(_ name: String) -> Sheet? { sheets.first { $0.name == name } }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/xlsx_print.py")

    static func read(_ url: URL) throws -> XLSXPrintDump {
        let result = try XLSXTestSupport.run("/usr/bin/env", ["python3", script.path, url.path])
        guard result.status == 0 else {
            XCTFail("xlsx_print.py failed: \(result.error)")
            throw XLSXError.invalid("print dump failed")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(XLSXPrintDump.self, from: result.output)
    }

    /// Every printed table sheet prints at 73 % or more (8-point text), its printed columns (all,
    /// or those of its print area, the footer then saying how many) within the page at that scale
    /// or split behind repeated key columns; every chart lies inside its sheet's print area, and
    /// the Summary is one page: the checks a program can make on what LibreOffice prints.
    static func assertPrintReady(
        _ dump: XLSXPrintDump, title: String, scope: String, book: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for sheet in dump.sheets {
            let context = "\(book) sheet \(sheet.name)"
            XCTAssertEqual(sheet.paper, "9", "A4: " + context, file: file, line: line)
            XCTAssertEqual(sheet.fitToPage, sheet.name == "Summary", context, file: file, line: line)
            XCTAssertEqual(
                sheet.header, XLSXPrintSetup.headerFooter(left: title, right: scope), context, file: file, line: line)
            // A table sheet with a print area prints its leading columns only.
            let printed = sheet.name == "Summary" ? sheet.widths : Array(sheet.widths.prefix(printedColumns(sheet)))
            let name = sheet.name.replacingOccurrences(of: "&", with: "&&")
            if printed.count < sheet.widths.count {
                XCTAssertEqual(
                    sheet.footer?.hasPrefix("&L\(name)&CPrinted: \(printed.count) of \(sheet.widths.count) columns; "),
                    true, "the footer says which columns print: \(context): \(sheet.footer ?? "")", file: file,
                    line: line)
                XCTAssertEqual(sheet.footer?.hasSuffix("&RPage &P of &N"), true, context, file: file, line: line)
            } else {
                XCTAssertEqual(sheet.footer, "&L" + name + "&RPage &P of &N", context, file: file, line: line)
            }
            // The file stores each width with libxlsxwriter's padding of 5 px (0.7109375 characters).
            let width = printed.map { ($0 ?? 9.140625) - 0.7109375 }.reduce(0, +)
            if sheet.name != "Summary" {
                XCTAssertGreaterThanOrEqual(
                    sheet.scale, 73, "no text below 8 points: " + context, file: file, line: line)
                XCTAssertLessThanOrEqual(sheet.scale, 100, context, file: file, line: line)
                let pixels = printed.map { XLSXPrintLayout.pixels(($0 ?? 9.140625) - 0.7109375) }.reduce(0, +)
                let page =
                    sheet.orientation == "landscape" ? XLSXPrintLayout.landscapePixels : XLSXPrintLayout.portraitPixels
                let strips = sheet.printTitles?.contains("$A:$") == true
                XCTAssertTrue(
                    strips || pixels * Double(sheet.scale) / 100 <= page + 1,
                    "the columns (\(width) characters) fit the page at \(sheet.scale) %: " + context, file: file,
                    line: line)
                XCTAssertNotNil(sheet.printTitles, "header row repeated: " + context, file: file, line: line)
            }
            for chart in sheet.charts {
                guard let end = sheet.printAreaEnd else {
                    XCTFail("a sheet with charts has a print area: " + context, file: file, line: line)
                    continue
                }
                XCTAssertLessThanOrEqual(
                    chart.toCol, end.column, "chart inside the print area: " + context, file: file, line: line)
                XCTAssertLessThanOrEqual(
                    chart.toRow, end.row, "chart inside the print area: " + context, file: file, line: line)
            }
        }
        let summary = dump.sheet("Summary")
        XCTAssertEqual(summary?.fitToHeight, 1, "the Summary prints on one page: \(book)", file: file, line: line)
        XCTAssertNotNil(summary?.printArea, book, file: file, line: line)
    }

    /// The columns a table sheet prints: those up to its print area's last column, else all.
    static func printedColumns(_ sheet: Sheet) -> Int {
        sheet.printAreaEnd.map { $0.column + 1 } ?? sheet.widths.count
    }
}

final class XLSXPrintTests: XCTestCase {
    private func write(_ report: Report) throws -> URL {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let url = directory.appendingPathComponent("book.xlsx")
        let errors = try XLSXTestSupport.capturingStandardError { try XLSXWriter().write(report, to: url) }
        XCTAssertEqual(errors, "", "libxlsxwriter printed nothing")
        return url
    }

    func testEverySheetIsSetUpToPrint() throws {
        try XLSXTestSupport.requireOpenpyxl()
        var report = XLSXSampleReport.make()
        let wide = Table(
            name: "wide", columns: (0..<14).map { Column("column_number_\($0)", .integer) },
            rows: [(0..<14).map { .integer($0) }])
        report.tables.append(wide)
        let dump = try XLSXPrintDump.read(write(report))
        XLSXPrintDump.assertPrintReady(dump, title: report.title, scope: report.scope, book: "sample")
        XCTAssertEqual(dump.sheet("Wide")?.orientation, "landscape")
        // 14 columns of 14 characters do not fit a landscape page at 8 points: strips behind column A.
        XCTAssertEqual(dump.sheet("Wide")?.scale, 73)
        XCTAssertEqual(dump.sheet("Wide")?.printTitles, "Wide!$A:$A,Wide!$1:$1")
        XCTAssertEqual(dump.sheet("Vehicles")?.orientation, "portrait")
        XCTAssertEqual(dump.sheet("Vehicles")?.printTitles, "Vehicles!$1:$1")
        XCTAssertEqual(dump.sheet("Heat map")?.printTitles, "'Heat map'!$2:$2")
        // Both charts of more than one point are drawn, beside the figures.
        XCTAssertEqual(dump.sheet("Summary")?.charts.count, 3)
        XCTAssertEqual(dump.sheet("Summary")?.charts.first?.fromCol, Int(XLSXCharts.column))
    }

    /// A table that prints some of its columns: they lead the sheet (table order), the print area
    /// stops after them and the footer says so; every column is still on screen, charts still
    /// find their columns, and the CSV keeps the table's columns in the table's order.
    func testATableThatPrintsSomeColumnsPutsThemFirstAndPrintsOnlyThem() throws {
        let daily = Table(
            name: "daily",
            columns: [
                Column("day", .date), Column("planned", .integer), Column("done", .integer), Column("note"),
            ],
            rows: [
                [XLSXSampleReport.day("2026-11-01"), .integer(4), .integer(3), .text("rain")],
                [XLSXSampleReport.day("2026-11-02"), .integer(5), .integer(5), .empty],
            ]
        ).keyed("day").printed(["done", "day"])
        let report = Report(
            kind: "t", title: "T", scope: "s", asOf: XLSXSampleReport.asOf, tables: [daily],
            charts: [Chart(.column, title: "Done", table: "daily", category: "day", series: ["done"], fileStem: "d")])
        let url = try write(report)
        let sheet = try XCTUnwrap(XLSXTestSupport.dump(url).sheet("Daily"))
        XCTAssertEqual(sheet.rows[0].map(\.v), ["Day", "Done", "Planned", "Note"])
        XCTAssertEqual(sheet.rows[1].map(\.v), ["2026-11-01T00:00:00", "3", "4", "rain"])
        XCTAssertEqual(sheet.autoFilter, "A1:D3", "every column is on screen and filtered")
        let print = try XLSXPrintDump.read(url)
        let printed = try XCTUnwrap(print.sheet("Daily"))
        XCTAssertEqual(printed.printArea, "Daily!$A$1:$B$3")
        XCTAssertEqual(
            printed.footer,
            "&LDaily&CPrinted: 2 of 4 columns; the other 2 are on screen and in daily.csv&RPage &P of &N")
        XCTAssertEqual(printed.orientation, "portrait")
        XLSXPrintDump.assertPrintReady(print, title: "T", scope: "s", book: "printed columns")
        let chart = try XCTUnwrap(XLSXTestSupport.dump(url).charts.first)
        XCTAssertEqual(chart.refs, ["Daily!$B$1", "Daily!$A$2:$A$3", "Daily!$B$2:$B$3"])
        let folder = try WriterTestSupport.temporaryDirectory(for: self)
        let files = try CSVWriter().write(report, to: folder)
        let csv = try String(
            contentsOf: try XCTUnwrap(files.first { $0.lastPathComponent == "daily.csv" }), encoding: .utf8)
        XCTAssertEqual(csv.split(separator: "\r\n").first, "day,planned,done,note")
        XCTAssertEqual(csv.split(separator: "\r\n").dropFirst().first, "2026-11-01,4,3,rain")
    }

    /// Printed columns that already lead keep the table's order; a choice of every column, or of
    /// none the table has, prints the whole sheet.
    func testPrintedColumnsKeepTheTableOrderWhenTheyLead() {
        let table = Table(
            name: "t", columns: ["a", "b", "c", "d"].map { Column($0) }, rows: [[.text("1"), .text("2")]])
        XCTAssertEqual(XLSXSheetColumns(table), XLSXSheetColumns(order: [0, 1, 2, 3], printed: 4))
        XCTAssertEqual(XLSXSheetColumns(table.printed(["b", "a"])), XLSXSheetColumns(order: [0, 1, 2, 3], printed: 2))
        XCTAssertEqual(XLSXSheetColumns(table.printed(["d", "b"])), XLSXSheetColumns(order: [1, 3, 0, 2], printed: 2))
        XCTAssertEqual(
            XLSXSheetColumns(table.printed(["a", "b", "c", "d"])), XLSXSheetColumns(order: [0, 1, 2, 3], printed: 4))
        XCTAssertEqual(XLSXSheetColumns(table.printed(["x"])), XLSXSheetColumns(order: [0, 1, 2, 3], printed: 4))
        let reordered = XLSXSheetColumns(table.printed(["d", "b"]))
        XCTAssertEqual(reordered.arranged([.text("1"), .text("2")]), [.text("2"), .empty, .text("1"), .empty])
        XCTAssertNil(XLSXSheetColumns(table).footerNote(table: table))
        var screenOnly = table.printed(["a"])
        screenOnly.outputs = [.xlsx]
        XCTAssertEqual(
            XLSXSheetColumns(screenOnly).footerNote(table: screenOnly),
            "Printed: 1 of 4 columns; the other 3 are on screen only")
    }

    /// A heat map small enough prints on the Summary under the charts, in colour, its own sheet
    /// hidden (kept, as the grid a person may sort or copy); a tall one keeps a sheet of its own.
    func testASmallHeatMapPrintsOnTheSummary() throws {
        var report = XLSXSampleReport.make()
        report.charts.removeLast()
        let url = try write(report)
        let print = try XLSXPrintDump.read(url)
        XLSXPrintDump.assertPrintReady(print, title: report.title, scope: report.scope, book: "small heat map")
        XCTAssertEqual(print.sheet("Heat map")?.hidden, true)
        let book = try XLSXTestSupport.dump(url)
        let summary = try XCTUnwrap(book.sheet("Summary"))
        let column = Int(XLSXCharts.column)
        let top = try XCTUnwrap(summary.rows.firstIndex { $0.count > column && $0[column].v == "Damage zones" })
        XCTAssertGreaterThanOrEqual(top, 2 * Int(XLSXCharts.rowsPerChart), "under the two charts")
        XCTAssertEqual(summary.rows[top + 1].dropFirst(column + 1).map(\.v), ["A", "B", "C"])
        XCTAssertEqual(summary.rows[top + 3].dropFirst(column).map(\.v), ["2", "2", "0", "7"])
        XCTAssertEqual(summary.conditionalFormats?.first?.types, ["colorScale"])
        let end = try XCTUnwrap(print.sheet("Summary")?.printAreaEnd)
        XCTAssertEqual(end.row, top + 3, "the print area ends with the grid")
        XCTAssertGreaterThanOrEqual(end.column, column + 3)
        XCTAssertLessThanOrEqual(
            end.row + 1, XLSXPrintLayout.rowsOnPage(landscape: true, scale: XLSXPrintLayout.minimumScale),
            "the Summary keeps 8-point text")
        XCTAssertEqual(book.sheet("Heat map")?.cell(3, 3)?.v, "7", "the grid stays on its sheet too")

        report.heatMap = HeatMap(
            title: "Tall", rowLabels: (1...40).map(String.init), columnLabels: ["A"],
            cells: Array(repeating: [1.0], count: 40), fileStem: "tall")
        let tallURL = try write(report)
        XCTAssertEqual(
            try XLSXPrintDump.read(tallURL).sheet("Heat map")?.hidden, false,
            "40 rows would make the Summary's text too small")
        let tallSummary = try XCTUnwrap(XLSXTestSupport.dump(tallURL).sheet("Summary"))
        XCTAssertFalse(tallSummary.rows.contains { $0.contains { $0.v == "Tall" } })
    }

    /// `&` starts a code in a page header: a title holding one is doubled, and a long title is
    /// cut to libxlsxwriter's 255 bytes instead of making it print a warning.
    func testHeaderTextIsEscapedAndCut() {
        XCTAssertEqual(XLSXPrintSetup.headerFooter(left: "Salon A&B", right: "x&y"), "&LSalon A&&B&Rx&&y")
        XCTAssertEqual(
            XLSXPrintSetup.headerFooter(left: "Loans", center: "8 of 18 & more", right: "Page &P", rightIsCode: true),
            "&LLoans&C8 of 18 && more&RPage &P")
        let long = XLSXPrintSetup.headerFooter(left: String(repeating: "é&", count: 200), right: "scope")
        XCTAssertLessThanOrEqual(long.utf8.count, XLSXPrintSetup.maximumHeaderLength)
        XCTAssertTrue(long.hasSuffix("…&Rscope"), long)
        XCTAssertFalse(long.dropLast("…&Rscope".count).hasSuffix("é&"), "no half of a doubled &")
    }

    /// Numbers' headers are right-aligned over their numbers, booleans' centred; every boolean
    /// cell has the same TRUE/FALSE format; value axes start at 0 when no value is negative.
    func testHeadersAlignWithTheirColumnsAndBooleansAreOneKind() throws {
        let url = try write(XLSXSampleReport.make())
        let dump = try XLSXTestSupport.dump(url)
        let loans = try XCTUnwrap(dump.sheet("Loans"))
        XCTAssertEqual(loans.rows[0].map(\.a), ["right", "right", "center", nil])
        XCTAssertEqual(loans.cell(1, 2)?.t, "b")
        XCTAssertEqual(loans.cell(1, 2)?.f, XLSXCellValues.booleanFormat)
        XCTAssertEqual(loans.cell(2, 2)?.f, XLSXCellValues.booleanFormat)
        XCTAssertEqual(dump.sheet("Vehicles")?.rows[0].map(\.a), [nil, "right", "right", "right", "right", "right"])
        let print = try XLSXPrintDump.read(url)
        // Daily utilization (column) and check-outs (line) are never negative: both from 0.
        XCTAssertEqual(print.sheet("Summary")?.charts.compactMap(\.axisMin), [0, 0])
    }

    /// A value axis over a negative number is left to the program: 0 would hide the bar.
    func testAnAxisOverNegativeValuesIsNotPinnedAtZero() throws {
        let table = Table(
            name: "t", columns: [Column("day", .date), Column("delta", .integer)],
            rows: [
                [XLSXSampleReport.day("2016-10-01"), .integer(-3)],
                [XLSXSampleReport.day("2016-10-02"), .integer(5)],
            ])
        let report = Report(
            kind: "t", title: "T", scope: "s", asOf: XLSXSampleReport.asOf, tables: [table],
            charts: [Chart(.column, title: "Delta", table: "t", category: "day", series: ["delta"], fileStem: "d")])
        let print = try XLSXPrintDump.read(write(report))
        XCTAssertEqual(print.sheet("Summary")?.charts.count, 1)
        XCTAssertNil(print.sheet("Summary")?.charts.first?.axisMin)
    }

    /// A one-day report: its line chart of one point is a sentence on the Summary, with the day
    /// and the value, and no chart (LibreOffice would draw nothing, labelled 2026-01-01).
    func testAChartOfOnePointIsASentenceInstead() throws {
        let table = Table(
            name: "daily_average", title: "Average daily score",
            columns: [Column("day", .date), Column("average_score", .decimal(places: 2))],
            rows: [[XLSXSampleReport.day("2026-11-28"), .number(47.5)]])
        let report = Report(
            kind: "habits", title: "Habits report", scope: "2026-11-28", asOf: XLSXSampleReport.asOf,
            tables: [table],
            charts: [
                Chart(
                    .line, title: "Average daily score", table: "daily_average", category: "day",
                    series: ["average_score"], fileStem: "score")
            ])
        let url = try write(report)
        XCTAssertEqual(try XLSXPrintDump.read(url).sheet("Summary")?.charts.count, 0)
        let summary = try XCTUnwrap(XLSXTestSupport.dump(url).sheet("Summary"))
        let sentence =
            "Average daily score: one day only (2026-11-28: 47.50), so it is given here rather than drawn as a chart."
        XCTAssertTrue(summary.rows.contains { $0.first?.v == sentence }, "\(summary.rows.map { $0.first?.v })")
        let markdown = MarkdownWriter().render(report)
        XCTAssertTrue(markdown.svgs.isEmpty, "no SVG of a lone dot")
        XCTAssertTrue(markdown.markdown.contains("\n" + sentence + "\n"), markdown.markdown)
    }

    /// A chart with nothing to draw (all zeros, no value, no row) and a heat map with no cell above 0
    /// are not drawn in the workbook nor as pictures: one sentence each says so and why.
    func testAChartWithNothingToDrawIsASentenceInstead() throws {
        let zeros = Table(
            name: "damage_by_type", columns: [Column("type"), Column("new_impacts", .integer)],
            rows: [[.text("scratch"), .integer(0)], [.text("impact"), .integer(0)]], outputs: [.xlsx, .markdown])
        let blanks = Table(
            name: "daily", columns: [Column("day", .date), Column("utilization", .percent)],
            rows: [[XLSXSampleReport.day("2026-11-27"), .empty], [XLSXSampleReport.day("2026-11-28"), .empty]],
            outputs: [.xlsx, .markdown])
        let heatMap = HeatMap(
            title: "New damage by zone", rowLabels: ["1", "2"], columnLabels: ["A", "B"], cells: [[0, 0], [0, 0]],
            fileStem: "heatmap")
        let report = Report(
            kind: "fleet", title: "Fleet", scope: "s", asOf: XLSXSampleReport.asOf, tables: [zeros, blanks],
            charts: [
                Chart(
                    .pie, title: "New damage by type", table: "damage_by_type", category: "type",
                    series: ["new_impacts"], fileStem: "pie"),
                Chart(
                    .column, title: "Daily fleet utilization", table: "daily", category: "day",
                    series: ["utilization"], fileStem: "column"),
            ], heatMap: heatMap)
        let sentences = [
            "New damage by type: nothing to chart, as every new impacts is 0 in this period.",
            "Daily fleet utilization: nothing to chart, as no day has a utilization.",
            "New damage by zone: nothing to chart, as every cell is 0 in this period.",
        ]
        let url = try write(report)
        XCTAssertEqual(try XLSXPrintDump.read(url).sheet("Summary")?.charts.count, 0, "no empty pie on the Summary")
        let book = try XLSXTestSupport.dump(url)
        XCTAssertNil(book.sheet("Heat map"), "no sheet of blank cells under a 0–0 scale")
        let summary = try XCTUnwrap(book.sheet("Summary"))
        for sentence in sentences {
            XCTAssertTrue(
                summary.rows.contains { $0.first?.v == sentence }, "\(sentence): \(summary.rows.map { $0.first?.v })")
        }
        let markdown = MarkdownWriter().render(report)
        XCTAssertTrue(markdown.svgs.isEmpty, "no “No data” picture")
        for sentence in sentences { XCTAssertTrue(markdown.markdown.contains("\n" + sentence + "\n"), sentence) }
    }

    /// The heat map sheet: a header over every column, days as date cells wide enough to read,
    /// ratios in a whole-percent format.
    func testHeatMapOfDaysHasDateCellsPercentsAndWordHeaders() throws {
        let days = ["2026-11-01", "2026-11-02"].compactMap(Day.init)
        let heatMap = HeatMap(
            title: "Occupancy by day and period", rowLabels: days.map(\.description),
            columnLabels: ["Morning", "Afternoon", "Evening"],
            cells: [[0.5, 2.0 / 3.0, .nan], [1.25, 0, 1]], fileStem: "occupancy",
            rowDays: days, valueType: .percent, rowHeader: "Day")
        let report = Report(
            kind: "bookings", title: "B", scope: "2026-11", asOf: XLSXSampleReport.asOf, heatMap: heatMap)
        let url = try write(report)
        let sheet = try XCTUnwrap(XLSXTestSupport.dump(url).sheet("Heat map"))
        XCTAssertEqual(sheet.rows[1].map(\.v), ["Day", "Morning", "Afternoon", "Evening"])
        XCTAssertEqual(sheet.cell(2, 0)?.t, "d")
        XCTAssertEqual(sheet.cell(2, 0)?.v, "2026-11-01T00:00:00")
        XCTAssertEqual(sheet.cell(2, 0)?.f, "yyyy-mm-dd")
        XCTAssertEqual(sheet.cell(2, 1)?.f, "0%")
        XCTAssertEqual(sheet.cell(2, 3)?.v, nil, "no capacity: blank, not 0")
        XCTAssertEqual(Double(sheet.cell(3, 1)?.v ?? ""), 1.25)
        let widths = try XLSXPrintDump.read(url).sheet("Heat map")?.widths ?? []
        XCTAssertGreaterThanOrEqual(widths.first.flatMap { $0 } ?? 0, 11, "a date needs 10 characters")
        XCTAssertGreaterThanOrEqual(widths.dropFirst().compactMap { $0 }.min() ?? 0, 10, "“Afternoon” fits")
    }
}
