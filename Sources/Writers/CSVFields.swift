import ByteOutput
import ReportModel
/// The bytes of CSV fields, built in a reusable buffer that the writer drains into its sink.
///
/// Formatting by column type (SPEC §6.1): ratios (`percent`) 4 places, `hours` 2, `euros` 2,
/// `decimal(places:)` its own, `measure` as few as it needs, integers plain, booleans
/// `true`/`false`, days `YYYY-MM-DD`, timestamps ISO 8601 in UTC (`2026-11-28T16:05:00Z`: one
/// column never mixes `+02:00` and `+01:00` across a DST change; XLSX and Markdown keep local
/// time and say the zone), `.empty` an empty field. An integer value in a
/// fractional column gets the column's places (`12` euros → `12.00`); a real number in an
/// integer column is rounded to 0 places; one in a non-numeric column shows Swift's shortest form.
/// Non-finite numbers give an empty field.
struct CSVFields {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(ByteSink.chunkSize + 4096) }

    mutating func appendByteOrderMark() { bytes.append(contentsOf: [0xEF, 0xBB, 0xBF]) }
    mutating func appendSeparator() { bytes.append(UInt8(ascii: ",")) }
    mutating func appendLineEnd() { bytes.append(contentsOf: [0x0D, 0x0A]) }

    mutating func drain(into sink: ByteSink) throws {
        try sink.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// `fractionDigits`: for a timestamp, the digits its column uses (nil: as the value needs).
    mutating func append(_ value: Value, as type: ColumnType, fractionDigits: Int? = nil) {
        switch value {
        case .empty:
            return
        case .text(let text):
            appendText(text)
        case .integer(let integer):
            if case .measure = type {
                FixedDecimal.append(integer, to: &bytes)
            } else if let places = CSVFields.places(of: type), places > 0 {
                FixedDecimal.append(Double(integer), places: places, to: &bytes)
            } else {
                FixedDecimal.append(integer, to: &bytes)
            }
        case .number(let number):
            if case .measure(let maximumPlaces) = type {
                FixedDecimal.appendTrimmed(number, maximumPlaces: maximumPlaces, to: &bytes)
            } else if let places = CSVFields.places(of: type) {
                FixedDecimal.append(number, places: places, to: &bytes)
            } else if number.isFinite {
                bytes.append(contentsOf: number.description.utf8)
            }
        case .day(let day):
            day.appendISO8601(to: &bytes)
        case .timestamp(let timestamp):
            timestamp.appendISO8601(to: &bytes, offsetSeconds: 0, fractionDigits: fractionDigits)
        case .boolean(let flag):
            bytes.append(contentsOf: flag ? CSVFields.trueBytes : CSVFields.falseBytes)
        }
    }

    /// The decimal places of a numeric column type (the most, for a measure); nil for the others.
    static func places(of type: ColumnType) -> Int? {
        switch type {
        case .integer: return 0
        case .decimal(let places), .measure(let places): return places
        case .percent: return 4
        case .duration, .euros: return 2
        case .text, .date, .timestamp, .boolean: return nil
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// A text field: `'` before a leading `=` `+` `-` `@` tab or CR (formula injection), then
    /// quoted, with quotes doubled, when it holds `,` `"` CR or LF. A NUL byte (a JSON `\u0000`
    /// kept verbatim in the database) becomes U+FFFD: CSV readers stop at it or refuse the line
    /// (Python's `csv` raises "line contains NUL"), so one bad id must not break a dashboard load.
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard let first = utf8.first else { return }
            let needsPrefix = CSVFields.startsFormula(first)
            var needsQuotes = false
            var hasNUL = false
            for byte in utf8 where byte == 0x2C || byte == 0x22 || byte == 0x0D || byte == 0x0A || byte == 0 {
                if byte == 0 { hasNUL = true } else { needsQuotes = true }
                if needsQuotes && hasNUL { break }
            }
            if needsQuotes { bytes.append(0x22) }
            if needsPrefix { bytes.append(UInt8(ascii: "'")) }
            if needsQuotes || hasNUL {
                for byte in utf8 {
                    if byte == 0 {
                        bytes.append(contentsOf: CSVFields.replacementCharacter)
                        continue
                    }
                    bytes.append(byte)
                    if byte == 0x22 && needsQuotes { bytes.append(0x22) }
                }
                if needsQuotes { bytes.append(0x22) }
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }

    /// U+FFFD in UTF-8.
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    @inline(__always)
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "@") || byte == 0x09 || byte == 0x0D
    }
}
