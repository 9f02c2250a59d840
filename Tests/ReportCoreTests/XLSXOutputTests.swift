import Foundation
import XCTest
import ReportModel
import Time
import Writers
@testable import ReportModel
@testable import Time
@testable import Writers

/// The file itself: atomic replacement, clear errors for unusable paths, a silent stderr.
final class XLSXOutputTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try XLSXTestSupport.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testWritingLeavesOnlyTheWorkbookAndReplacesAnOldOne() throws {
        let url = directory.appendingPathComponent("book.xlsx")
        try Data("old".utf8).write(to: url)
        try XLSXWriter().write(XLSXSampleReport.make(), to: url)
        XCTAssertEqual(XLSXTestSupport.files(in: directory), ["book.xlsx"])
        let bytes = try Data(contentsOf: url)
        XCTAssertEqual(Array(bytes.prefix(2)), [0x50, 0x4B])  // a zip, no longer "old"
    }

    func testMissingFolderIsAClearErrorAndWritesNothing() throws {
        let url = directory.appendingPathComponent("no/such/folder/book.xlsx")
        var thrown: Error?
        let errors = try XLSXTestSupport.capturingStandardError {
            XCTAssertThrowsError(try XLSXWriter().write(XLSXSampleReport.make(), to: url)) { thrown = $0 }
        }
        XCTAssertEqual(errors, "")
        let error = try XCTUnwrap(thrown as? XLSXError)
        XCTAssertTrue(error.description.contains("does not exist"), error.description)
        XCTAssertTrue(error.description.contains("book.xlsx"), error.description)
        XCTAssertEqual(XLSXTestSupport.files(in: directory), [])
    }

    func testAFolderIsNotAnOutputFile() throws {
        let folder = directory.appendingPathComponent("book.xlsx", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        XCTAssertThrowsError(try XLSXWriter().write(XLSXSampleReport.make(), to: folder)) { error in
            XCTAssertTrue("\(error)".contains("is a folder"), "\(error)")
        }
        XCTAssertThrowsError(try XLSXWriter().write(XLSXSampleReport.make(), to: directory)) { error in
            XCTAssertTrue("\(error)".contains("folder"), "\(error)")
        }
        XCTAssertEqual(XLSXTestSupport.files(in: directory), ["book.xlsx"])
    }

    func testNonFileURLIsRefused() throws {
        let url = try XCTUnwrap(URL(string: "https://example.com/book.xlsx"))
        XCTAssertThrowsError(try XLSXWriter().write(XLSXSampleReport.make(), to: url)) { error in
            XCTAssertTrue("\(error)".contains("local file"), "\(error)")
        }
    }

    func testTooManyColumnsFailsBeforeTheLibraryAndKeepsTheOldFile() throws {
        let url = directory.appendingPathComponent("wide.xlsx")
        try Data("old".utf8).write(to: url)
        let columns = (0...XLSXTableSheet.maximumColumns).map { Column("c\($0)", .integer) }
        let report = Report(
            kind: "t", title: "Wide", scope: "x", asOf: XLSXSampleReport.asOf,
            tables: [Table(name: "wide", columns: columns, rows: [])])
        var thrown: Error?
        let errors = try XLSXTestSupport.capturingStandardError {
            XCTAssertThrowsError(try XLSXWriter().write(report, to: url)) { thrown = $0 }
        }
        XCTAssertEqual(errors, "")
        XCTAssertTrue("\(thrown.map { "\($0)" } ?? "")".contains("16384"))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "old")
        XCTAssertEqual(XLSXTestSupport.files(in: directory), ["wide.xlsx"])
    }

    func testLibraryErrorsNameCodeMessageSheetAndCell() {
        let error = XLSXError(
            code: 21, message: "String exceeds Excel's limit of 32,767 characters.",
            sheet: "Loans", cell: "B7")
        XCTAssertEqual(
            error.description,
            "XLSX error 21: String exceeds Excel's limit of 32,767 characters. - sheet \"Loans\", cell B7")
        XCTAssertEqual(XLSXCellReference.name(row: 0, column: 0), "A1")
        XCTAssertEqual(XLSXCellReference.name(row: 6, column: 27), "AB7")
        XCTAssertEqual(XLSXCellReference.columnName(16_383), "XFD")
    }

    func testTheSampleReportPrintsNothingOnStandardError() throws {
        let url = directory.appendingPathComponent("quiet.xlsx")
        let errors = try XLSXTestSupport.capturingStandardError {
            try XLSXWriter().write(XLSXSampleReport.make(), to: url)
        }
        XCTAssertEqual(errors, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
    }

    func testSerialNumbersMatchExcel() throws {
        XCTAssertEqual(XLSXCellValues.serial(of: try XCTUnwrap(Day("1970-01-01"))), 25_569)
        XCTAssertEqual(XLSXCellValues.serial(of: try XCTUnwrap(Day("1900-03-01"))), 61)
        XCTAssertNil(XLSXCellValues.serial(of: try XCTUnwrap(Day("1900-02-28"))))
        let noon = try XCTUnwrap(Timestamp("2016-10-01T12:00:00+02:00"))
        XCTAssertEqual(try XCTUnwrap(XLSXCellValues.serial(of: noon)), 42_644.5, accuracy: 1e-9)
    }
}
