import CXLSXWriter

/// A failure while writing a workbook: a libxlsxwriter return code or an output-path problem.
///
/// libxlsxwriter reports everything through `lxw_error` codes (and NULL handles); this carries the
/// code, the library's own message (`lxw_strerror`) and where it happened, so that the command
/// line can print one line a person can act on:
/// `XLSX error 21: String exceeds Excel's limit of 32,767 characters. - sheet "Loans", cell B7`.
public struct XLSXError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `lxw_error` value (`LXW_ERROR_CREATING_XLSX_FILE` is 2), or `0` for a failure found
    /// before libxlsxwriter was called (an unsafe output path, a table too wide).
    public let code: Int
    /// What went wrong, in words: `lxw_strerror` of the code plus any detail we know.
    public let message: String
    /// The worksheet being written, when the failure belongs to one.
    public let sheet: String?
    /// The cell (`B7`) being written, when the failure belongs to one.
    public let cell: String?
    /// The output file, for failures of the file itself.
    public let path: String?

    public init(code: Int, message: String, sheet: String? = nil, cell: String? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.sheet = sheet
        self.cell = cell
        self.path = path
    }

    /// An error from a libxlsxwriter return code, with its library message.
    init(
        _ error: lxw_error, detail: String? = nil, sheet: String? = nil, row: Int? = nil, column: Int? = nil,
        path: String? = nil
    ) {
        var message = XLSXError.libraryMessage(error)
        if let detail { message += " (" + detail + ")" }
        let cell = row.flatMap { row in column.map { XLSXCellReference.name(row: row, column: $0) } }
        self.init(code: Int(error.rawValue), message: message, sheet: sheet, cell: cell, path: path)
    }

    /// A failure found by our own checks, before libxlsxwriter could have printed anything.
    static func invalid(_ message: String, sheet: String? = nil, path: String? = nil) -> XLSXError {
        XLSXError(code: 0, message: message, sheet: sheet, path: path)
    }

    /// `lxw_strerror` as a Swift string.
    static func libraryMessage(_ error: lxw_error) -> String {
        guard let text = lxw_strerror(error) else { return "Unknown libxlsxwriter error." }
        return String(cString: text)
    }

    public var description: String {
        var text = code == 0 ? "XLSX error: " + message : "XLSX error \(code): " + message
        var places: [String] = []
        if let path { places.append("file \"\(path)\"") }
        if let sheet { places.append("sheet \"\(sheet)\"") }
        if let cell { places.append("cell " + cell) }
        if !places.isEmpty { text += " - " + places.joined(separator: ", ") }
        return text
    }
}

/// A1-style names for error messages and chart notes (libxlsxwriter's `CELL()` is a C macro).
enum XLSXCellReference {
    /// `(0, 0)` → `A1`, `(6, 27)` → `AB7`.
    static func name(row: Int, column: Int) -> String {
        columnName(column) + String(row + 1)
    }

    /// `0` → `A`, `25` → `Z`, `26` → `AA`.
    static func columnName(_ column: Int) -> String {
        var number = column + 1
        var letters: [Character] = []
        while number > 0 {
            let remainder = (number - 1) % 26
            letters.append(Character(Unicode.Scalar(UInt8(65 + remainder))))
            number = (number - 1) / 26
        }
        return String(letters.reversed())
    }
}
