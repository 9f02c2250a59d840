import XCTest
import Foundation
import Time
@testable import Time

final class TimeTests: XCTestCase {
    func testDayParsingIsStrict() {
        XCTAssertEqual(Day("2016-10-01")?.description, "2016-10-01")
        XCTAssertEqual(Day("2024-02-29")?.description, "2024-02-29")
        for invalid in [
            "2016-02-30", "2023-02-29", "2016-13-01", "2016-00-10", "2016-1-01", "16-10-01",
            "2016-10-01T", "2016/10/01", "", "2016-10-32", "0000-01-01", "2016-10-0a",
        ] {
            XCTAssertNil(Day(invalid), invalid)
        }
    }

    func testDayArithmeticAndCalendar() throws {
        let day = try XCTUnwrap(Day("2016-12-31"))
        XCTAssertEqual(day.adding(days: 1).description, "2017-01-01")
        XCTAssertEqual(Day(ordinal: 0).description, "1970-01-01")
        XCTAssertEqual(try XCTUnwrap(Day("1969-12-31")).ordinal, -1)
        XCTAssertEqual(try XCTUnwrap(Day("2026-11-29")).isoWeekday, 7)  // a Sunday
        XCTAssertEqual(try XCTUnwrap(Day("2016-10-03")).isoWeekday, 1)  // a Monday
        XCTAssertEqual(
            Day.range(try XCTUnwrap(Day("2016-02-28")), try XCTUnwrap(Day("2016-03-01"))).map(\.description),
            ["2016-02-28", "2016-02-29", "2016-03-01"])
        XCTAssertEqual(day.monthKey, "2016-12")
    }

    /// Dates of 1900–2199 come from a table of month starts, all others from Hinnant's formula:
    /// both must agree, day by day, across the table's edges and every leap-year rule, and give
    /// back the components they were made from.
    func testTabledDatesAgreeWithTheCalendarFormula() {
        var days = 0
        for year in Array(1...3) + Array(1596...2404) + Array(9997...9999) {
            for month in 0...13 {
                for dayOfMonth in 0...32 {
                    let valid =
                        (1...12).contains(month) && dayOfMonth >= 1
                        && dayOfMonth <= Day.daysInMonth(year: year, month: month)
                    let day = Day(year: year, month: month, day: dayOfMonth)
                    guard valid else {
                        if day != nil { XCTFail("\(year)-\(month)-\(dayOfMonth) is not a date") }
                        continue
                    }
                    guard let day else {
                        XCTFail("\(year)-\(month)-\(dayOfMonth) is a date")
                        continue
                    }
                    if day.ordinal != Day.daysFromCivil(year: year, month: month, day: dayOfMonth)
                        || day.components != (year, month, dayOfMonth)
                    {
                        XCTFail("\(year)-\(month)-\(dayOfMonth) is day \(day.ordinal)")
                    }
                    // Its text, written digit by digit into the string's own bytes, is the padded one.
                    let text = String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
                    if day.description != text || Day(text) != day { XCTFail("\(text) is written \(day)") }
                    days += 1
                }
            }
        }
        // 815 years, 197 of them leap years (1596… 2404 by fours, less 1700, 1800, 1900, 2100,
        // 2200 and 2300; 1600, 2000 and 2400 are).
        XCTAssertEqual(days, 815 * 365 + 197)
        // Years far outside the table are not folded into it by overflow.
        for year in [Int.max, Int.min, 1900 + (1 << 62), 1900 - (1 << 62), -1, 0, 10_000] {
            XCTAssertNil(Day(year: year, month: 1, day: 1), "\(year)")
        }
    }

    /// The parsers read through raw pointers: against SPEC §1's rules written the plain way, on
    /// valid timestamps and dates and on thousands of one- and two-byte mutations of them.
    func testParsersAgreeWithAPlainReadingOfTheSpec() {
        let seeds = [
            "2016-10-01T09:12:00+02:00", "2016-10-01T07:12Z", "2026-11-28T07:55:00.250Z",
            "2026-11-28T07:55:00.1234569Z", "2016-10-30T01:30:00.000007-05:30", "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999+23:59", "2024-02-29T12:00-00:30", "2016-10-01",
        ]
        let alphabet = Array("0123456789-:TZ+. x".utf8)
        var generator = SystemRandomNumberGenerator()
        var inputs = seeds
        for _ in 0..<20_000 {
            var bytes = Array(seeds.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                let at = Int.random(in: 0...bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where at < bytes.count: bytes[at] = alphabet.randomElement(using: &generator)!
                case 1 where at < bytes.count: bytes.remove(at: at)
                case 2: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                default: bytes = Array(bytes.prefix(at))
                }
            }
            inputs.append(String(decoding: bytes, as: UTF8.self))
        }
        var accepted = 0
        for input in inputs {
            let expected = plainTimestamp(input)
            let parsed = Timestamp(input)
            XCTAssertEqual(parsed?.microseconds, expected?.microseconds, input)
            XCTAssertEqual(parsed?.offsetSeconds, expected?.offset, input)
            XCTAssertEqual(Day(input)?.ordinal, plainDay(input)?.ordinal, input)
            if parsed != nil { accepted += 1 }
        }
        XCTAssertGreaterThan(accepted, 1_000)  // the mutations keep some inputs valid (about 8 %)
    }

    /// `YYYY-MM-DD`, read with `Int` on substrings.
    private func plainDay(_ text: String) -> Day? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = plainNumber(bytes, 0..<4), let month = plainNumber(bytes, 5..<7),
            let day = plainNumber(bytes, 8..<10)
        else { return nil }
        return Day(year: year, month: month, day: day)
    }

    private func plainNumber(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.upperBound <= bytes.count, range.allSatisfy({ (48...57).contains(bytes[$0]) }) else { return nil }
        return Int(String(decoding: bytes[range], as: UTF8.self))
    }

    /// `YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z` or `±HH:MM`, read the plain way.
    private func plainTimestamp(_ text: String) -> (microseconds: Int64, offset: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 17, let day = plainDay(String(decoding: bytes[0..<10], as: UTF8.self)),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            let hour = plainNumber(bytes, 11..<13), let minute = plainNumber(bytes, 14..<16), hour <= 23, minute <= 59
        else { return nil }
        var at = 16
        var second = 0
        var micros = 0
        if bytes[at] == UInt8(ascii: ":") {
            guard let value = plainNumber(bytes, 17..<19), value <= 59 else { return nil }
            second = value
            at = 19
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                var end = at + 1
                while end < bytes.count, (48...57).contains(bytes[end]) { end += 1 }
                guard end > at + 1 else { return nil }
                let fraction = String(decoding: bytes[(at + 1)..<end], as: UTF8.self) + "000000"
                micros = Int(fraction.prefix(6))!
                at = end
            }
        }
        guard at < bytes.count else { return nil }
        var offset = 0
        if bytes[at] == UInt8(ascii: "Z") {
            guard at + 1 == bytes.count else { return nil }
        } else if bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
            guard at + 6 == bytes.count, bytes[at + 3] == UInt8(ascii: ":"),
                let hours = plainNumber(bytes, (at + 1)..<(at + 3)),
                let minutes = plainNumber(bytes, (at + 4)..<(at + 6)),
                hours <= 23, minutes <= 59
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[at] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let seconds = Int64(day.ordinal) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return (seconds * 1_000_000 + Int64(micros), offset)
    }

    func testTimestampAcceptsTheSpecForms() throws {
        let paris = try XCTUnwrap(Timestamp("2016-10-01T09:12:00+02:00"))
        let utc = try XCTUnwrap(Timestamp("2016-10-01T07:12Z"))
        XCTAssertEqual(paris, utc)
        XCTAssertEqual(paris.offsetSeconds, 7200)
        XCTAssertEqual(paris.description, "2016-10-01T09:12:00+02:00")
        let fraction = try XCTUnwrap(Timestamp("2026-11-28T07:55:00.250Z"))
        XCTAssertEqual(fraction.microseconds % 1_000_000, 250_000)
        XCTAssertEqual(fraction.description, "2026-11-28T07:55:00.250000Z")
        // Fractions are kept to the microsecond; further digits are dropped, not rounded.
        XCTAssertEqual(try XCTUnwrap(Timestamp("2026-11-28T07:55:00.1234569Z")).microseconds % 1_000_000, 123_456)
        XCTAssertEqual(
            try XCTUnwrap(Timestamp("2016-10-30T01:30:00.000007-05:30")).description, "2016-10-30T01:30:00.000007-05:30"
        )
        XCTAssertEqual(try XCTUnwrap(Timestamp("0001-01-01T00:00:00Z")).description, "0001-01-01T00:00:00Z")
        XCTAssertEqual(
            try XCTUnwrap(Timestamp("2016-10-30T01:30:00-05:30")).microseconds,
            try XCTUnwrap(Timestamp("2016-10-30T07:00:00Z")).microseconds)
    }

    func testTimestampRejectsEverythingElse() {
        for invalid in [
            "2016-10-01 09:12:00+02:00", "2016-10-01T09:12:00+0200", "2016-10-01T09:12:00",
            "2016-10-01T09:12:00z", "2016-02-30T09:12:00Z", "2016-10-01T24:00:00Z",
            "2016-10-01T09:60:00Z", "2016-10-01T09:12:60Z", "2016-10-01T09:12:00.Z",
            "2016-10-01T09Z", "2016-10-01T09:12:00+02", "2016-10-01T09:12:00+24:00",
            "2016-10-01T09:12:00Z ", " 2016-10-01T09:12:00Z", "2016-10-01",
        ] {
            XCTAssertNil(Timestamp(invalid), invalid)
        }
    }

    func testLocalDaysFollowTheZoneAcrossDST() throws {
        let paris = try XCTUnwrap(LocalTime(identifier: "Europe/Paris"))
        let newYork = try XCTUnwrap(LocalTime(identifier: "America/New_York"))
        // 2026-11-01T03:30Z is 04:30 in Paris on Nov 1 and 23:30 on Oct 31 in New York (EDT).
        let instant = try XCTUnwrap(Timestamp("2026-11-01T03:30:00Z"))
        XCTAssertEqual(paris.day(of: instant).description, "2026-11-01")
        XCTAssertEqual(newYork.day(of: instant).description, "2026-10-31")
        // A 03:00 day start moves a 02:00 local login to the day before.
        let login = try XCTUnwrap(Timestamp("2026-11-10T02:00:00+01:00"))
        XCTAssertEqual(paris.day(of: login).description, "2026-11-10")
        XCTAssertEqual(paris.day(of: login, dayStartMinutes: 180).description, "2026-11-09")
    }

    func testInstantOfLocalWallClockOnDSTDays() throws {
        let paris = try XCTUnwrap(LocalTime(identifier: "Europe/Paris"))
        let fallBack = try XCTUnwrap(Day("2016-10-30"))
        // Opening 10:00 after the change is UTC+1; the day is 25 hours long.
        XCTAssertEqual(
            paris.instant(day: fallBack, secondOfDay: 10 * 3600), try XCTUnwrap(Timestamp("2016-10-30T09:00:00Z")))
        let midnight = paris.instant(day: fallBack, secondOfDay: 0)
        let nextMidnight = paris.instant(day: fallBack.adding(days: 1), secondOfDay: 0)
        XCTAssertEqual(nextMidnight.microseconds - midnight.microseconds, 25 * 3_600_000_000)
        // 02:30 happens twice on that day: the first occurrence (still UTC+2) is used.
        XCTAssertEqual(
            paris.instant(day: fallBack, secondOfDay: 2 * 3600 + 1800), try XCTUnwrap(Timestamp("2016-10-30T00:30:00Z"))
        )
        let springForward = try XCTUnwrap(Day("2016-03-27"))
        let start = paris.instant(day: springForward, secondOfDay: 0)
        let end = paris.instant(day: springForward.adding(days: 1), secondOfDay: 0)
        XCTAssertEqual(end.microseconds - start.microseconds, 23 * 3_600_000_000)
    }

    func testUnknownZonesAreRefused() {
        XCTAssertNil(LocalTime(identifier: "Mars/Olympus_Mons"))
        XCTAssertNil(LocalTime(identifier: ""))
        XCTAssertNil(LocalTime(identifier: "../../etc/passwd"))
        XCTAssertNotNil(LocalTime(identifier: "America/New_York"))
        XCTAssertNotNil(LocalTime(identifier: "UTC"))
    }
}
