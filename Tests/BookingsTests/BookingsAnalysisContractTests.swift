import Time
import XCTest
@testable import Bookings

/// The CSV contract of SPEC §6.1, the summary metrics of §4, the report's layout and options.
final class BookingsAnalysisContractTests: XCTestCase {
    func testCSVTablesHaveExactlyTheContractColumnsInOrder() throws {
        let report = try BookingsAnalysisFixture().report(month: "2026-11")
        let contract: [String: [String]] = [
            "daily": ["day", "bookings", "cancelled", "no_show", "done", "revenue_eur", "discount_eur"],
            "occupancy": ["day", "period", "capacity", "booked", "occupancy"],
            "services": ["service_id", "service", "category", "bookings", "revenue_eur", "discount_eur"],
            "postal_codes": ["postal_code", "bookings", "revenue_eur"],
            "customers": ["month", "new_customers", "returning_customers"],
            "quality": ["issue", "record", "detail"],
        ]
        let csvTables = report.tables.filter { $0.outputs.contains(.csv) }
        XCTAssertEqual(Set(csvTables.map(\.name)), Set(contract.keys), "no other table reaches CSV")
        for table in csvTables {
            XCTAssertEqual(table.columns.map(\.name), contract[table.name], table.name)
        }
        XCTAssertEqual(report.tables.last?.name, "quality")
        XCTAssertEqual(report.table(named: "occupancy")?.columns.last?.dataBar, true)
        XCTAssertEqual(report.table(named: "occupancy")?.columns.last?.type, .percent)
    }

    func testFiguresAreTheSummaryMetricsInSpecOrder() throws {
        let report = try BookingsAnalysisFixture().report(month: "2026-11")
        XCTAssertEqual(
            report.figures.map(\.metric),
            [
                "bookings", "cancelled", "no_show", "done", "revenue_eur", "discount_eur", "cancellation_rate",
                "late_cancellations", "lead_time_median_hours", "lead_time_under_24h_share", "lead_time_under_7d_share",
                "average_basket_eur", "repeat_rate", "new_customers", "unresolved_past", "negative_lead_times",
                "unknown_customers", "unknown_services", "unknown_slots", "figures_out_of_range",
            ])
        let types = Dictionary(uniqueKeysWithValues: report.figures.map { ($0.metric, $0.type) })
        XCTAssertEqual(types["revenue_eur"], .euros)
        XCTAssertEqual(types["cancellation_rate"], .percent)
        XCTAssertEqual(types["lead_time_median_hours"], .duration)
        XCTAssertEqual(types["repeat_rate"], .percent)
        XCTAssertEqual(types["unknown_slots"], .integer)
    }

    func testChartsReferToColumnsOfTheirTables() throws {
        let report = try BookingsAnalysisFixture().report(month: "2026-11")
        XCTAssertEqual(report.charts.map(\.kind), [.line, .column])
        for chart in report.charts {
            let table = try XCTUnwrap(report.table(named: chart.table), chart.title)
            let names = table.columns.map(\.name)
            XCTAssertTrue(names.contains(chart.category), chart.title)
            for series in chart.series { XCTAssertTrue(names.contains(series), chart.title) }
        }
        XCTAssertEqual(report.table(named: "occupancy_by_period")?.outputs, [.xlsx, .markdown])
        XCTAssertEqual(report.heatMap?.columnLabels, ["Morning", "Afternoon", "Evening"])
        XCTAssertEqual(report.heatMap?.rowHeader, "Day")
        XCTAssertEqual(report.heatMap?.valueType, .percent)
        XCTAssertEqual(report.heatMap?.rowDays?.map(\.description), report.heatMap?.rowLabels)
        XCTAssertNil(report.heatMap?.backdrop, "occupancy is a plain grid")
    }

    func testSameDataAndAsOfGiveTheSameReport() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.booking("b1", starts: "2026-11-10T10:00:00+01:00", status: "pending", postalCode: "75002")
        try fixture.booking("b2", starts: "2026-11-10T15:00:00+01:00", customer: "c2", lines: [("x", 100, 200)])
        let first = try fixture.report(month: "2026-11", asOf: "2026-11-20T00:00:00Z")
        let second = try fixture.report(month: "2026-11", asOf: "2026-11-20T00:00:00Z")
        XCTAssertEqual(first.figures, second.figures)
        XCTAssertEqual(first.tables.map(\.name), second.tables.map(\.name))
        for table in first.tables { XCTAssertEqual(table.rows.all, try second.rows(table.name), table.name) }
        // b1 unresolved; b2 unknown customer and service
        XCTAssertEqual(first.table(named: "quality")?.rows.all.count, 3)
    }

    /// SPEC §4: `--month` is the whole calendar month, also the month holding as-of; only the
    /// default period (no period option) ends at the as-of day.
    func testAnExplicitMonthIsWholeAndOnlyTheDefaultPeriodEndsAtTheAsOfDay() throws {
        let asOf = try XCTUnwrap(Timestamp("2026-11-28T23:30:00Z"))  // 2026-11-29 00:30 in Paris
        let current = try BookingsOptions.month("2026-11", asOf: asOf)
        XCTAssertEqual([current.from, current.to].map(\.description), ["2026-11-01", "2026-11-30"])
        XCTAssertEqual(current.scope, "2026-11")
        let past = try BookingsOptions.month("2026-02", asOf: asOf)
        XCTAssertEqual([past.from, past.to].map(\.description), ["2026-02-01", "2026-02-28"])
        let byDefault = try BookingsOptions.currentMonth(asOf: asOf)
        XCTAssertEqual(byDefault.to.description, "2026-11-29")
        XCTAssertEqual(byDefault.monthScope, "2026-11")
        // In UTC the as-of is still the 28th.
        XCTAssertEqual(try BookingsOptions.currentMonth(timeZone: "UTC", asOf: asOf).to.description, "2026-11-28")
        let range = BookingsOptions(
            from: try XCTUnwrap(Day("2026-09-01")), to: try XCTUnwrap(Day("2026-11-30")), asOf: asOf)
        XCTAssertEqual(range.scope, "2026-09-01_2026-11-30")
    }

    func testUnusableOptionsFailWithOneClearLine() throws {
        let asOf = try XCTUnwrap(Timestamp("2026-11-28T12:00:00Z"))
        XCTAssertThrowsError(try BookingsOptions.month("2026-13", asOf: asOf)) { error in
            XCTAssertEqual("\(error)", "invalid month \"2026-13\": write it YYYY-MM, e.g. 2026-11")
        }
        XCTAssertThrowsError(try BookingsOptions.month("2026-1", asOf: asOf))
        XCTAssertThrowsError(try BookingsOptions.month("2026-11", timeZone: "Mars/Olympus", asOf: asOf)) { error in
            XCTAssertEqual("\(error)", "unknown time zone \"Mars/Olympus\": use an IANA name such as Europe/Paris")
        }
        let fixture = try BookingsAnalysisFixture()
        XCTAssertThrowsError(try fixture.report(from: "2026-11-30", to: "2026-11-01")) { error in
            XCTAssertEqual(
                "\(error)", "the period ends (2026-11-01) before it starts (2026-11-30): give --from on or before --to")
        }
        XCTAssertThrowsError(try fixture.report(from: "0001-01-01", to: "2026-11-01")) { error in
            XCTAssertTrue("\(error)".hasSuffix("at most 3660 days fit in one report: split it"), "\(error)")
        }
    }

    func testTimeZoneOptionMovesDaysAndPeriods() throws {
        let fixture = try BookingsAnalysisFixture()
        // 2026-11-10T23:30Z is the 11th 00:30 in Paris, but the 10th 18:30 in New York.
        try fixture.booking("b", starts: "2026-11-10T23:30:00Z")
        let paris = try fixture.report(month: "2026-11")
        let newYork = try fixture.report(month: "2026-11", timeZone: "America/New_York")
        XCTAssertEqual(try paris.rows("occupancy", where: try day("2026-11-11")).first?[3], .integer(1))
        XCTAssertEqual(try newYork.rows("occupancy", where: try day("2026-11-10")).last?[3], .integer(1))
        XCTAssertTrue(newYork.parameters.contains { $0.name == "time_zone" && $0.value == "America/New_York" })
    }
}
