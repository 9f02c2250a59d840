import ReportModel
import Time
/// The pure rules that turn report values into Excel cell contents: number format codes, date
/// serial numbers, the string length limit and the width a value needs on screen.
///
/// Kept apart from the C calls so that they can be tested without writing a workbook.
enum XLSXCellValues {
    static let dateFormat = "yyyy-mm-dd"
    static let timestampFormat = "yyyy-mm-dd hh:mm"
    /// Booleans read `TRUE`/`FALSE` in every column and program: LibreOffice otherwise shows
    /// some boolean columns as `1`/`0` (Excel ignores the format and shows TRUE/FALSE anyway).
    static let booleanFormat = "\"TRUE\";\"TRUE\";\"FALSE\""
    /// A whole value of a `measure` column: no decimals (`18962`, not `18962.0`).
    static let wholeMeasureFormat = "0"
    /// Excel's limit on the characters of one cell (UTF-16 units).
    static let maximumTextLength = 32_767
    /// What a cut string ends with, so that a reader sees it is not whole.
    static let cutMarker = "…[cut]"

    /// The Excel number format of numeric values in a column of this type; nil for General.
    static func numberFormat(for type: ColumnType) -> String? {
        switch type {
        case .text: return nil
        case .boolean: return booleanFormat
        case .integer: return "0"
        case .decimal(let places):
            let places = min(max(places, 0), 30)
            return places == 0 ? "0" : "0." + String(repeating: "0", count: places)
        case .percent: return "0.0%"
        // Whole values get `wholeMeasureFormat` per cell (`XLSXColumnStyle`).
        case .measure(let places): return places <= 0 ? "0" : "0." + String(repeating: "0", count: min(places, 30))
        case .duration: return "0.00"
        case .euros: return "#,##0.00 €"
        case .date: return dateFormat
        case .timestamp: return timestampFormat
        }
    }

    /// Days from Excel's epoch (serial 25,569 is 1970-01-01) to Unix day 0.
    private static let unixEpochSerial = 25_569
    /// 1900-03-01: before it Excel's serials are off by its 1900 leap-year bug, so such dates go
    /// out as ISO text rather than as wrong dates.
    private static let firstFaithfulSerial = 61

    /// The Excel serial number of a day, or nil when Excel cannot show it faithfully.
    @inline(__always)
    static func serial(of day: Day) -> Double? {
        let serial = day.ordinal + unixEpochSerial
        guard serial >= firstFaithfulSerial, serial <= 2_958_465 else { return nil }  // 9999-12-31
        return Double(serial)
    }

    /// The Excel serial of a timestamp's wall clock at its own offset (Excel has no zones).
    @inline(__always)
    static func serial(of timestamp: Timestamp) -> Double? {
        let local = timestamp.localWallClock(offsetSeconds: timestamp.offsetSeconds)
        guard let day = serial(of: local.day) else { return nil }
        let seconds = Double(local.secondOfDay) + Double(local.microsecond) / 1_000_000
        return day + seconds / 86_400
    }

    /// The text to store: itself when it fits, else cut (on a scalar boundary) and marked.
    /// Returns nil when the text fits, so that the common case allocates nothing.
    static func cutIfTooLong(_ text: String) -> String? {
        // UTF-16 length never exceeds UTF-8 length: most strings are settled by the cheap count.
        guard text.utf8.count > maximumTextLength, text.utf16.count > maximumTextLength else { return nil }
        let kept = XLSXSheetNames.prefix(text, utf16Length: maximumTextLength - cutMarker.utf16.count)
        return kept + cutMarker
    }

    /// Characters a value takes when Excel shows it with the column's format (an estimate, as
    /// Excel's own autofit is; libxlsxwriter 1.1.4 has none).
    static func displayWidth(of value: Value, type: ColumnType) -> Int {
        switch value {
        case .empty: return 0
        case .text(let text): return text.unicodeScalars.count
        case .boolean: return 5
        case .day: return 10
        case .timestamp: return 16
        case .integer(let number): return numberWidth(Double(number), type: type, isInteger: true)
        case .number(let number): return numberWidth(number, type: type, isInteger: false)
        }
    }

    private static func numberWidth(_ number: Double, type: ColumnType, isInteger: Bool) -> Int {
        guard number.isFinite else { return 0 }
        let sign = number < 0 ? 1 : 0
        switch type {
        case .percent: return sign + integerDigits(number * 100) + 3  // "73.1%"
        case .duration: return sign + integerDigits(number) + 3
        case .euros:
            let digits = integerDigits(number)
            return sign + digits + (digits - 1) / 3 + 5  // "1,234.50 €"
        case .decimal(let places): return sign + integerDigits(number) + (places > 0 ? places + 1 : 0)
        case .measure(let places):
            return sign + integerDigits(number) + (number == number.rounded() || places == 0 ? 0 : places + 1)
        case .integer: return sign + integerDigits(number)
        case .date: return 10
        case .timestamp: return 16
        case .text, .boolean:
            // General format: integers in full, other numbers to about 10 significant digits.
            return isInteger || number == number.rounded() ? sign + integerDigits(number) : min(sign + 11, 12)
        }
    }

    /// Digits before the decimal point (1 for 0.5).
    private static func integerDigits(_ number: Double) -> Int {
        var magnitude = abs(number).rounded(.down)
        var digits = 1
        while magnitude >= 10 && digits < 20 {
            magnitude /= 10
            digits += 1
        }
        return digits
    }

    /// A column width in Excel character units: the widest value plus padding, clamped so that one
    /// long note does not make a sheet unusable and a one-letter code is still clickable.
    static let maximumColumnWidth = 60

    static func columnWidth(forCharacters characters: Int) -> Double {
        Double(min(max(characters + 2, 6), maximumColumnWidth))
    }
}
