import XCTest
@testable import Writers

/// The print layout rules of `XLSXPrintLayout`: never below 8-point text, portrait when the
/// columns fit, the fewest pages, and strips behind repeated key columns past landscape's width.
final class XLSXPrintLayoutTests: XCTestCase {
    func testNarrowTablesPrintPortraitAtFullSize() {
        // The bookings Daily sheet: 7 columns.
        let layout = XLSXPrintLayout.choose(widths: [12, 10, 11, 9, 8, 15, 16], keyColumns: 1, rows: 32)
        XCTAssertEqual(layout, XLSXPrintLayout(landscape: false, scale: 100, repeatColumns: 0))
    }

    func testAScaleIsNeverBelowEightPointText() {
        for columns in 1...40 {
            for rows in [2, 40, 300, 5_000] {
                let layout = XLSXPrintLayout.choose(
                    widths: Array(repeating: 14, count: columns), keyColumns: 1, rows: rows)
                XCTAssertGreaterThanOrEqual(layout.scale, XLSXPrintLayout.minimumScale, "\(columns) columns")
                XCTAssertLessThanOrEqual(layout.scale, 100)
                // A layout without strips fits its columns at its scale.
                if layout.repeatColumns == 0 {
                    let width = layout.landscape ? XLSXPrintLayout.landscapePixels : XLSXPrintLayout.portraitPixels
                    let total = Double(columns) * XLSXPrintLayout.pixels(14)
                    XCTAssertLessThanOrEqual(total * Double(layout.scale) / 100, width + 0.001, "\(columns) columns")
                }
            }
        }
    }

    /// The fleet Loans sheet (18 columns): strips behind its key column, at 8 points.
    func testATooWideTableSplitsBehindItsKeyColumns() {
        let loans: [Double] = [15, 10, 13, 24, 11, 18, 18, 18, 18, 10, 12, 7, 10, 13, 13, 12, 11, 11]
        let layout = XLSXPrintLayout.choose(widths: loans, keyColumns: 1, rows: 297)
        XCTAssertEqual(layout.scale, 73)
        XCTAssertEqual(layout.repeatColumns, 1)
        XCTAssertEqual(
            XLSXPrintLayout.strips(loans, key: 1, pageWidth: XLSXPrintLayout.landscapePixels * 100 / 73), 2)
    }

    /// The columns the fleet Loans sheet prints (assignment, plate, driver, out at, in at, late
    /// minutes, km, new impacts, `Table.printColumns`): one portrait strip at 8 points or more,
    /// 5 pages for the sample's 294 loans where the 18 columns took two landscape strips of 7.
    func testTheFleetLoansPrintedColumnsFitOnePortraitStrip() {
        let printed: [Double] = [15, 10, 24, 18, 18, 12, 7, 12]
        // A two-line header and 294 loans.
        let layout = XLSXPrintLayout.choose(widths: printed, keyColumns: 1, rows: 296)
        XCTAssertFalse(layout.landscape)
        XCTAssertEqual(layout.repeatColumns, 0)
        XCTAssertGreaterThanOrEqual(layout.scale, XLSXPrintLayout.minimumScale)
        XCTAssertEqual(XLSXPrintLayout.pages(rows: 296, landscape: false, scale: layout.scale), 5)
    }

    /// A long table takes the scale that gives it its fewest pages, not a larger one that adds a page.
    func testALongTableTakesTheScaleOfItsFewestPages() {
        let layout = XLSXPrintLayout.choose(widths: [12, 13, 11, 14, 11, 14, 11, 11], keyColumns: 1, rows: 65)
        XCTAssertFalse(layout.landscape)
        XCTAssertEqual(XLSXPrintLayout.pages(rows: 65, landscape: false, scale: layout.scale), 1)
        XCTAssertEqual(XLSXPrintLayout.pages(rows: 65, landscape: false, scale: layout.scale + 1), 2)
    }
}
