import Foundation
import XCTest
import ReportModel
import Writers
@testable import ReportModel
@testable import Writers

/// Excel's limits: 32,767 characters a cell, 1,048,576 rows a sheet; and empty tables.
final class XLSXLimitsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try XLSXTestSupport.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func report(_ tables: [Table]) -> Report {
        Report(kind: "test", title: "Limits", scope: "x", asOf: XLSXSampleReport.asOf, tables: tables)
    }

    func testTooLongStringsAreCutMarkedAndNotedOnTheSummary() throws {
        let long = String(repeating: "ab", count: 20_000)
        let wide = String(repeating: "é", count: 40_000)  // 80,000 UTF-8 bytes, 40,000 characters
        let fits = String(repeating: "z", count: 32_767)
        let table = Table(
            name: "notes", columns: [Column("text")], rows: [[.text(long)], [.text(wide)], [.text(fits)]])
        let url = directory.appendingPathComponent("long.xlsx")
        let errors = try XLSXTestSupport.capturingStandardError { try XLSXWriter().write(report([table]), to: url) }
        XCTAssertEqual(errors, "")
        let dump = try XLSXTestSupport.dump(url)
        let sheet = try XCTUnwrap(dump.sheet("Notes"))
        let first = try XCTUnwrap(sheet.cell(1, 0)?.v)
        XCTAssertEqual(first.utf16.count, 32_767)
        XCTAssertTrue(first.hasSuffix("…[cut]"))
        XCTAssertTrue(first.hasPrefix("abab"))
        let second = try XCTUnwrap(sheet.cell(2, 0)?.v)
        XCTAssertEqual(second.utf16.count, 32_767)
        XCTAssertEqual(sheet.cell(3, 0)?.v, fits)
        let summary = try XCTUnwrap(dump.sheet("Summary"))
        let notes = summary.rows.compactMap { $0.first?.v }.filter { $0.contains("32,767") }
        XCTAssertEqual(notes.count, 1)
        XCTAssertTrue(notes[0].hasPrefix("2 text cells were"), notes[0])
        XCTAssertTrue(notes[0].contains("Notes!A2"), notes[0])
    }

    func testCutKeepsWholeScalars() throws {
        let text = String(repeating: "🚗", count: 20_000)  // 40,000 UTF-16 units
        let cut = try XCTUnwrap(XLSXCellValues.cutIfTooLong(text))
        XCTAssertLessThanOrEqual(cut.utf16.count, 32_767)
        XCTAssertTrue(cut.dropLast(6).allSatisfy { $0 == "🚗" })
        XCTAssertNil(XLSXCellValues.cutIfTooLong(String(repeating: "é", count: 32_767)))
    }

    func testEmptyTableGetsItsHeaderAndFilterOnly() throws {
        let table = Table(
            name: "loans", columns: [Column("id", .integer), Column("rate", .percent, dataBar: true)], rows: [])
        let chart = Chart(.line, title: "Rates", table: "loans", category: "id", series: ["rate"], fileStem: "rates")
        let report = Report(
            kind: "test", title: "Empty", scope: "x", asOf: XLSXSampleReport.asOf,
            tables: [table], charts: [chart])
        let url = directory.appendingPathComponent("empty.xlsx")
        let errors = try XLSXTestSupport.capturingStandardError { try XLSXWriter().write(report, to: url) }
        XCTAssertEqual(errors, "")
        let dump = try XLSXTestSupport.dump(url)
        let sheet = try XCTUnwrap(dump.sheet("Loans"))
        XCTAssertEqual(sheet.rows.count, 1)
        XCTAssertEqual(sheet.rows[0].map(\.v), ["Id", "Rate"])
        XCTAssertEqual(sheet.autoFilter, "A1:B1")
        XCTAssertEqual(sheet.freezePanes, "A2")
        XCTAssertEqual(sheet.conditionalFormats?.count, 0)
        XCTAssertTrue(dump.charts.isEmpty)
        let notes = try XCTUnwrap(dump.sheet("Summary")).rows.compactMap { $0.first?.v }
        XCTAssertTrue(notes.contains("Rates: nothing to chart, as the period has no id rows."), "\(notes)")
    }

    func testRowsPastTheSheetLimitContinueOnNumberedSheets() throws {
        var writer = XLSXWriter()
        writer.dataRowsPerSheet = 4
        let rows = (1...10).map { [Value.integer($0), .number(Double($0) / 10)] }
        let table = Table(
            name: "loans", columns: [Column("id", .integer), Column("rate", .percent, dataBar: true)],
            rows: rows)
        let url = directory.appendingPathComponent("split.xlsx")
        try writer.write(report([table, Table(name: "after", columns: [Column("n")], rows: [[.text("x")]])]), to: url)
        let dump = try XLSXTestSupport.dump(url)
        XCTAssertEqual(dump.sheets.map(\.name), ["Summary", "Loans", "Loans (2)", "Loans (3)", "After"])
        XCTAssertEqual(
            dump.sheets[1...3].map { $0.rows.compactMap { $0.first?.v } },
            [["Id", "1", "2", "3", "4"], ["Id", "5", "6", "7", "8"], ["Id", "9", "10"]])
        XCTAssertEqual(dump.sheets[1...3].map(\.autoFilter), ["A1:B5", "A1:B5", "A1:B3"])
        XCTAssertEqual(dump.sheets[1...3].map(\.freezePanes), ["A2", "A2", "A2"])
        XCTAssertEqual(
            dump.sheets[1...3].map { $0.conditionalFormats?.map(\.range) ?? [] }, [["B2:B5"], ["B2:B5"], ["B2:B3"]])
    }

    func testATableWithAWorkbookRowLimitStaysOneSheetAndPointsToItsCSV() throws {
        for counted in [true, false] {
            let values = (1...10).map { [Value.integer($0), .number(Double($0) / 10)] }
            var table = Table(
                name: "daily", columns: [Column("id", .integer), Column("rate", .percent, dataBar: true)],
                rows: counted ? Rows(values) : Rows { AnyIterator(values.makeIterator()) })
            table.workbookRowLimit = 4
            let url = directory.appendingPathComponent("capped-\(counted).xlsx")
            try XLSXWriter().write(
                report([table, Table(name: "after", columns: [Column("n")], rows: [[.text("x")]])]), to: url)
            let dump = try XLSXTestSupport.dump(url)
            XCTAssertEqual(dump.sheets.map(\.name), ["Summary", "Daily", "After"])
            XCTAssertEqual(
                dump.sheets[1].rows.compactMap { $0.first?.v },
                [
                    "Id", "1", "2", "3", "4", "The sheet shows the first 4 of 10 rows; the full table is in daily.csv.",
                ])
            XCTAssertEqual(dump.sheets[1].autoFilter, "A1:B5")
            XCTAssertEqual(dump.sheets[1].conditionalFormats?.map(\.range), ["B2:B5"])
        }
    }

    func testAWorkbookRowLimitAboveTheRowsChangesNothing() throws {
        var table = Table(name: "daily", columns: [Column("id", .integer)], rows: [[.integer(1)], [.integer(2)]])
        table.workbookRowLimit = 2
        let url = directory.appendingPathComponent("under.xlsx")
        try XLSXWriter().write(report([table]), to: url)
        XCTAssertEqual(try XLSXTestSupport.dump(url).sheets[1].rows.compactMap { $0.first?.v }, ["Id", "1", "2"])
    }

    /// The real limit: 1,048,575 data rows fill the first sheet, the rest go to `Ids (2)`.
    func testMoreThanAMillionRowsSplitAtExcelsLimit() throws {
        let total = 1_048_575 + 1_500
        let rows = Rows(count: total) {
            var next = 0
            return AnyIterator {
                guard next < total else { return nil }
                next += 1
                return [.integer(Int64(next))]
            }
        }
        let table = Table(name: "ids", columns: [Column("id", .integer)], rows: rows)
        let url = directory.appendingPathComponent("million.xlsx")
        let errors = try XLSXTestSupport.capturingStandardError { try XLSXWriter().write(report([table]), to: url) }
        XCTAssertEqual(errors, "")
        let dump = try XLSXTestSupport.dump(url, countsOnly: true)
        XCTAssertEqual(dump.sheets.map(\.name), ["Summary", "Ids", "Ids (2)"])
        XCTAssertEqual(dump.sheets[1].rowCount, 1_048_576)
        XCTAssertEqual(dump.sheets[2].rowCount, 1_501)
        XCTAssertEqual(dump.sheets[2].rows.map { $0.first?.v }, ["Id", "1048576"])
    }
}
