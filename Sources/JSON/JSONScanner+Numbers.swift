/// Numbers and the literals `true`, `false`, `null`.
///
/// A number is first taken as the run of bytes that can appear in one (`0-9 - + . e E`), then
/// checked against RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
/// Integers that fit in Int64 become integer entries (`-0` is 0); every other number keeps its
/// literal, copied onto the tape beside its `Double`.
extension JSONScanner {
    /// A number's value, before it goes onto a tape.
    enum ScannedNumber {
        case integer(Int64)
        case double(Double)
    }

    /// Reads the number at the current position onto `tape`, as the member `name`.
    mutating func parseNumber(onto tape: inout JSONTape.Storage, name: (start: Int32, count: Int32)) throws {
        try withNumberRun { run, scanned in
            switch scanned {
            case .integer(let number): _ = tape.append(.integer, name: name, payload: number)
            case .double(let double):
                let start = run.isEmpty ? 0 : tape.appendBytes(run.baseAddress!, count: run.count)
                _ = tape.append(
                    .number, name: name, start: start, count: Int32(truncatingIfNeeded: run.count),
                    payload: Int64(bitPattern: double.bitPattern))
            }
        }
    }

    /// Reads the number at the current position and hands its literal and value to `body`.
    private mutating func withNumberRun(
        _ body: (UnsafeBufferPointer<UInt8>, ScannedNumber) -> Void
    ) throws {
        let start = offset
        var index = position
        while index < limit && JSONScanner.isNumberByte(bytes[index]) { index += 1 }
        if index < limit {
            let run = UnsafeBufferPointer(start: bytes + position, count: index - position)
            position = index
            if run.count > maxStringBytes { throw error("number longer than \(maxStringBytes) bytes", at: start) }
            let endsInput = lineMode && bytes[index] == 0x0A
            return body(run, try number(from: run, start: start, endsInput: endsInput))
        }
        // The run reaches the end of the buffer: collect it across refills.
        scratch.removeAll(keepingCapacity: true)
        var endsInput = true
        while true {
            index = position
            while index < limit && JSONScanner.isNumberByte(bytes[index]) { index += 1 }
            if scratch.count + (index - position) > maxStringBytes {
                throw error("number longer than \(maxStringBytes) bytes", at: start)
            }
            scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + position, count: index - position))
            position = index
            if index < limit {
                endsInput = lineMode && bytes[index] == 0x0A
                break
            }
            if !(try refill()) { break }
        }
        let collected = scratch
        try collected.withUnsafeBufferPointer { run in
            body(run, try number(from: run, start: start, endsInput: endsInput))
        }
    }

    @inline(__always)
    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
            UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    /// Checks `run` against the grammar and converts it. `endsInput` says the run stopped at the
    /// end of the input, so that a number cut short there reads as a truncated file.
    private func number(from run: UnsafeBufferPointer<UInt8>, start: Int, endsInput: Bool) throws -> ScannedNumber {
        let count = run.count
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < count && run[at] >= 0x30 && run[at] <= 0x39 }
        func invalid(at: Int) -> JSONSyntaxError {
            if at == count && endsInput {
                return error(
                    lineMode && !reachedEnd ? "unexpected end of line" : "unexpected end of file", at: start + count)
            }
            return error("invalid number '\(String(decoding: run.prefix(40), as: UTF8.self))'", at: start)
        }
        let negative = count > 0 && run[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        guard isDigit(index) else { throw invalid(at: index) }
        // All digits, integer and fraction, as one integer; `exact` until it overflows.
        var significand: UInt64 = 0
        var exact = true
        var isInteger = true
        @inline(__always) func accumulate(_ digit: UInt8) {
            let (times10, overflowMultiply) = significand.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = times10.addingReportingOverflow(UInt64(digit - 0x30))
            if overflowMultiply || overflowAdd { exact = false }
            significand = sum
        }
        if run[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) {
                throw error("leading zero in number '\(String(decoding: run.prefix(40), as: UTF8.self))'", at: start)
            }
        } else {
            while isDigit(index) {
                accumulate(run[index])
                index += 1
            }
        }
        var fractionDigits = 0
        if index < count && run[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else { throw invalid(at: index) }
            while isDigit(index) {
                accumulate(run[index])
                fractionDigits += 1
                index += 1
            }
        }
        var exponent = 0
        if index < count && (run[index] == UInt8(ascii: "e") || run[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < count && (run[index] == UInt8(ascii: "+") || run[index] == UInt8(ascii: "-")) {
                exponentNegative = run[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { throw invalid(at: index) }
            while isDigit(index) {
                exponent = exponent * 10 + Int(run[index] - 0x30)
                // Past any useful size the exact value no longer matters (strtod takes over).
                if exponent > 100_000 {
                    exponent = 100_000
                    exact = false
                }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if index < count { throw invalid(at: index) }
        if isInteger && exact {
            if significand <= UInt64(Int64.max) { return .integer(negative ? -Int64(significand) : Int64(significand)) }
            if negative && significand == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
        }
        // Clinger's fast path: a significand below 2^53 times or over an exact power of ten up to
        // 1e22 is one correctly rounded operation. Everything else goes to the C library (strtod).
        let scale = exponent - fractionDigits
        if exact && significand <= 1 << 53 && scale >= -22 && scale <= 22 {
            let magnitude = Double(significand)
            let value =
                scale < 0
                ? magnitude / JSONScanner.exactPowersOfTen[-scale]
                : magnitude * JSONScanner.exactPowersOfTen[scale]
            return .double(negative ? -value : value)
        }
        // The grammar was checked above, so the conversion cannot fail; out-of-range values
        // become ±infinity or zero, and the literal keeps what was written.
        return .double(Double(String(decoding: run, as: UTF8.self)) ?? .nan)
    }

    /// 1e0 … 1e22: the powers of ten that a Double holds exactly.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `true`, `false` or `null`, whose first byte is at the current position.
    mutating func parseLiteral(_ first: UInt8) throws -> JSONValue {
        let word: StaticString
        let value: JSONValue
        switch first {
        case UInt8(ascii: "t"): word = "true"; value = .bool(true)
        case UInt8(ascii: "f"): word = "false"; value = .bool(false)
        default: word = "null"; value = .null
        }
        let letters = word.utf8Start
        let length = word.utf8CodeUnitCount
        if limit - position >= length {
            var index = 1
            while index < length && bytes[position + index] == letters[index] { index += 1 }
            if index == length {
                position += length
                return value
            }
        }
        for index in 0..<length {
            guard let byte = try peek(), byte == letters[index] else { throw try unexpectedCharacter() }
            position += 1
        }
        return value
    }
}
