/// ISO 8601 text written straight into a byte buffer: the writers print millions of dates and
/// timestamps, and building them from small strings costs more than the rest of a CSV row.
extension Day {
    /// Appends `YYYY-MM-DD` (years 1–9999; others as `description` would print them).
    public func appendISO8601(to bytes: inout [UInt8]) {
        let (year, month, day) = components
        guard year >= 0, year <= 9999 else {
            bytes.append(contentsOf: String(year).utf8)
            bytes.append(UInt8(ascii: "-"))
            ISO8601Bytes.appendTwoDigits(month, to: &bytes)
            bytes.append(UInt8(ascii: "-"))
            ISO8601Bytes.appendTwoDigits(day, to: &bytes)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { text in
            ISO8601Bytes.writeDate(year: year, month: month, day: day, to: text)
            bytes.append(contentsOf: text)
        }
    }
}

extension Timestamp {
    /// Appends `2016-10-01T09:12:00+02:00` (`…Z` for offset 0; `.ffffff` only when not zero).
    public func appendISO8601(to bytes: inout [UInt8], offsetSeconds offset: Int) {
        appendISO8601(to: &bytes, offsetSeconds: offset, fractionDigits: nil)
    }

    /// The fractional digits this instant needs: 0 on a whole second, 3 on a whole millisecond,
    /// else 6. A CSV column is written with the most any of its values needs (SPEC §6.1).
    public var fractionDigitsNeeded: Int {
        let micro = Int(((microseconds % 1_000_000) + 1_000_000) % 1_000_000)
        if micro == 0 { return 0 }
        return micro % 1000 == 0 ? 3 : 6
    }

    /// Appends the timestamp with exactly `fractionDigits` (0, 3 or 6) fractional digits, or,
    /// for nil, with six when the fraction is not zero and none otherwise. Digits below the
    /// precision asked for are cut, so ask for at least `fractionDigitsNeeded`.
    public func appendISO8601(to bytes: inout [UInt8], offsetSeconds offset: Int, fractionDigits: Int?) {
        let local = localWallClock(offsetSeconds: offset)
        local.day.appendISO8601(to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        ISO8601Bytes.appendTwoDigits(local.secondOfDay / 3600, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ISO8601Bytes.appendTwoDigits(local.secondOfDay / 60 % 60, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ISO8601Bytes.appendTwoDigits(local.secondOfDay % 60, to: &bytes)
        let digits = fractionDigits ?? (local.microsecond != 0 ? 6 : 0)
        if digits >= 6 {
            bytes.append(UInt8(ascii: "."))
            ISO8601Bytes.appendTwoDigits(local.microsecond / 10_000, to: &bytes)
            ISO8601Bytes.appendTwoDigits(local.microsecond / 100 % 100, to: &bytes)
            ISO8601Bytes.appendTwoDigits(local.microsecond % 100, to: &bytes)
        } else if digits >= 3 {
            let milliseconds = local.microsecond / 1000
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: milliseconds / 100))
            ISO8601Bytes.appendTwoDigits(milliseconds % 100, to: &bytes)
        }
        if offset == 0 {
            bytes.append(UInt8(ascii: "Z"))
            return
        }
        let magnitude = abs(offset)
        bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        ISO8601Bytes.appendTwoDigits(magnitude / 3600, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ISO8601Bytes.appendTwoDigits(magnitude / 60 % 60, to: &bytes)
    }
}

enum ISO8601Bytes {
    /// Writes `YYYY-MM-DD` into the ten bytes of `text` (a year of 0–9999): the one writer of a
    /// date's text, for `Day.appendISO8601` and `Day.description`.
    @inline(__always)
    static func writeDate(year: Int, month: Int, day: Int, to text: UnsafeMutableBufferPointer<UInt8>) {
        let zero = UInt8(ascii: "0")
        text[0] = zero &+ UInt8(truncatingIfNeeded: year / 1000)
        text[1] = zero &+ UInt8(truncatingIfNeeded: year / 100 % 10)
        text[2] = zero &+ UInt8(truncatingIfNeeded: year / 10 % 10)
        text[3] = zero &+ UInt8(truncatingIfNeeded: year % 10)
        text[4] = UInt8(ascii: "-")
        text[5] = zero &+ UInt8(truncatingIfNeeded: month / 10)
        text[6] = zero &+ UInt8(truncatingIfNeeded: month % 10)
        text[7] = UInt8(ascii: "-")
        text[8] = zero &+ UInt8(truncatingIfNeeded: day / 10)
        text[9] = zero &+ UInt8(truncatingIfNeeded: day % 10)
    }

    @inline(__always)
    static func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }
}
