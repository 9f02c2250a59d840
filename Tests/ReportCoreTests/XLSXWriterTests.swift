import Foundation
import XCTest
import Writers
@testable import Writers

/// The workbook read back through openpyxl: sheets, real cell types, number formats, header
/// features, conditional formats, charts and document properties.
final class XLSXWriterTests: XCTestCase {
    /// The sample report is written and read back once for all the tests of this class.
    private static let written: Result<XLSXDump, Error> = Result {
        let directory = try XLSXTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("fleet-salon2016.xlsx")
        try XLSXWriter().write(XLSXSampleReport.make(), to: url)
        return try XLSXTestSupport.dump(url)
    }

    private var dump: XLSXDump!

    override func setUpWithError() throws {
        dump = try XLSXWriterTests.written.get()
    }

    func testSheetsComeInOrderWithQualityLastAndCSVOnlyTablesLeftOut() {
        XCTAssertEqual(
            dump.sheets.map(\.name),
            ["Summary", "Heat map", "Vehicles", "Daily", "Loans", "Damage types", "Quality"])
    }

    func testTableCellsHaveRealTypesAndNumberFormats() throws {
        let vehicles = try XCTUnwrap(dump.sheet("Vehicles"))
        XCTAssertEqual(
            vehicles.rows.first?.map(\.v), ["Plate", "Loans", "Hours out", "Utilization", "Km", "Revenue eur"])
        let first = try XCTUnwrap(vehicles.rows.dropFirst().first)
        XCTAssertEqual(first.map(\.t), ["s", "n", "n", "n", "n", "n"])
        XCTAssertEqual(first.map(\.f), ["General", "0", "0.00", "0.0%", "0.0", "#,##0.00 €"])
        XCTAssertEqual(first[1].v.flatMap(Double.init), 3)
        XCTAssertEqual(try XCTUnwrap(first[3].v.flatMap(Double.init)), 0.7312, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(first[5].v.flatMap(Double.init)), 1234.5, accuracy: 1e-12)
        // An empty value leaves the cell empty; a formula-looking text stays text.
        XCTAssertNil(vehicles.cell(2, 4)?.v)
        XCTAssertEqual(vehicles.cell(3, 0)?.v, "=cmd|'/c calc'!A1")
        XCTAssertEqual(vehicles.cell(3, 0)?.t, "s")
    }

    func testDaysAreDatesAndTimestampsAreLocalWallClockDatetimes() throws {
        let daily = try XCTUnwrap(dump.sheet("Daily"))
        XCTAssertEqual(daily.cell(1, 0)?.t, "d")
        XCTAssertEqual(daily.cell(1, 0)?.f, "yyyy-mm-dd")
        XCTAssertEqual(daily.cell(1, 0)?.v, "2016-10-01T00:00:00")
        let loans = try XCTUnwrap(dump.sheet("Loans"))
        XCTAssertEqual(loans.cell(1, 1)?.t, "d")
        XCTAssertEqual(loans.cell(1, 1)?.f, "yyyy-mm-dd hh:mm")
        XCTAssertEqual(loans.cell(1, 1)?.v, "2016-10-01T09:12:30")
        // Shown at its own offset (-05:00), not converted to UTC or to the machine's zone.
        XCTAssertEqual(loans.cell(2, 1)?.v, "2016-10-01T23:30:00")
    }

    func testBooleansAreBooleansAndUnicodeTextSurvives() throws {
        let loans = try XCTUnwrap(dump.sheet("Loans"))
        XCTAssertEqual(loans.cell(1, 2)?.t, "b")
        XCTAssertEqual(loans.cell(1, 2)?.v, "true")
        XCTAssertEqual(loans.cell(2, 2)?.v, "false")
        XCTAssertEqual(loans.cell(1, 3)?.v, "Élodie Dupont")
    }

    func testHeaderIsBoldFrozenAndFiltered() throws {
        for name in ["Vehicles", "Daily", "Loans", "Damage types", "Quality"] {
            let sheet = try XCTUnwrap(dump.sheet(name), name)
            XCTAssertEqual(sheet.freezePanes, "A2", name)
        }
        XCTAssertEqual(dump.sheet("Vehicles")?.autoFilter, "A1:F4")
        XCTAssertEqual(dump.sheet("Daily")?.autoFilter, "A1:D3")
        XCTAssertEqual(dump.sheet("Quality")?.autoFilter, "A1:C2")
    }

    func testColumnWidthsFitContentWithinBounds() throws {
        let vehicles = try XCTUnwrap(dump.sheet("Vehicles"))
        let widths = try XCTUnwrap(vehicles.widths)
        let plate = try XCTUnwrap(widths["A"])
        // "=cmd|'/c calc'!A1" is 17 characters: the widest plate cell.
        XCTAssertGreaterThanOrEqual(plate, 17)
        XCTAssertLessThanOrEqual(plate, 21)
        for width in widths.values {
            XCTAssertGreaterThanOrEqual(width, 6)
            XCTAssertLessThanOrEqual(width, 61)  // Excel adds a fraction of padding to 60
        }
        // The "Revenue eur" header wraps onto two lines: its column is as wide as "Revenue" and the
        // filter button (10 characters, and 2 of padding), not as the whole title.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(widths["F"]), 12)
        XCTAssertLessThan(try XCTUnwrap(widths["F"]), 14)
    }

    func testDataBarsCoverFlaggedColumnsOnly() throws {
        let vehicles = try XCTUnwrap(dump.sheet("Vehicles"))
        XCTAssertEqual(vehicles.conditionalFormats?.map(\.range), ["D2:D4"])
        XCTAssertEqual(vehicles.conditionalFormats?.first?.types, ["dataBar"])
        XCTAssertEqual(dump.sheet("Daily")?.conditionalFormats?.map(\.range), ["C2:C3"])
        XCTAssertEqual(dump.sheet("Loans")?.conditionalFormats?.count, 0)
    }

    func testHeatMapIsAGridUnderAColourScale() throws {
        let heat = try XCTUnwrap(dump.sheet("Heat map"))
        XCTAssertEqual(heat.cell(0, 0)?.v, "Damage zones")
        XCTAssertEqual(heat.rows[1].dropFirst().map(\.v), ["A", "B", "C"])
        XCTAssertEqual(heat.rows[3].map(\.v), ["2", "2", "0", "7"])
        XCTAssertEqual(heat.cell(3, 3)?.t, "n")
        XCTAssertEqual(heat.conditionalFormats?.map(\.range), ["B3:D4"])
        XCTAssertEqual(heat.conditionalFormats?.first?.types, ["colorScale"])
    }

    func testChartsAreNativeAndReferenceTheDataSheets() {
        XCTAssertEqual(dump.charts.map(\.kinds), [["barChart"], ["pieChart"], ["lineChart"]])
        XCTAssertEqual(dump.charts.map(\.title), ["Daily utilization", "New damage by type", "Check-outs"])
        XCTAssertEqual(dump.charts.first?.refs, ["Daily!$C$1", "Daily!$A$2:$A$3", "Daily!$C$2:$C$3"])
        XCTAssertEqual(
            dump.charts[1].refs, ["'Damage types'!$B$1", "'Damage types'!$A$2:$A$3", "'Damage types'!$B$2:$B$3"])
    }

    func testSummaryShowsScopeAsOfParametersAndFormattedFigures() throws {
        let summary = try XCTUnwrap(dump.sheet("Summary"))
        XCTAssertEqual(summary.cell(0, 0)?.v, "Fleet report: Salon 2016")
        XCTAssertEqual(summary.row(labelled: "Scope")?[1].v, "salon2016")
        let asOf = try XCTUnwrap(summary.row(labelled: "As of"))
        XCTAssertEqual(asOf[1].t, "d")
        XCTAssertEqual(asOf[1].v, "2016-10-09T20:00:00")
        XCTAssertEqual(summary.row(labelled: "grace_minutes")?[1].v, "15")
        XCTAssertEqual(summary.row(labelled: "Vehicles")?[1].f, "0")
        XCTAssertEqual(summary.row(labelled: "Utilization")?[1].f, "0.0%")
        XCTAssertEqual(summary.row(labelled: "Hours out")?[1].f, "0.00")
        XCTAssertEqual(summary.row(labelled: "Revenue")?[1].f, "#,##0.00 €")
        XCTAssertEqual(summary.row(labelled: "First day")?[1].t, "d")
        XCTAssertEqual(summary.row(labelled: "All signed")?[1].t, "b")
    }

    func testDocumentPropertiesCarryTitleSubjectAndAsOfAsCreationTime() throws {
        let properties = try XCTUnwrap(dump.properties)
        XCTAssertEqual(properties.title, "Fleet report: Salon 2016")
        XCTAssertEqual(properties.subject, "fleet report, salon2016")
        // 20:00 at +02:00 is 18:00 UTC; openpyxl gives the UTC time without a zone.
        XCTAssertEqual(properties.created, "2016-10-09T18:00:00")
    }
}
