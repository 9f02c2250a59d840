import CXLSXWriter
import ReportModel

/// The formats of one column, resolved once so that writing a cell costs one C call and no lookup.
struct XLSXColumnStyle {
    let type: ColumnType
    /// For `.integer` and `.number` values (nil: General).
    let number: XLSXWorkbook.Format?
    /// For whole values of a `measure` column (nil for other types): `18962`, not `18962.0`.
    let wholeNumber: XLSXWorkbook.Format?
    /// For `.day` values, whatever the column's type.
    let date: XLSXWorkbook.Format
    /// For `.timestamp` values, whatever the column's type.
    let timestamp: XLSXWorkbook.Format
    /// For `.boolean` values, whatever the column's type: one kind of boolean cell everywhere.
    let boolean: XLSXWorkbook.Format
    /// For `.text` values (nil: General); a wrapping format in a column too narrow for its text.
    var text: XLSXWorkbook.Format?

    init(_ type: ColumnType, in workbook: XLSXWorkbook) throws {
        self.type = type
        number = try XLSXCellValues.numberFormat(for: type).map { try workbook.numberFormat($0) }
        if case .measure = type {
            wholeNumber = try workbook.numberFormat(XLSXCellValues.wholeMeasureFormat)
        } else {
            wholeNumber = nil
        }
        date = try workbook.numberFormat(XLSXCellValues.dateFormat)
        timestamp = try workbook.numberFormat(XLSXCellValues.timestampFormat)
        boolean = try workbook.numberFormat(XLSXCellValues.booleanFormat)
    }
}

/// What the writer had to change in the data, reported on the Summary sheet.
final class XLSXWriteLog {
    private(set) var cutStrings = 0
    private(set) var firstCut: (sheet: String, cell: String)?
    private(set) var notes: [String] = []

    func recordCut(sheet: String, row: UInt32, column: UInt16) {
        cutStrings += 1
        if firstCut == nil {
            firstCut = (sheet, XLSXCellReference.name(row: Int(row), column: Int(column)))
        }
    }

    func note(_ text: String) { notes.append(text) }

    /// The notes to show, the cut-string count first.
    var allNotes: [String] {
        guard let firstCut else { return notes }
        let count = cutStrings == 1 ? "1 text cell was" : "\(cutStrings) text cells were"
        return [
            "\(count) longer than Excel's 32,767 characters and cut (ending in “\(XLSXCellValues.cutMarker)”);"
                + " the first is \(firstCut.sheet)!\(firstCut.cell). The CSV output has them whole."
        ] + notes
    }
}

/// Writes typed cells into one worksheet and turns every libxlsxwriter return code into an
/// `XLSXError` naming the sheet and cell.
struct XLSXCellWriter {
    let sheet: XLSXWorkbook.Sheet
    let sheetName: String
    let log: XLSXWriteLog

    /// One value, as a real cell: numbers as numbers, days and timestamps as dates, booleans as
    /// booleans; empty and non-finite values leave the cell blank.
    @inline(__always)
    func write(_ value: Value, row: UInt32, column: UInt16, style: XLSXColumnStyle) throws {
        let error: lxw_error
        switch value {
        case .empty:
            return
        case .integer(let number):
            error = worksheet_write_number(sheet, row, column, Double(number), style.wholeNumber ?? style.number)
        case .number(let number):
            guard number.isFinite else { return }
            let format = style.wholeNumber.flatMap { number == number.rounded() ? $0 : nil } ?? style.number
            error = worksheet_write_number(sheet, row, column, number, format)
        case .text(let text):
            try writeText(text, row: row, column: column, format: style.text)
            return
        case .boolean(let flag):
            error = worksheet_write_boolean(sheet, row, column, flag ? 1 : 0, style.boolean)
        case .day(let day):
            guard let serial = XLSXCellValues.serial(of: day) else {
                try writeText(day.description, row: row, column: column, format: nil)
                return
            }
            error = worksheet_write_number(sheet, row, column, serial, style.date)
        case .timestamp(let timestamp):
            guard let serial = XLSXCellValues.serial(of: timestamp) else {
                try writeText(timestamp.description, row: row, column: column, format: nil)
                return
            }
            error = worksheet_write_number(sheet, row, column, serial, style.timestamp)
        }
        if error != LXW_NO_ERROR { throw failure(error, row: row, column: column) }
    }

    /// A string cell, cut to Excel's limit (and logged) rather than refused. A NUL (a JSON
    /// `\u0000` kept in the database) becomes U+FFFD: libxlsxwriter takes C strings, which would
    /// silently end the cell there (`a\u0000b` written as `a`).
    @inline(__always)
    func writeText(_ text: String, row: UInt32, column: UInt16, format: XLSXWorkbook.Format?) throws {
        var text = text
        if text.utf8.contains(0) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
        }
        if let cut = XLSXCellValues.cutIfTooLong(text) {
            text = cut
            log.recordCut(sheet: sheetName, row: row, column: column)
        }
        let error = text.withCString { worksheet_write_string(sheet, row, column, $0, format) }
        if error != LXW_NO_ERROR { throw failure(error, row: row, column: column) }
    }

    func check(_ error: lxw_error, row: UInt32, column: UInt16, detail: String? = nil) throws {
        if error != LXW_NO_ERROR { throw failure(error, row: row, column: column, detail: detail) }
    }

    func check(_ error: lxw_error, detail: String) throws {
        if error != LXW_NO_ERROR { throw XLSXError(error, detail: detail, sheet: sheetName) }
    }

    func failure(_ error: lxw_error, row: UInt32, column: UInt16, detail: String? = nil) -> XLSXError {
        XLSXError(error, detail: detail, sheet: sheetName, row: Int(row), column: Int(column))
    }
}
