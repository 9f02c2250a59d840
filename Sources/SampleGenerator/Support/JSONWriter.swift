import ByteOutput

/// A streaming JSON writer: values go straight into a `ByteSink`, escaped, with commas managed.
///
/// `JSONSerialization` would build every record as a dictionary first and reorder keys; writing
/// by hand keeps the field order of the apps' exports, keeps memory flat and runs at disk speed.
/// Keys are `StaticString`s because every key the generator writes is a literal.
final class JSONWriter {
    let sink: ByteSink
    /// Bit n set: the container at depth n already holds an element (needs a comma first).
    private var hasElements: UInt64 = 0
    private var depth = 0
    private var afterKey = false

    init(sink: ByteSink) {
        self.sink = sink
    }

    @inline(__always)
    private func beforeValue() throws {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        let bit: UInt64 = 1 << UInt64(depth)
        if hasElements & bit != 0 {
            try sink.write(UInt8(ascii: ","))
        } else {
            hasElements |= bit
        }
    }

    private func open(_ byte: UInt8) throws {
        try beforeValue()
        try sink.write(byte)
        depth += 1
        precondition(depth < 64, "JSON nesting deeper than the writer supports")
        hasElements &= ~(1 << UInt64(depth))
    }

    private func close(_ byte: UInt8) throws {
        depth -= 1
        try sink.write(byte)
    }

    func beginObject() throws { try open(UInt8(ascii: "{")) }
    func endObject() throws { try close(UInt8(ascii: "}")) }
    func beginArray() throws { try open(UInt8(ascii: "[")) }
    func endArray() throws { try close(UInt8(ascii: "]")) }

    /// Writes a raw byte between values (the newlines of JSON Lines and of one-record-per-line arrays).
    func raw(_ text: StaticString) throws {
        try sink.write(text)
    }

    func key(_ name: StaticString) throws {
        try beforeValue()
        let length = name.utf8CodeUnitCount
        let target = try sink.reserve(length + 3)
        target[0] = UInt8(ascii: "\"")
        (target + 1).update(from: name.utf8Start, count: length)
        target[length + 1] = UInt8(ascii: "\"")
        target[length + 2] = UInt8(ascii: ":")
        sink.commit(length + 3)
        afterKey = true
    }

    func string(_ value: String) throws {
        try beforeValue()
        var text = value
        try text.withUTF8 { bytes in
            let target = try sink.reserve(bytes.count * 6 + 2)
            var index = 0
            target[index] = UInt8(ascii: "\""); index += 1
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    target[index] = UInt8(ascii: "\\"); target[index + 1] = byte; index += 2
                case UInt8(ascii: "\n"):
                    target[index] = UInt8(ascii: "\\"); target[index + 1] = UInt8(ascii: "n"); index += 2
                case 0..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    for (offset, character) in [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex[Int(byte >> 4)], hex[Int(byte & 15)],
                    ].enumerated() {
                        target[index + offset] = character
                    }
                    index += 6
                default:
                    target[index] = byte; index += 1
                }
            }
            target[index] = UInt8(ascii: "\""); index += 1
            sink.commit(index)
        }
    }

    func int(_ value: Int) throws {
        try beforeValue()
        try writeDigits(value)
    }

    /// A decimal number from a scaled integer: `fixed(1234, decimals: 1)` writes `123.4`.
    func fixed(_ scaled: Int, decimals: Int) throws {
        try beforeValue()
        var divisor = 1
        for _ in 0..<decimals { divisor *= 10 }
        if scaled < 0 { try sink.write(UInt8(ascii: "-")) }
        let magnitude = scaled.magnitude
        try writeDigits(Int(magnitude / UInt(divisor)))
        guard decimals > 0 else { return }
        try sink.write(UInt8(ascii: "."))
        try writePadded(Int(magnitude % UInt(divisor)), width: decimals)
    }

    func bool(_ value: Bool) throws {
        try beforeValue()
        try sink.write(value ? "true" : "false")
    }

    func null() throws {
        try beforeValue()
        try sink.write("null")
    }

    /// `YYYY-MM-DD`.
    func date(_ date: CivilDate) throws {
        try beforeValue()
        try sink.write(UInt8(ascii: "\""))
        try writeDateDigits(date)
        try sink.write(UInt8(ascii: "\""))
    }

    /// `YYYY-MM-DDTHH:MM:SS[.mmm]` then `Z` or `±HH:MM`: the one timestamp form of SPEC §1.
    func timestamp(_ instant: ZonedInstant) throws {
        try beforeValue()
        let local = instant.utcSeconds + Int64(instant.offsetSeconds)
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let secondOfDay = Int(local - days * 86_400)
        try sink.write(UInt8(ascii: "\""))
        try writeDateDigits(CivilDate(dayNumber: Int(days)))
        try sink.write(UInt8(ascii: "T"))
        try writePadded(secondOfDay / 3600, width: 2)
        try sink.write(UInt8(ascii: ":"))
        try writePadded(secondOfDay / 60 % 60, width: 2)
        try sink.write(UInt8(ascii: ":"))
        try writePadded(secondOfDay % 60, width: 2)
        if let milliseconds = instant.milliseconds {
            try sink.write(UInt8(ascii: "."))
            try writePadded(milliseconds, width: 3)
        }
        if instant.zulu {
            try sink.write(UInt8(ascii: "Z"))
        } else {
            let offset = instant.offsetSeconds
            try sink.write(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            try writePadded(abs(offset) / 3600, width: 2)
            try sink.write(UInt8(ascii: ":"))
            try writePadded(abs(offset) / 60 % 60, width: 2)
        }
        try sink.write(UInt8(ascii: "\""))
    }

    private func writeDateDigits(_ date: CivilDate) throws {
        let (year, month, day) = date.components
        try writePadded(year, width: 4)
        try sink.write(UInt8(ascii: "-"))
        try writePadded(month, width: 2)
        try sink.write(UInt8(ascii: "-"))
        try writePadded(day, width: 2)
    }

    private func writeDigits(_ value: Int) throws {
        if value < 0 { try sink.write(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
        }
        let target = try sink.reserve(count)
        withUnsafeBytes(of: &digits) { buffer in
            for index in 0..<count { target[index] = buffer[count - 1 - index] }
        }
        sink.commit(count)
    }

    private func writePadded(_ value: Int, width: Int) throws {
        let target = try sink.reserve(width)
        var remaining = value
        for index in stride(from: width - 1, through: 0, by: -1) {
            target[index] = UInt8(48 + remaining % 10)
            remaining /= 10
        }
        sink.commit(width)
    }
}
