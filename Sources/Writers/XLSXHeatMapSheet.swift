import CXLSXWriter
import ReportModel

/// The damage-zone grid (or any `HeatMap`) as numbers under a three-colour scale: white for none,
/// through yellow, to red for the most.
struct XLSXHeatMapSheet {
    static let title = "Heat map"

    let heatMap: HeatMap
    let workbook: XLSXWorkbook
    let cells: XLSXCellWriter

    func write() throws {
        let bold = workbook.bold
        let number = try XLSXColumnStyle(.text, in: workbook)
        try cells.writeText(heatMap.title, row: 0, column: 0, format: bold)
        let columnCount = min(heatMap.cells.map(\.count).max() ?? 0, XLSXTableSheet.maximumColumns - 1)
        let rowCount = min(heatMap.cells.count, XLSXTableSheet.maximumDataRowsPerSheet - 2)
        for column in 0..<columnCount {
            let label = column < heatMap.columnLabels.count ? heatMap.columnLabels[column] : ""
            try cells.writeText(label, row: 1, column: UInt16(column + 1), format: bold)
        }
        for rowIndex in 0..<rowCount {
            let row = UInt32(rowIndex + 2)
            let label = rowIndex < heatMap.rowLabels.count ? heatMap.rowLabels[rowIndex] : ""
            try cells.writeText(label, row: row, column: 0, format: bold)
            for (column, value) in heatMap.cells[rowIndex].prefix(columnCount).enumerated() {
                try cells.write(.number(value), row: row, column: UInt16(column + 1), style: number)
            }
        }
        try cells.check(worksheet_set_column(cells.sheet, 0, 0, 8, nil), detail: "column width")
        guard rowCount > 0, columnCount > 0 else { return }
        try cells.check(worksheet_set_column(cells.sheet, 1, UInt16(columnCount), 8, nil), detail: "column width")
        var scale = lxw_conditional_format()
        scale.type = UInt8(LXW_CONDITIONAL_3_COLOR_SCALE.rawValue)
        scale.min_color = 0xFFFFFF
        scale.mid_color = 0xFFEB84
        scale.max_color = 0xF8696B
        try cells.check(worksheet_conditional_format_range(cells.sheet, 2, 1, UInt32(rowCount + 1), UInt16(columnCount), &scale),
                        row: 2, column: 1, detail: "colour scale")
    }
}
