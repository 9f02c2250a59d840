import CXLSXWriter
import ReportModel

/// The first sheet a person sees: title, scope, as-of, parameters, headline figures with their
/// number formats, notes, and the charts beside them; a small heat map (the fleet's damage zones)
/// under the charts, its own sheet then hidden so that it does not take a page of its own.
///
/// It is created first (so it is the first tab) but filled last, once the data sheets are written:
/// only then are the chart ranges and the writer's own notes (cut strings) known. Constant-memory
/// mode allows this because each sheet keeps its own row stream.
struct XLSXSummarySheet {
    static let title = "Summary"

    let report: Report
    let workbook: XLSXWorkbook
    let cells: XLSXCellWriter
    let printSetup: XLSXPrintSetup

    /// `heatMapSheet`: the sheet the report's heat map was written to, hidden when the heat map
    /// prints here instead (`holds`).
    func write(placed: [String: XLSXPlacedTable], heatMapSheet: XLSXCellWriter? = nil) throws {
        let chartsEnd = try XLSXCharts(workbook: workbook, cells: cells, log: cells.log)
            .insert(report.charts, placed: placed, report: report)

        var row: UInt32 = 0
        var labelCharacters = 12
        var valueCharacters = 12
        let bold = workbook.bold
        let text = try XLSXColumnStyle(.text, in: workbook)

        func label(
            _ label: String, _ value: Value, style: XLSXColumnStyle, labelFormat: XLSXWorkbook.Format? = nil
        ) throws {
            try cells.writeText(label, row: row, column: 0, format: labelFormat)
            try cells.write(value, row: row, column: 1, style: style)
            labelCharacters = max(labelCharacters, label.unicodeScalars.count)
            valueCharacters = max(valueCharacters, XLSXCellValues.displayWidth(of: value, type: style.type))
            row += 1
        }
        func heading(_ first: String, _ second: String? = nil) throws {
            row += 1
            try cells.writeText(first, row: row, column: 0, format: bold)
            if let second { try cells.writeText(second, row: row, column: 1, format: bold) }
            row += 1
        }

        try cells.writeText(report.title, row: row, column: 0, format: workbook.titleFormat())
        row += 1
        try label("Scope", .text(report.scope), style: text)
        // The as-of cell is a real date and time whose format names the zone (`2026-11-29 06:00
        // Europe/Paris`); the next row says every time of the workbook is in it.
        if let zone = report.timeZone {
            let format = try workbook.numberFormat(XLSXCellValues.timestampFormat + " \"" + zone + "\"")
            try cells.writeText("As of", row: row, column: 0, format: nil)
            try cells.check(
                worksheet_write_number(
                    cells.sheet, row, 1, XLSXCellValues.serial(of: report.asOf) ?? 0, format),
                row: row, column: 1)
            valueCharacters = max(valueCharacters, 17 + zone.count)
            row += 1
            try label("Time zone", .text(zone + " (all times local)"), style: text)
        } else {
            try label("As of", .timestamp(report.asOf), style: try XLSXColumnStyle(.timestamp, in: workbook))
        }
        try label("Tool version", .text(report.toolVersion), style: text)

        if !report.parameters.isEmpty {
            try heading("Parameter", "Value")
            for parameter in report.parameters { try label(parameter.name, .text(parameter.value), style: text) }
        }
        if !report.figures.isEmpty {
            try heading("Figure", "Value")
            for figure in report.figures {
                try label(figure.title, figure.value, style: try XLSXColumnStyle(figure.type, in: workbook))
            }
        }
        // A table of at most one row prints here, as label and value lines, not on a page of its own.
        for table in XLSXWriter.sheetOrder(report.tables)
        where XLSXWriter.onSummary(table) && table.printsInWorkbook
            && !XLSXWriter.feedsAChartOnly(table, in: report)
        {
            try heading(table.title)
            guard let values = table.rows.makeIterator().next() else {
                try cells.writeText("No rows in this period.", row: row, column: 0, format: nil)
                row += 1
                continue
            }
            for (index, column) in table.columns.enumerated() {
                try label(
                    column.title, index < values.count ? values[index] : .empty,
                    style: try XLSXColumnStyle(column.type, in: workbook))
            }
        }
        let notes = report.notes + cells.log.allNotes
        if !notes.isEmpty {
            try heading("Notes")
            for note in notes {
                try cells.writeText(note, row: row, column: 0, format: nil)
                row += 1
            }
        }
        let labelWidth = XLSXCellValues.columnWidth(forCharacters: labelCharacters)
        let valueWidth = XLSXCellValues.columnWidth(forCharacters: valueCharacters)
        try cells.check(worksheet_set_column(cells.sheet, 0, 0, labelWidth, nil), detail: "column width")
        try cells.check(worksheet_set_column(cells.sheet, 1, 1, valueWidth, nil), detail: "column width")
        var lastRow = max(max(row, 1) - 1, chartsEnd ?? 0)
        var lastColumn: UInt16 = chartsEnd == nil ? 1 : XLSXCharts.lastColumn
        if let heatMapSheet, let heatMap = report.heatMap, Self.holds(heatMap, below: lastRow) {
            let top = lastRow + 2
            let grid = XLSXHeatMapGrid(heatMap: heatMap, workbook: workbook, cells: cells)
            let widths = try grid.write(top: top, left: XLSXCharts.column)
            // The charts' columns keep their default width (8 characters) unless a label needs
            // more (a date, `Afternoon`).
            for (index, width) in widths.enumerated() where width > XLSXCellValues.columnWidth(forCharacters: 8) {
                let column = XLSXCharts.column + UInt16(index)
                try cells.check(
                    worksheet_set_column(cells.sheet, column, column, width, nil), detail: "column width")
            }
            worksheet_hide(heatMapSheet.sheet)
            lastRow = top + UInt32(grid.rowCount + 1)
            lastColumn = max(lastColumn, XLSXCharts.column + UInt16(grid.columnCount))
        }
        try setUpPrinting(lastRow: lastRow, lastColumn: lastColumn, notes: notes, widths: [labelWidth, valueWidth])
    }

    /// Whether a heat map prints on the Summary below row `row` (the last of the text and
    /// charts): at most as many columns as a chart is wide, and few enough rows that the Summary,
    /// fitted to one landscape page, keeps its text at 8 points or more.
    static func holds(_ heatMap: HeatMap, below row: UInt32) -> Bool {
        let columns = heatMap.cells.map(\.count).max() ?? 0
        guard columns > 0, columns <= Int(XLSXCharts.lastColumn - XLSXCharts.column) else { return false }
        // A blank row, the title, the header and the grid's rows.
        let rows = Int(row) + 1 + 3 + heatMap.cells.count
        return rows <= XLSXPrintLayout.rowsOnPage(landscape: true, scale: XLSXPrintLayout.minimumScale)
    }

    /// One page, charts whole: the print area spans the figures and the charts beside them (and
    /// the notes, which run to the right of column A), and is fitted to one page.
    private func setUpPrinting(lastRow: UInt32, lastColumn: UInt16, notes: [String], widths: [Double]) throws {
        let defaultWidth = 8.43
        var lastColumn = lastColumn
        var covered = widths.reduce(0, +) + Double(lastColumn - 1) * defaultWidth
        let longestNote = Double(notes.map(\.count).max() ?? 0)
        while covered < longestNote * 1.0 && lastColumn < 30 {
            lastColumn += 1
            covered += defaultWidth
        }
        let allWidths = widths + Array(repeating: defaultWidth, count: Int(lastColumn) - 1)
        try printSetup.apply(to: cells, widths: allWidths, repeatHeader: false, onePage: true)
        try cells.check(worksheet_print_area(cells.sheet, 0, 0, lastRow, lastColumn), detail: "print area")
    }
}
