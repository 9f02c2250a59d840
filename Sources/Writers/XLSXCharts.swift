import CXLSXWriter
import ReportModel

/// Draws the report's charts as native Excel charts on the Summary sheet, each series a range of
/// the data sheet its table was written to (so the chart follows the data if a person edits it).
struct XLSXCharts {
    /// Rows between the tops of two stacked charts (a default chart is 288 px, about 15 rows).
    static let rowsPerChart: UInt32 = 16
    /// Charts sit to the right of the Summary's two text columns.
    static let column: UInt16 = 3
    /// The last column a chart reaches: a default chart is 480 px wide, 7.5 default columns.
    static let lastColumn: UInt16 = column + 7
    /// Rows a chart covers from its top row (288 px at 20 px a row).
    static let rowsTall: UInt32 = 15

    let workbook: XLSXWorkbook
    let cells: XLSXCellWriter
    let log: XLSXWriteLog

    /// Inserts every chart that can be drawn; a chart that cannot (unknown table or column, no
    /// rows) becomes a note on the Summary instead of failing the whole report, and so does a
    /// chart with nothing to draw or of a single point (`ChartAbsence`). Returns the last row the charts cover
    /// (nil: no chart), for the print area.
    @discardableResult
    func insert(_ charts: [Chart], placed: [String: XLSXPlacedTable], report: Report) throws -> UInt32? {
        var slot: UInt32 = 0
        for chart in charts {
            if let sentence = ChartAbsence.sentence(for: chart, in: report) {
                log.note(sentence)
                continue
            }
            guard let table = placed[chart.table] else {
                log.note("Chart “\(chart.title)” not drawn: table “\(chart.table)” is not in the workbook.")
                continue
            }
            guard table.dataRowsOnFirstSheet > 0 else {
                log.note("Chart “\(chart.title)” not drawn: table “\(chart.table)” has no rows.")
                continue
            }
            let names = table.columns.map(\.name)
            guard let category = names.firstIndex(of: chart.category) else {
                log.note("Chart “\(chart.title)” not drawn: no column “\(chart.category)” in “\(chart.table)”.")
                continue
            }
            var series: [Int] = []
            for name in chart.kind == .pie ? Array(chart.series.prefix(1)) : chart.series {
                guard let index = names.firstIndex(of: name) else {
                    log.note("Chart “\(chart.title)”: no column “\(name)” in “\(chart.table)”; series left out.")
                    continue
                }
                series.append(index)
            }
            guard !series.isEmpty else {
                log.note("Chart “\(chart.title)” not drawn: none of its series is a column of “\(chart.table)”.")
                continue
            }
            try draw(chart, table: table, category: category, series: series, row: 1 + slot * XLSXCharts.rowsPerChart)
            slot += 1
        }
        return slot == 0 ? nil : (slot - 1) * XLSXCharts.rowsPerChart + 1 + XLSXCharts.rowsTall
    }

    private func draw(_ chart: Chart, table: XLSXPlacedTable, category: Int, series: [Int], row: UInt32) throws {
        let type: lxw_chart_type
        switch chart.kind {
        case .column: type = LXW_CHART_COLUMN
        case .line: type = LXW_CHART_LINE
        case .pie: type = LXW_CHART_PIE
        }
        let excelChart = try workbook.addChart(type)
        // A title starting with "=" would be read as a formula by libxlsxwriter.
        let title = chart.title.hasPrefix("=") ? " " + chart.title : chart.title
        chart_title_set_name(excelChart, try workbook.own(title))
        let sheetName = try workbook.own(table.sheetName)
        let lastRow = UInt32(table.dataRowsOnFirstSheet)
        let categoryColumn = UInt16(category)
        for index in series {
            guard let excelSeries = chart_add_series(excelChart, nil, nil) else {
                throw XLSXError(
                    LXW_ERROR_MEMORY_MALLOC_FAILED, detail: "chart_add_series returned NULL",
                    sheet: cells.sheetName)
            }
            let valueColumn = UInt16(index)
            chart_series_set_categories(excelSeries, sheetName, 1, categoryColumn, lastRow, categoryColumn)
            chart_series_set_values(excelSeries, sheetName, 1, valueColumn, lastRow, valueColumn)
            chart_series_set_name_range(excelSeries, sheetName, 0, valueColumn)
        }
        if chart.kind != .pie {
            // Axes show the columns' own formats: days as dates (not serial numbers), ratios as percents.
            if table.columns[category].type == .date {
                chart_axis_set_num_format(excelChart.pointee.x_axis, try workbook.own("yyyy-mm-dd"))
            }
            if series.allSatisfy({ table.columns[$0].type == .percent }) {
                chart_axis_set_num_format(excelChart.pointee.y_axis, try workbook.own("0%"))
            }
            // A value axis starts at 0 unless a value is below it: LibreOffice otherwise starts an
            // occupancy axis at 110 % and makes 120 % look like four times 115 %.
            if series.allSatisfy({ (table.minimums[$0] ?? 0) >= 0 }) {
                chart_axis_set_min(excelChart.pointee.y_axis, 0)
            }
        }
        if chart.kind != .pie && series.count == 1 {
            chart_legend_set_position(excelChart, UInt8(LXW_CHART_LEGEND_NONE.rawValue))
        }
        try cells.check(
            worksheet_insert_chart(cells.sheet, row, XLSXCharts.column, excelChart),
            row: row, column: XLSXCharts.column, detail: "chart “\(chart.title)”")
    }
}
