/// An instant, kept to the microsecond, with the UTC offset it was written with.
///
/// Equality and order are by instant only: `10:00+02:00` equals `08:00Z`. The offset is kept so
/// that a value can be shown as it was written.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let microseconds: Int64
    /// The offset from UTC it was written with, in seconds (east positive).
    public let offsetSeconds: Int

    public init(microseconds: Int64, offsetSeconds: Int = 0) {
        self.microseconds = microseconds
        self.offsetSeconds = offsetSeconds
    }

    public init(seconds: Int64, offsetSeconds: Int = 0) {
        self.init(microseconds: seconds * 1_000_000, offsetSeconds: offsetSeconds)
    }

    /// Parses the one timestamp form of SPEC §1: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z` or `±HH:MM`.
    public init?(_ text: String) {
        var text = text
        guard let value = text.withUTF8({ Timestamp.parse($0[...]) }) else { return nil }
        self = value
    }

    public static func == (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds == rhs.microseconds }
    public func hash(into hasher: inout Hasher) { hasher.combine(microseconds) }
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// The same instant shown with another offset.
    public func withOffset(_ offsetSeconds: Int) -> Timestamp {
        Timestamp(microseconds: microseconds, offsetSeconds: offsetSeconds)
    }

    public func adding(microseconds delta: Int64) -> Timestamp {
        Timestamp(microseconds: microseconds + delta, offsetSeconds: offsetSeconds)
    }

    /// Strict parser over UTF-8 bytes; nil for anything SPEC §1 calls invalid.
    public static func parse(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Timestamp? {
        guard let base = bytes.base.baseAddress else { return nil }
        return parse(at: base + bytes.startIndex, count: bytes.count)
    }

    /// The same over `count` bytes at `bytes`, read through the pointer: the length is checked
    /// once before each part is read, not at every byte as a `Slice` subscript checks it.
    static func parse(at bytes: UnsafePointer<UInt8>, count: Int) -> Timestamp? {
        guard count >= 17, let day = Day.parse(at: bytes), bytes[10] == UInt8(ascii: "T"),
            let hour = Day.twoDigits(bytes + 11), bytes[13] == UInt8(ascii: ":"),
            let minute = Day.twoDigits(bytes + 14), hour <= 23, minute <= 59
        else { return nil }
        var index = 16
        var second = 0
        var micros = 0
        if bytes[index] == UInt8(ascii: ":") {
            guard index + 3 <= count, let s = Day.twoDigits(bytes + index + 1), s <= 59 else { return nil }
            second = s
            index += 3
            if index < count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var digits = 0
                while index < count, UInt(bytes[index]) &- 48 <= 9 {
                    if digits < 6 { micros = micros * 10 + Int(bytes[index] &- 48) }
                    digits += 1
                    index += 1
                }
                guard digits >= 1 else { return nil }
                if digits < 6 { for _ in digits..<6 { micros *= 10 } }
            }
        }
        guard index < count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            guard index + 1 == count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == count, bytes[index + 3] == UInt8(ascii: ":"),
                let oh = Day.twoDigits(bytes + index + 1), let om = Day.twoDigits(bytes + index + 4),
                oh <= 23, om <= 59
            else { return nil }
            offset = (oh * 3600 + om * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let local = Int64(day.ordinal) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(microseconds: (local - Int64(offset)) * 1_000_000 + Int64(micros), offsetSeconds: offset)
    }

    /// ISO 8601 with the kept offset; seconds always shown, fraction only when not zero.
    public var description: String { iso8601(offsetSeconds: offsetSeconds) }

    /// ISO 8601 in the given offset: `2016-10-01T09:12:00+02:00`, `…Z` for offset 0.
    public func iso8601(offsetSeconds offset: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendISO8601(to: &bytes, offsetSeconds: offset)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The wall clock at the given offset: its day, second of day and microsecond.
    public func localWallClock(offsetSeconds offset: Int) -> (day: Day, secondOfDay: Int, microsecond: Int) {
        let shifted = microseconds + Int64(offset) * 1_000_000
        let (secs, micro) = floorDivide(shifted, 1_000_000)
        let (days, secondOfDay) = floorDivide(secs, 86_400)
        return (Day(ordinal: Int(days)), Int(secondOfDay), Int(micro))
    }
}

/// Division rounding toward minus infinity, with a non-negative remainder.
@inline(__always)
func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    var quotient = value / divisor
    var remainder = value % divisor
    if remainder < 0 { quotient -= 1; remainder += divisor }
    return (quotient, remainder)
}
