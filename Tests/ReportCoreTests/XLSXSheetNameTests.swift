import Foundation
import XCTest
import ReportModel
import Writers
@testable import ReportModel
@testable import Writers

/// Sheet names: valid for Excel whatever the table titles, unique without regard to case.
final class XLSXSheetNameTests: XCTestCase {
    func testForbiddenCharactersAreReplacedAndApostrophesTrimmed() {
        var names = XLSXSheetNames()
        XCTAssertEqual(names.claim("Loans [2016]: a/b\\c*?"), "Loans _2016__ a_b_c__")
        XCTAssertEqual(names.claim("'Quoted'"), "Quoted")
        XCTAssertEqual(names.claim("tab\there"), "tab_here")
        XCTAssertEqual(names.claim(""), "Sheet")
        XCTAssertEqual(names.claim("'''"), "Sheet (2)")
    }

    func testLongNamesAreCutTo31UTF16Units() {
        var names = XLSXSheetNames()
        let name = names.claim(String(repeating: "é", count: 40))
        XCTAssertEqual(name.utf16.count, 31)
        let emoji = names.claim(String(repeating: "🚗", count: 20))
        XCTAssertLessThanOrEqual(emoji.utf16.count, 31)
        XCTAssertEqual(emoji.unicodeScalars.count, 15)  // whole scalars only
    }

    func testClashesAreCaseInsensitiveAndNumbered() {
        var names = XLSXSheetNames()
        XCTAssertEqual(names.claim("Summary"), "Summary")
        XCTAssertEqual(names.claim("summary"), "summary (2)")
        XCTAssertEqual(names.claim("SUMMARY"), "SUMMARY (3)")
        XCTAssertEqual(names.claim("History"), "History (2)")  // reserved by Excel
        let long = String(repeating: "x", count: 31)
        XCTAssertEqual(names.claim(long), long)
        XCTAssertEqual(names.claim(long), String(repeating: "x", count: 27) + " (2)")
        XCTAssertEqual(names.claimContinuation(of: "Summary", number: 2), "Summary (4)")
    }

    func testClashingAndInvalidTitlesMakeAValidWorkbook() throws {
        let directory = try XLSXTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let columns = [Column("n", .integer)]
        let report = Report(
            kind: "test", title: "Names", scope: "x", asOf: XLSXSampleReport.asOf,
            tables: [
                Table(name: "a", title: "Summary", columns: columns, rows: [[.integer(1)]]),
                Table(name: "b", title: "daily", columns: columns, rows: [[.integer(2)]]),
                Table(name: "c", title: "Daily", columns: columns, rows: [[.integer(3)]]),
                Table(name: "d", title: "What? [all]/*", columns: columns, rows: [[.integer(4)]]),
                Table(name: "e", title: "'Bob's loans'", columns: columns, rows: [[.integer(5)], [.integer(6)]]),
            ], charts: [Chart(.column, title: "Bob", table: "e", category: "n", series: ["n"], fileStem: "bob")])
        let url = directory.appendingPathComponent("names.xlsx")
        let errors = try XLSXTestSupport.capturingStandardError { try XLSXWriter().write(report, to: url) }
        XCTAssertEqual(errors, "")
        let dump = try XLSXTestSupport.dump(url)
        XCTAssertEqual(
            dump.sheets.map(\.name),
            ["Summary", "Summary (2)", "daily", "Daily (2)", "What_ _all___", "Bob's loans"])
        XCTAssertEqual(dump.sheets.map { $0.cell(1, 0)?.v }, [dump.sheets[0].cell(1, 0)?.v, "1", "2", "3", "4", "5"])
        // Two rows (a chart of one point is not drawn, see XLSXPrintTests).
        XCTAssertEqual(dump.charts.first?.refs.last, "'Bob''s loans'!$A$2:$A$3")
    }
}
