/// Strings: a fast path that takes the bytes straight from the buffer when the whole string is
/// there without escapes, and a path that assembles it in `scratch` otherwise.
extension JSONScanner {
    /// Reads a string whose opening quote is at the current position, through its closing quote,
    /// as a `String` (a wrapper's member names).
    mutating func parseString() throws -> String {
        if let end = plainStringEnd() {
            defer { position = end + 1 }
            return String(
                decoding: UnsafeBufferPointer(start: bytes + position + 1, count: end - position - 1), as: UTF8.self)
        }
        try assembleString()
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Reads a string whose opening quote is at the current position, through its closing quote,
    /// and appends its decoded bytes to `tape`: no `String` is made.
    @inline(__always)
    mutating func parseString(into tape: inout JSONTape.Storage) throws -> (start: Int32, count: Int32) {
        if let end = plainStringEnd() {
            let start = position + 1
            position = end + 1
            let count = end - start
            // The buffer has `JSONScanner.padding` bytes past its end: 16 bytes from `start` are readable.
            let at =
                count <= JSONScanner.padding
                ? tape.appendShortBytes(bytes + start, count: count) : tape.appendBytes(bytes + start, count: count)
            return (at, Int32(truncatingIfNeeded: count))
        }
        try assembleString()
        return scratch.withUnsafeBufferPointer { assembled in
            guard let base = assembled.baseAddress, !assembled.isEmpty else {
                return (tape.appendBytes(bytes, count: 0), 0)
            }
            return (tape.appendBytes(base, count: assembled.count), Int32(truncatingIfNeeded: assembled.count))
        }
    }

    /// The fast path: the offset of the closing quote when the whole string is in the buffer, holds
    /// no escape and is not too long; nil for any other string (`assembleString` reads it).
    @inline(__always)
    private func plainStringEnd() -> Int? {
        let end = JSONScanner.plainRunEnd(bytes, from: position + 1, to: limit)
        return end < limit && bytes[end] == 0x22 && end - position - 1 <= maxStringBytes ? end : nil
    }

    /// Reads the string at the current position into `scratch`, decoded, through its closing quote.
    @inline(never)
    private mutating func assembleString() throws {
        let quoteOffset = offset
        position += 1
        scratch.removeAll(keepingCapacity: true)
        while true {
            let segmentStart = position
            let index = JSONScanner.plainRunEnd(bytes, from: position, to: limit)
            if index > segmentStart {
                if scratch.count + (index - segmentStart) > maxStringBytes { throw tooLong(at: quoteOffset) }
                scratch.append(
                    contentsOf: UnsafeBufferPointer(start: bytes + segmentStart, count: index - segmentStart))
            }
            position = index
            if index == limit {
                if !(try refill()) { throw error("unterminated string", at: quoteOffset) }
                continue
            }
            let byte = bytes[index]
            switch byte {
            case 0x22:
                position += 1
                return
            case 0x5C:
                try decodeEscape(quoteOffset: quoteOffset)
            case 0x0A where lineMode:
                throw error("unterminated string", at: quoteOffset)
            case ..<0x20:
                throw error("control character U+\(JSONScanner.hex(UInt32(byte), digits: 4)) in string", at: offset)
            default:
                // A multi-byte character cut by the end of the buffer, or an invalid one.
                if JSONScanner.validSequenceLength(bytes + index, available: limit - index) == 0 {
                    throw invalidUTF8(byte, at: offset)
                }
                appendToScratch(try decodeScalarSlowly())
            }
            if scratch.count > maxStringBytes { throw tooLong(at: quoteOffset) }
        }
    }

    /// The end of the run of bytes from `start` that a string holds as they are: printable ASCII
    /// other than `"` and `\\`, and well-formed multi-byte characters. Eight bytes are checked at
    /// once (SWAR): the high bit of a byte of `special` is set when that byte is `"`, `\\`, a
    /// control character or non-ASCII. Borrows can only mark bytes above a truly special one, so
    /// the lowest marked byte is exact.
    @inline(__always)
    static func plainRunEnd(_ bytes: UnsafeMutablePointer<UInt8>, from start: Int, to limit: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while true {
            if limit - index >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                let special =
                    (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                        | (word &- ones &* 0x20) | word) & highBits
                if special == 0 {
                    index += 8
                    continue
                }
                index += special.trailingZeroBitCount >> 3
            } else if index >= limit {
                return index
            }
            let byte = bytes[index]
            if byte >= 0x80 {
                let length = validSequenceLength(bytes + index, available: limit - index)
                if length <= 0 { return index }
                index += length
                continue
            }
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            index += 1
        }
    }

    private func tooLong(at quoteOffset: Int) -> JSONSyntaxError {
        error("string longer than \(maxStringBytes) bytes", at: quoteOffset)
    }

    /// Decodes the escape whose backslash is at the current position into `scratch`. A `\u`
    /// escape of a high surrogate must be followed by one of a low surrogate; they make one scalar.
    private mutating func decodeEscape(quoteOffset: Int) throws {
        let escapeOffset = offset
        position += 1
        let letter = try escapeByte(quoteOffset: quoteOffset)
        switch letter {
        case 0x22, 0x5C, 0x2F: scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            position += 1
            let unit = try hexQuad(quoteOffset: quoteOffset)
            var value = UInt32(unit)
            if (0xDC00...0xDFFF).contains(unit) {
                throw loneSurrogate(unit, at: escapeOffset)
            }
            if (0xD800...0xDBFF).contains(unit) {
                // The low half must follow at once as another \u escape.
                guard try escapeByte(quoteOffset: quoteOffset) == 0x5C else {
                    throw loneSurrogate(unit, at: escapeOffset)
                }
                position += 1
                guard try escapeByte(quoteOffset: quoteOffset) == UInt8(ascii: "u") else {
                    throw loneSurrogate(unit, at: escapeOffset)
                }
                position += 1
                let low = try hexQuad(quoteOffset: quoteOffset)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(unit, at: escapeOffset) }
                value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else { throw loneSurrogate(unit, at: escapeOffset) }
            appendToScratch(scalar)
            return
        default:
            if letter < 0x80 {
                throw error("invalid escape '\\\(Character(Unicode.Scalar(letter)))'", at: escapeOffset)
            }
            throw error("invalid escape", at: escapeOffset)
        }
        position += 1
    }

    /// The next byte inside an escape, unconsumed; the end of the input there ends the string early.
    private mutating func escapeByte(quoteOffset: Int) throws -> UInt8 {
        guard let byte = try peek(), !(lineMode && byte == 0x0A) else {
            throw error("unterminated string", at: quoteOffset)
        }
        return byte
    }

    /// Four hex digits of a `\u` escape, consumed.
    private mutating func hexQuad(quoteOffset: Int) throws -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = try escapeByte(quoteOffset: quoteOffset)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw error("invalid hex digit \(JSONScanner.describe(byte)) in \\u escape", at: offset)
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    private func loneSurrogate(_ unit: UInt16, at escapeOffset: Int) -> JSONSyntaxError {
        error("lone surrogate \\u\(JSONScanner.hex(UInt32(unit), digits: 4))", at: escapeOffset)
    }
}
