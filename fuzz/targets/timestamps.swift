import Import
import Time

#if canImport(Glibc)
import Glibc
#endif

/// Fuzz target `timestamps`: the same bytes through `Timestamp.parse`, `Day.parse` and
/// `ClockTime.minutes` (the latter on the bytes as a String, as the importer calls it).
///
/// Invariants: no trap (the parsers do arithmetic on digits and slice by index); and round trips:
/// - a parsed timestamp printed with its own offset (`description`) parses back to the same
///   instant and the same offset, and printing that again gives the same text;
/// - it also parses back when printed in UTC (`iso8601(offsetSeconds: 0)`), as long as that UTC
///   date is still in years 1…9999;
/// - a parsed day prints as exactly the input (the format has one spelling) and its ordinal
///   round-trips through `Day(year:month:day:)`;
/// - a parsed clock time prints as exactly the input `HH:MM`;
/// - whatever parses as a day is never a timestamp and vice versa (their lengths differ).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimestamps(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    let timestamp = Timestamp.parse(bytes[...])
    let day = Day.parse(bytes[...])

    if let timestamp {
        require(day == nil, "parsed both as a day and as a timestamp")
        let printed = timestamp.description
        guard let again = Timestamp(printed) else { fail("\(printed) (from \(show(bytes))) does not parse back") }
        require(again.microseconds == timestamp.microseconds, "\(printed) parses back to another instant")
        require(again.offsetSeconds == timestamp.offsetSeconds, "\(printed) parses back with another offset")
        require(again.description == printed, "\(printed) prints back as \(again.description)")
        let utcDay = timestamp.localWallClock(offsetSeconds: 0).day
        if utcDay.year >= 1 && utcDay.year <= 9999 && utcDay.ordinal >= minimumOrdinal {
            let utc = timestamp.iso8601(offsetSeconds: 0)
            require(
                Timestamp(utc)?.microseconds == timestamp.microseconds, "\(utc) (UTC of \(printed)) is another instant")
        }
    }

    if let day {
        let text = String(decoding: bytes, as: UTF8.self)
        require(day.description == text, "day \(show(bytes)) prints as \(day.description)")
        let (year, month, dayOfMonth) = day.components
        require(Day(year: year, month: month, day: dayOfMonth) == day, "day \(text) does not round-trip its components")
    }

    // ClockTime.minutes takes a String: invalid UTF-8 becomes replacement characters first, as it would
    // from any String the reader made (the reader never makes one from invalid bytes).
    let text = String(decoding: bytes, as: UTF8.self)
    if let minutes = ClockTime.minutes(text) {
        require(minutes >= 0 && minutes < 24 * 60, "clock \(text) is \(minutes) minutes")
        let printed = pad(minutes / 60) + ":" + pad(minutes % 60)
        require(printed == text, "clock \(text) prints as \(printed)")
    }
    return 0
}

/// 0001-01-01, the first day a timestamp can be written with.
let minimumOrdinal = Day(year: 1, month: 1, day: 1)?.ordinal ?? Int.min

func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

func show(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    "\"" + bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
        + "\""
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    var text = "timestamps invariant broken: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
}
