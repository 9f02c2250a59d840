/// Strict UTF-8 (RFC 3629): no overlong forms, no encoded surrogates, nothing above U+10FFFF, no
/// truncated sequences. An invalid sequence is reported at its first byte, naming that byte.
extension JSONScanner {
    /// Length of the valid sequence starting at `start` (whose first byte is ≥ 0x80), given the
    /// `available` bytes; 0 when invalid, -1 when the buffer ends before the sequence can be judged.
    @inline(__always)
    static func validSequenceLength(_ start: UnsafeMutablePointer<UInt8>, available: Int) -> Int {
        guard let (length, secondLow, secondHigh) = sequenceShape(lead: start[0]) else { return 0 }
        if available < 2 { return -1 }
        let second = start[1]
        if second < secondLow || second > secondHigh { return 0 }
        var index = 2
        while index < length {
            if index >= available { return -1 }
            if start[index] & 0xC0 != 0x80 { return 0 }
            index += 1
        }
        return length
    }

    /// Bounds of the second byte for a lead byte, nil for a byte that cannot start a sequence.
    @inline(__always)
    static func sequenceShape(lead: UInt8) -> (length: Int, secondLow: UInt8, secondHigh: UInt8)? {
        switch lead {
        case 0xC2...0xDF: return (2, 0x80, 0xBF)
        case 0xE0: return (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE, 0xEF: return (3, 0x80, 0xBF)
        case 0xED: return (3, 0x80, 0x9F)
        case 0xF0: return (4, 0x90, 0xBF)
        case 0xF1...0xF3: return (4, 0x80, 0xBF)
        case 0xF4: return (4, 0x80, 0x8F)
        default: return nil
        }
    }

    func invalidUTF8(_ lead: UInt8, at byteOffset: Int) -> JSONSyntaxError {
        error("invalid UTF-8 byte 0x" + JSONScanner.hex(UInt32(lead), digits: 2), at: byteOffset)
    }

    /// Decodes the multi-byte sequence at the current position byte by byte (it may straddle
    /// refills) and consumes it. A byte that does not fit is left unconsumed.
    mutating func decodeScalarSlowly() throws -> Unicode.Scalar {
        let leadOffset = offset
        guard let lead = try peek() else { throw try endOfInput() }
        if lead < 0x80 { position += 1; return Unicode.Scalar(lead) }
        guard let shape = JSONScanner.sequenceShape(lead: lead) else { throw invalidUTF8(lead, at: leadOffset) }
        position += 1
        var value = UInt32(lead) & (shape.length == 2 ? 0x1F : shape.length == 3 ? 0x0F : 0x07)
        for index in 1..<shape.length {
            guard let next = try peek() else { throw invalidUTF8(lead, at: leadOffset) }
            let low: UInt8 = index == 1 ? shape.secondLow : 0x80
            let high: UInt8 = index == 1 ? shape.secondHigh : 0xBF
            if next < low || next > high { throw invalidUTF8(lead, at: leadOffset) }
            position += 1
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { throw invalidUTF8(lead, at: leadOffset) }
        return scalar
    }

    /// Appends the UTF-8 form of `scalar` to `scratch`.
    mutating func appendToScratch(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            scratch.append(UInt8(value))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | value >> 6))
            scratch.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | value >> 12))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | value >> 18))
            scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
