#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte level of the JSON reader: one fixed buffer refilled from a `ByteSource`, the absolute
/// offset of every byte, whitespace, and the error messages that quote a byte.
///
/// A struct held by `JSONRecordReader` so that the hot loops work on plain stored properties and
/// an `UnsafeMutablePointer<UInt8>`, with no class access checks per byte. Tokens may straddle a
/// refill: the buffer is never compacted; a token that runs past its end is copied piece by piece
/// into `scratch` (strings, numbers) or read byte by byte through `peek()` (escapes, literals,
/// multi-byte characters). Every path that rejects a byte leaves it unconsumed, which is what lets
/// JSON Lines resume at the next newline after an error.
struct JSONScanner {
    let source: ByteSource
    /// The fixed buffer: `capacity` bytes for data, then `JSONScanner.padding` zero bytes so that
    /// word loads near the end stay inside the allocation. Owned (and freed) by the reader.
    let bytes: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Next unread byte in the buffer.
    var position = 0
    /// End of the valid bytes in the buffer.
    var limit = 0
    /// Absolute file offset of `bytes[0]`.
    var bufferStart = 0
    var reachedEnd = false
    /// JSON Lines: a newline ends the value being read (it is never whitespace inside a value).
    var lineMode = false

    let maxDepth: Int
    let maxStringBytes: Int
    let maxRecordBytes: Int

    static let padding = 16

    /// Pieces of a string or number that straddles refills; its capacity is kept between tokens.
    var scratch: [UInt8] = []
    /// The containers enclosing the one being filled by `parseRecord` (their tape entries).
    var openContainers: [Int] = []
    /// Where `parseValue` reads a value before making its tree.
    let treeTape = JSONTape()
    /// Where the records are read, one after the other.
    let recordTape = JSONTape()

    init(
        source: ByteSource, bytes: UnsafeMutablePointer<UInt8>, capacity: Int,
        maxDepth: Int, maxStringBytes: Int, maxRecordBytes: Int
    ) {
        self.source = source
        self.bytes = bytes
        self.capacity = capacity
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxRecordBytes = maxRecordBytes
    }

    /// Absolute offset of the next unread byte.
    var offset: Int { bufferStart + position }

    /// Replaces the exhausted buffer with the next bytes of the source; false at the end.
    mutating func refill() throws -> Bool {
        if reachedEnd { return false }
        bufferStart += limit
        position = 0
        limit = 0
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: bytes, count: capacity))
        if count <= 0 {
            reachedEnd = true
            return false
        }
        limit = count
        return true
    }

    /// The next byte without consuming it; nil at the end of the file.
    @inline(__always)
    mutating func peek() throws -> UInt8? {
        if position < limit { return bytes[position] }
        if try refill() { return bytes[position] }
        return nil
    }

    /// Skips whitespace and returns the next byte without consuming it; nil at the end of the
    /// file, and in line mode also at a newline (which stays unconsumed).
    @inline(__always)
    mutating func significantByte() throws -> UInt8? {
        if position < limit {
            let byte = bytes[position]
            if byte > 0x20 { return byte }
        }
        return try significantByteAfterWhitespace()
    }

    private mutating func significantByteAfterWhitespace() throws -> UInt8? {
        while true {
            while position < limit {
                let byte = bytes[position]
                switch byte {
                case 0x20, 0x09, 0x0D: position += 1
                case 0x0A:
                    if lineMode { return nil }
                    position += 1
                default: return byte
                }
            }
            if !(try refill()) { return nil }
        }
    }

    /// Consumes everything up to and including the next newline, without keeping it; false when
    /// the file ends first. How JSON Lines steps over a bad line of any length.
    mutating func skipLine() throws -> Bool {
        while true {
            let remaining = limit - position
            if remaining > 0, let found = memoryFind(bytes + position, 0x0A, remaining) {
                position = found - bytes + 1
                return true
            }
            position = limit
            if !(try refill()) { return false }
        }
    }

    // MARK: Errors

    func error(_ message: String, at byteOffset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, byteOffset: byteOffset)
    }

    /// The input ended where a value or a delimiter was due.
    mutating func endOfInput() throws -> JSONSyntaxError {
        if lineMode, try peek() == 0x0A { return error("unexpected end of line", at: offset) }
        return error("unexpected end of file", at: offset)
    }

    /// The byte at the current position is not allowed there. Non-ASCII bytes are decoded so that
    /// the message quotes the character, or says the UTF-8 is invalid.
    mutating func unexpectedCharacter() throws -> JSONSyntaxError {
        let at = offset
        guard let byte = try peek() else { return try endOfInput() }
        if lineMode && byte == 0x0A { return try endOfInput() }
        if byte < 0x80 { return error("unexpected character \(JSONScanner.describe(byte))", at: at) }
        do {
            let scalar = try decodeScalarSlowly()
            return error("unexpected character \(JSONScanner.describe(scalar))", at: at)
        } catch let syntaxError as JSONSyntaxError {
            return syntaxError
        }
    }

    /// A printable ASCII byte in quotes, a control character as a code point (`U+0000`), any
    /// other byte in hex (`byte 0xC3`).
    static func describe(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 { return "byte 0x" + hex(UInt32(byte), digits: 2) }
        return "U+" + hex(UInt32(byte), digits: 4)
    }

    /// A visible character in quotes; an invisible one (control, format, space, unassigned) as a
    /// code point, so that the message shows what is there.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar.isASCII { return describe(UInt8(scalar.value)) }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned,
            .privateUse, .surrogate, .nonspacingMark, .enclosingMark:
            return "U+" + hex(scalar.value, digits: 4)
        default:
            return "'\(Character(scalar))'"
        }
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// memchr, typed.
@inline(__always)
private func memoryFind(
    _ start: UnsafeMutablePointer<UInt8>, _ byte: UInt8, _ count: Int
) -> UnsafeMutablePointer<UInt8>? {
    memchr(start, Int32(byte), count)?.assumingMemoryBound(to: UInt8.self)
}
