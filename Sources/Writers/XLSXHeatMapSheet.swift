import CXLSXWriter
import ReportModel

/// The damage-zone grid (or any `HeatMap`) as numbers under a three-colour scale: white for none,
/// through yellow, to red for the most.
///
/// Row 0 is the title; row 1 a header over every column (the row header, `Day`, then the column
/// labels); then one row per grid row. Rows that stand for days are date cells, wide enough to
/// read; values take the heat map's number format (`0%` for occupancy, `0` for counts), so the
/// sheet shows `67%` where the ratio is 0.6667.
struct XLSXHeatMapSheet {
    static let title = "Heat map"

    let heatMap: HeatMap
    let workbook: XLSXWorkbook
    let cells: XLSXCellWriter
    let printSetup: XLSXPrintSetup

    func write() throws {
        let grid = XLSXHeatMapGrid(heatMap: heatMap, workbook: workbook, cells: cells)
        let widths = try grid.write(top: 0, left: 0)
        for (index, width) in widths.enumerated() {
            try cells.check(
                worksheet_set_column(cells.sheet, UInt16(index), UInt16(index), width, nil),
                detail: "column width")
        }
        try printSetup.apply(
            to: cells, widths: widths, repeatHeader: false, onePage: false, rows: grid.rowCount + 2)
        try cells.check(worksheet_repeat_rows(cells.sheet, 1, 1), row: 1, column: 0, detail: "repeated header row")
    }
}

/// The grid of a heat map from a top-left cell: on its own sheet, or on the Summary under the
/// charts when it is small enough to print there (`XLSXSummarySheet`).
struct XLSXHeatMapGrid {
    let heatMap: HeatMap
    let workbook: XLSXWorkbook
    let cells: XLSXCellWriter

    var columnCount: Int { min(heatMap.cells.map(\.count).max() ?? 0, XLSXTableSheet.maximumColumns - 1) }
    var rowCount: Int { min(heatMap.cells.count, XLSXTableSheet.maximumDataRowsPerSheet - 2) }

    /// Writes the title at (`top`, `left`), the header under it, then the rows, and the colour
    /// scale over the values; returns the widths (characters) the label column and each value
    /// column need. Rows are written in order, as constant-memory mode requires.
    @discardableResult
    func write(top: UInt32, left: UInt16) throws -> [Double] {
        let bold = workbook.bold
        // Whole percents (`67%`) or the type's own format (`0` for counts).
        let valueCode =
            heatMap.valueType == .percent ? "0%" : XLSXCellValues.numberFormat(for: heatMap.valueType) ?? "0"
        let valueFormat = try workbook.numberFormat(valueCode)
        let dateStyle = try XLSXColumnStyle(.date, in: workbook)
        try cells.writeText(heatMap.title, row: top, column: left, format: bold)
        let columnCount = self.columnCount
        let rowCount = self.rowCount
        try cells.writeText(
            heatMap.rowHeader, row: top + 1, column: left, format: workbook.headerFormat(for: .text))
        var labelWidth = heatMap.rowHeader.count
        var valueWidth = 6
        for column in 0..<columnCount {
            let label = column < heatMap.columnLabels.count ? heatMap.columnLabels[column] : ""
            valueWidth = max(valueWidth, label.count)
            try cells.writeText(
                label, row: top + 1, column: left + UInt16(column + 1),
                format: workbook.headerFormat(for: heatMap.valueType))
        }
        for rowIndex in 0..<rowCount {
            let row = top + UInt32(rowIndex + 2)
            if let days = heatMap.rowDays, rowIndex < days.count {
                try cells.write(.day(days[rowIndex]), row: row, column: left, style: dateStyle)
                labelWidth = max(labelWidth, 10)
            } else {
                let label = rowIndex < heatMap.rowLabels.count ? heatMap.rowLabels[rowIndex] : ""
                labelWidth = max(labelWidth, label.count)
                try cells.writeText(label, row: row, column: left, format: bold)
            }
            for (column, value) in heatMap.cells[rowIndex].prefix(columnCount).enumerated() where value.isFinite {
                let target = left + UInt16(column + 1)
                try cells.check(
                    worksheet_write_number(cells.sheet, row, target, value, valueFormat), row: row, column: target)
            }
        }
        if rowCount > 0, columnCount > 0 {
            var scale = lxw_conditional_format()
            scale.type = UInt8(LXW_CONDITIONAL_3_COLOR_SCALE.rawValue)
            scale.min_color = 0xFFFFFF
            scale.mid_color = 0xFFEB84
            scale.max_color = 0xF8696B
            try cells.check(
                worksheet_conditional_format_range(
                    cells.sheet, top + 2, left + 1, top + UInt32(rowCount + 1), left + UInt16(columnCount), &scale),
                row: top + 2, column: left + 1, detail: "colour scale")
        }
        return [XLSXCellValues.columnWidth(forCharacters: labelWidth + 1)]
            + Array(repeating: XLSXCellValues.columnWidth(forCharacters: valueWidth + 1), count: columnCount)
    }
}
