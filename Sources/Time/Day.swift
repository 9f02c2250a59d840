/// A calendar date with no time zone: the `day` of every metric.
///
/// Stored as the number of days since 1970-01-01 (proleptic Gregorian), so that stepping a day is
/// `+ 1` on the ordinal and never `+ 86,400 s` on an instant (DST days have 23 or 25 hours).
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let ordinal: Int

    public init(ordinal: Int) { self.ordinal = ordinal }

    /// A real calendar date, or nil (2016-02-30, month 13, year 0).
    public init?(year: Int, month: Int, day: Int) {
        if year >= Day.firstTabledYear, year < Day.firstTabledYear + 300, month >= 1, month <= 12 {
            // Every date an import reads is in the table: no division, no leap-year rule.
            let index = (year - Day.firstTabledYear) * 12 + (month - 1)
            let first = Int(Day.monthStarts[index])
            guard day >= 1, day <= Int(Day.monthStarts[index + 1]) - first else { return nil }
            ordinal = first + day - 1
            return
        }
        guard year >= 1, year <= 9999, month >= 1, month <= 12, day >= 1,
            day <= Day.daysInMonth(year: year, month: month)
        else { return nil }
        ordinal = Day.daysFromCivil(year: year, month: month, day: day)
    }

    static let firstTabledYear = 1900

    /// The ordinal of the first day of every month from 1900-01 through 2199-12, and of 2200-01:
    /// a month's length is the difference of two neighbours.
    static let monthStarts: [Int32] = {
        var starts: [Int32] = []
        starts.reserveCapacity(300 * 12 + 1)
        for year in firstTabledYear..<(firstTabledYear + 300) {
            for month in 1...12 { starts.append(Int32(daysFromCivil(year: year, month: month, day: 1))) }
        }
        starts.append(Int32(daysFromCivil(year: firstTabledYear + 300, month: 1, day: 1)))
        return starts
    }()

    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ text: String) {
        var text = text
        guard let day = text.withUTF8({ Day.parse($0[...]) }) else { return nil }
        self = day
    }

    /// Parses exactly `YYYY-MM-DD` from UTF-8 bytes.
    public static func parse(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Day? {
        guard bytes.count == 10, let base = bytes.base.baseAddress else { return nil }
        return parse(at: base + bytes.startIndex)
    }

    /// Parses `YYYY-MM-DD` from the ten bytes at `bytes`.
    @inline(__always)
    static func parse(at bytes: UnsafePointer<UInt8>) -> Day? {
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let century = twoDigits(bytes), let year = twoDigits(bytes + 2),
            let month = twoDigits(bytes + 5), let day = twoDigits(bytes + 8)
        else { return nil }
        return Day(year: century * 100 + year, month: month, day: day)
    }

    /// The two ASCII digits at `bytes` as a number, or nil: one unsigned compare per digit, and
    /// no bounds check (the caller has checked the length).
    @inline(__always)
    static func twoDigits(_ bytes: UnsafePointer<UInt8>) -> Int? {
        let tens = UInt(bytes[0]) &- 48
        let units = UInt(bytes[1]) &- 48
        guard tens <= 9, units <= 9 else { return nil }
        return Int(tens * 10 + units)
    }

    public var components: (year: Int, month: Int, day: Int) { Day.civil(fromDays: ordinal) }
    public var year: Int { components.year }
    public var month: Int { components.month }

    /// ISO 8601: `2016-10-01`.
    ///
    /// A year of four digits is written straight into the string's own ten bytes (a small string,
    /// held inline: no allocation); the import writes one per task or flow on its database thread,
    /// where an array built and decoded cost about 900 instructions a day (4 % of that thread).
    public var description: String {
        let (year, month, day) = components
        guard year >= 0, year <= 9999 else {
            var bytes: [UInt8] = []
            appendISO8601(to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: 10) { text in
            ISO8601Bytes.writeDate(year: year, month: month, day: day, to: text)
            return 10
        }
    }

    /// `YYYY-MM` of the month holding this day.
    public var monthKey: String {
        let (y, m, _) = components
        return Day.pad(y, 4) + "-" + Day.pad(m, 2)
    }

    /// ISO weekday: Monday 1 … Sunday 7.
    public var isoWeekday: Int { ((ordinal % 7 + 7 + 3) % 7) + 1 }

    public func adding(days: Int) -> Day { Day(ordinal: ordinal + days) }
    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.ordinal < rhs.ordinal }
    public static func - (lhs: Day, rhs: Day) -> Int { lhs.ordinal - rhs.ordinal }

    /// Every day from `first` through `last`, in order (empty when last < first).
    public static func range(_ first: Day, _ last: Day) -> [Day] {
        guard first <= last else { return [] }
        return (first.ordinal...last.ordinal).map(Day.init(ordinal:))
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// Howard Hinnant's days_from_civil.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Howard Hinnant's civil_from_days.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
