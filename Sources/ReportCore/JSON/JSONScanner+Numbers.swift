/// Numbers and the literals `true`, `false`, `null`.
///
/// A number is first taken as the run of bytes that can appear in one (`0-9 - + . e E`), then
/// checked against RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
/// Integers that fit in Int64 become `.integer` (`-0` is 0); every other number keeps its literal.
extension JSONScanner {
    mutating func parseNumber() throws -> JSONValue {
        let start = offset
        var index = position
        while index < limit && JSONScanner.isNumberByte(bytes[index]) { index += 1 }
        if index < limit {
            let run = UnsafeBufferPointer(start: bytes + position, count: index - position)
            position = index
            if run.count > maxStringBytes { throw error("number longer than \(maxStringBytes) bytes", at: start) }
            let endsInput = lineMode && bytes[index] == 0x0A
            return try number(from: run, start: start, endsInput: endsInput)
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
        return try collected.withUnsafeBufferPointer { run in
            try number(from: run, start: start, endsInput: endsInput)
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
    private func number(from run: UnsafeBufferPointer<UInt8>, start: Int, endsInput: Bool) throws -> JSONValue {
        let count = run.count
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < count && run[at] >= 0x30 && run[at] <= 0x39 }
        func invalid(at: Int) -> JSONSyntaxError {
            if at == count && endsInput {
                return error(lineMode && !reachedEnd ? "unexpected end of line" : "unexpected end of file", at: start + count)
            }
            return error("invalid number '\(String(decoding: run.prefix(40), as: UTF8.self))'", at: start)
        }
        let negative = count > 0 && run[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        guard isDigit(index) else { throw invalid(at: index) }
        var magnitude: UInt64 = 0
        var fitsInteger = true
        if run[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("leading zero in number '\(String(decoding: run.prefix(40), as: UTF8.self))'", at: start) }
        } else {
            while isDigit(index) {
                let digit = UInt64(run[index] - 0x30)
                let (times10, overflowMultiply) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflowAdd) = times10.addingReportingOverflow(digit)
                if overflowMultiply || overflowAdd { fitsInteger = false }
                magnitude = sum
                index += 1
            }
        }
        if index < count && run[index] == UInt8(ascii: ".") {
            fitsInteger = false
            index += 1
            guard isDigit(index) else { throw invalid(at: index) }
            while isDigit(index) { index += 1 }
        }
        if index < count && (run[index] == UInt8(ascii: "e") || run[index] == UInt8(ascii: "E")) {
            fitsInteger = false
            index += 1
            if index < count && (run[index] == UInt8(ascii: "+") || run[index] == UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { throw invalid(at: index) }
            while isDigit(index) { index += 1 }
        }
        if index < count { throw invalid(at: index) }
        if fitsInteger {
            if !negative && magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
            if negative && magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
            if negative && magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
        }
        let literal = String(decoding: run, as: UTF8.self)
        // The grammar was checked above, so the conversion cannot fail; out-of-range values
        // become ±infinity or zero, and the literal keeps what was written.
        return .number(Double(literal) ?? .nan, literal: literal)
    }

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
