import CXLSXWriter
import ReportModel

/// Where a table landed, for the Summary's charts.
struct XLSXPlacedTable {
    /// The first (or only) sheet holding the table.
    let sheetName: String
    /// Data rows on that sheet (charts use that sheet only).
    let dataRowsOnFirstSheet: Int
    let columns: [Column]
    /// The smallest number of each column on that sheet (nil: none), so a chart knows whether
    /// its value axis can start at 0.
    let minimums: [Double?]
}

/// The columns of a table's sheet: the printed ones (`Table.printColumns`) first, in table order,
/// then the others in table order; the print area stops after the printed ones. Without a print
/// choice (or when the printed columns already lead) the sheet keeps the table's order.
struct XLSXSheetColumns: Equatable {
    /// Table column indices in sheet order.
    let order: [Int]
    /// How many leading sheet columns print.
    let printed: Int
    /// Whether the sheet's order is the table's (rows are then written as they come).
    let isTableOrder: Bool

    init(order: [Int], printed: Int) {
        self.order = order
        self.printed = printed
        isTableOrder = order.elementsEqual(order.indices)
    }

    init(_ table: Table) {
        let all = Array(table.columns.indices)
        let chosen = table.printColumns.map { names in all.filter { names.contains(table.columns[$0].name) } } ?? []
        guard !chosen.isEmpty, chosen.count < all.count else {
            self.init(order: all, printed: all.count)
            return
        }
        self.init(order: chosen + all.filter { !chosen.contains($0) }, printed: chosen.count)
    }

    /// Whether some columns are on screen only.
    var leavesColumnsOffPaper: Bool { printed < order.count }

    /// A row of the table in sheet order.
    func arranged(_ values: [Value]) -> [Value] {
        isTableOrder ? values : order.map { $0 < values.count ? values[$0] : .empty }
    }

    /// The page footer's words for a sheet that prints only some of its columns (nil: it prints all).
    func footerNote(table: Table) -> String? {
        guard leavesColumnsOffPaper else { return nil }
        let others = order.count - printed
        let place = table.outputs.contains(.csv) ? "on screen and in \(table.name).csv" : "on screen only"
        return "Printed: \(printed) of \(order.count) columns; the other \(others) are \(place)"
    }
}

/// Writes one table as one sheet, or several when it passes Excel's row limit: bold frozen header,
/// autofilter, fitted widths, data bars, every value as a real typed cell.
///
/// Constant-memory mode writes each row once, in order, so the row count is learnt while writing;
/// the autofilter and data bars, which need the last row, are added when a sheet is finished.
struct XLSXTableSheet {
    /// Excel has 1,048,576 rows; one is the header.
    static let maximumDataRowsPerSheet = 1_048_575
    /// Excel has 16,384 columns.
    static let maximumColumns = 16_384
    /// Rows read ahead to fit column widths.
    static let widthSampleRows = 1_000

    let table: Table
    let workbook: XLSXWorkbook
    let log: XLSXWriteLog
    let dataRowsPerSheet: Int
    let printSetup: XLSXPrintSetup
    /// A sheet kept in the workbook but hidden, so that it does not print (`XLSXWriter.printsAlone`).
    var hidden = false

    func write(names: inout XLSXSheetNames) throws -> XLSXPlacedTable {
        let arrangement = XLSXSheetColumns(table)
        let columns = arrangement.order.map { table.columns[$0] }
        guard columns.count <= XLSXTableSheet.maximumColumns else {
            throw XLSXError.invalid(
                "table “\(table.name)” has \(columns.count) columns; Excel allows "
                    + "\(XLSXTableSheet.maximumColumns)", sheet: table.title)
        }
        var styles = try columns.map { try XLSXColumnStyle($0.type, in: workbook) }
        let iterator = table.rows.makeIterator()
        var sample: [[Value]] = []
        while sample.count < XLSXTableSheet.widthSampleRows, let row = iterator.next() {
            sample.append(arrangement.arranged(row))
        }
        let widths = XLSXTableSheet.widths(columns: columns, sample: sample)
        let wrapped = widths.indices.filter { widths[$0] >= Double(XLSXCellValues.maximumColumnWidth) }
        for index in wrapped { styles[index].text = try workbook.wrappingTextFormat() }

        let firstName = names.claim(table.title)
        var cells = try startSheet(named: firstName, columns: columns, widths: widths, arrangement: arrangement)
        var sheetNumber = 1
        var row: UInt32 = 0
        var dataRowsOnFirstSheet = 0
        var minimums = [Double?](repeating: nil, count: columns.count)
        var minimumsOnFirstSheet: [Double?]?
        let columnCount = min(columns.count, XLSXTableSheet.maximumColumns)
        let rowLimit = UInt32(dataRowsPerSheet)

        func writeRow(_ values: [Value]) throws {
            if row == rowLimit {
                try finishSheet(cells, columns: columns, dataRows: Int(row), printed: arrangement.printed)
                if sheetNumber == 1 {
                    dataRowsOnFirstSheet = Int(row)
                    minimumsOnFirstSheet = minimums
                }
                sheetNumber += 1
                cells = try startSheet(
                    named: names.claimContinuation(of: firstName, number: sheetNumber), columns: columns,
                    widths: widths, arrangement: arrangement)
                row = 0
            }
            row += 1
            if !wrapped.isEmpty {
                // Spreadsheet programs do not grow a row for wrapped text on opening: give it
                // the lines its longest wrapped cell needs (15 points a line).
                var lines = 1
                for index in wrapped where index < values.count {
                    if case .text(let text) = values[index] {
                        let perLine = max(Int(widths[index] * 1.15) - 2, 1)
                        lines = max(lines, (text.unicodeScalars.count + perLine - 1) / perLine)
                    }
                }
                if lines > 1 {
                    try cells.check(
                        worksheet_set_row(cells.sheet, row, Double(min(lines, 20)) * 15, nil),
                        row: row, column: 0, detail: "row height")
                }
            }
            var column: UInt16 = 0
            for value in values.prefix(columnCount) {
                try cells.write(value, row: row, column: column, style: styles[Int(column)])
                if sheetNumber == 1, let number = value.doubleValue, number.isFinite {
                    minimums[Int(column)] = min(minimums[Int(column)] ?? number, number)
                }
                column += 1
            }
        }
        let limit = table.workbookRowLimit.map { max(0, min($0, dataRowsPerSheet - 1)) }
        var written = 0
        var omitted = 0
        for values in sample {
            if let limit, written == limit { omitted += 1; continue }
            try writeRow(values)
            written += 1
        }
        sample = []
        while let values = iterator.next() {
            if let limit, written == limit {
                // The rest are only counted: by the table when it knows, else one by one.
                if let count = table.rows.count { omitted = count - written; break }
                omitted += 1
                continue
            }
            try writeRow(arrangement.arranged(values))
            written += 1
        }
        // Filter and data bars first: in constant-memory mode they cannot reach back past a later row.
        try finishSheet(
            cells, columns: columns, dataRows: Int(row), printed: arrangement.printed, noteRow: omitted > 0)
        if omitted > 0 {
            try cells.writeText(
                Self.limitNote(shown: written, total: written + omitted, table: table.name),
                row: row + 1, column: 0, format: workbook.bold)
        }
        if sheetNumber == 1 { dataRowsOnFirstSheet = Int(row) }
        return XLSXPlacedTable(
            sheetName: firstName, dataRowsOnFirstSheet: dataRowsOnFirstSheet, columns: columns,
            minimums: minimumsOnFirstSheet ?? minimums)
    }

    /// The last row of a sheet cut at `Table.workbookRowLimit`.
    static func limitNote(shown: Int, total: Int, table: String) -> String {
        "The sheet shows the first \(shown) of \(total) rows; the full table is in \(table).csv."
    }

    /// Header widths (plus room for the filter button) against the widest sampled value. A title
    /// of several words may wrap onto a second header line: it needs its longest word only.
    static func widths(columns: [Column], sample: [[Value]]) -> [Double] {
        // Two lines at most: the longest word, and half the title.
        var characters = columns.map { max(longestWord($0.title), ($0.title.unicodeScalars.count + 1) / 2 + 1) + 3 }
        for values in sample {
            for (index, value) in values.prefix(columns.count).enumerated() {
                characters[index] = max(
                    characters[index], XLSXCellValues.displayWidth(of: value, type: columns[index].type))
            }
        }
        return characters.map(XLSXCellValues.columnWidth(forCharacters:))
    }

    static func longestWord(_ title: String) -> Int {
        title.split(separator: " ").map { $0.unicodeScalars.count }.max() ?? 0
    }

    /// Whether a column's title needs a second line at this width (title and filter button).
    static func headerWraps(_ column: Column, width: Double) -> Bool {
        Double(column.title.unicodeScalars.count + 3) > width - 2
    }

    /// The leading columns that identify a row (the table's key, else the first column): repeated
    /// on each strip of a sheet too wide for a page.
    static func keyColumns(_ columns: [Column], key: [String]) -> Int {
        let leading = columns.prefix { key.contains($0.name) }.count
        return max(leading, 1)
    }

    /// A new sheet with widths, the bold header row (each title aligned as its column), the
    /// frozen pane under it and the print setup: of the printed columns only, which lead.
    private func startSheet(
        named name: String, columns: [Column], widths: [Double], arrangement: XLSXSheetColumns
    ) throws -> XLSXCellWriter {
        let sheet = try workbook.addSheet(named: name)
        if hidden { worksheet_hide(sheet) }
        let cells = XLSXCellWriter(sheet: sheet, sheetName: name, log: log)
        for (index, width) in widths.enumerated() {
            let column = UInt16(index)
            try cells.check(
                worksheet_set_column(sheet, column, column, width, nil), row: 0, column: column,
                detail: "column width")
        }
        let wraps = zip(columns, widths).map { Self.headerWraps($0, width: $1) }
        if wraps.contains(true) {
            try cells.check(worksheet_set_row(sheet, 0, 30, nil), row: 0, column: 0, detail: "header row height")
        }
        for (index, column) in columns.enumerated() {
            try cells.writeText(
                column.title, row: 0, column: UInt16(index),
                format: workbook.headerFormat(for: column.type, wraps: wraps[index]))
        }
        if !columns.isEmpty { worksheet_freeze_panes(sheet, 1, 0) }
        try printSetup.apply(
            to: cells, widths: Array(widths.prefix(arrangement.printed)), repeatHeader: !columns.isEmpty,
            onePage: false,
            keyColumns: min(Self.keyColumns(columns, key: table.primaryKey), max(arrangement.printed, 1)),
            // A two-line header row counts as two rows.
            rows: (wraps.contains(true) ? 2 : 1) + min(table.rows.count ?? dataRowsPerSheet, dataRowsPerSheet),
            footerNote: arrangement.footerNote(table: table))
        return cells
    }

    /// The autofilter over header and data, data bars over the flagged columns, and the print area
    /// over the printed columns when some are on screen only (with the row of `limitNote`).
    private func finishSheet(
        _ cells: XLSXCellWriter, columns: [Column], dataRows: Int, printed: Int, noteRow: Bool = false
    ) throws {
        guard !columns.isEmpty else { return }
        let lastColumn = UInt16(columns.count - 1)
        let lastRow = UInt32(dataRows)
        try cells.check(
            worksheet_autofilter(cells.sheet, 0, 0, lastRow, lastColumn), row: 0, column: 0,
            detail: "autofilter")
        if printed < columns.count {
            try cells.check(
                worksheet_print_area(cells.sheet, 0, 0, lastRow + (noteRow ? 1 : 0), UInt16(printed - 1)),
                row: 0, column: 0, detail: "print area")
        }
        guard dataRows > 0 else { return }
        for (index, column) in columns.enumerated() where column.dataBar {
            var format = lxw_conditional_format()
            format.type = UInt8(LXW_CONDITIONAL_DATA_BAR.rawValue)
            let column = UInt16(index)
            try cells.check(
                worksheet_conditional_format_range(cells.sheet, 1, column, lastRow, column, &format),
                row: 1, column: column, detail: "data bar")
        }
    }
}
