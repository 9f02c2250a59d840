/// A byte source that keeps the first four bytes of another one aside, so that the reader can say
/// a file is UTF-16 or UTF-32 whatever its buffer size (tests read with 1-byte buffers).
///
/// The first `read` collects up to four bytes (fewer only at the end of the file), then hands them
/// out before passing the rest through. One more call per buffer refill is all it costs.
///
/// Not Sendable: it owns the position of the source it wraps.
final class LeadingBytesSource: ByteSource {
    private let source: ByteSource
    /// The file's first bytes (up to four), known after the first `read`.
    private(set) var leadingBytes: [UInt8] = []
    private var collected = false
    private var handedOut = 0

    init(_ source: ByteSource) { self.source = source }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if !collected { try collect() }
        if handedOut < leadingBytes.count {
            let count = min(buffer.count, leadingBytes.count - handedOut)
            for index in 0..<count { buffer[index] = leadingBytes[handedOut + index] }
            handedOut += count
            return count
        }
        return try source.read(into: buffer)
    }

    private func collect() throws {
        collected = true
        var four: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        try withUnsafeMutableBytes(of: &four) { raw in
            var count = 0
            while count < 4 {
                let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
                if read <= 0 { break }
                count += read
            }
            leadingBytes = Array(raw[..<count])
        }
    }

    /// `UTF-16` or `UTF-32` when the first bytes are that encoding's byte order mark, or JSON's
    /// first ASCII character with the zero bytes those encodings put beside it (RFC 4627 §3); nil
    /// otherwise. No UTF-8 JSON text starts that way: it never holds a zero byte outside a string,
    /// nor 0xFE or 0xFF at all.
    static func foreignEncoding(_ bytes: [UInt8]) -> String? {
        if bytes.count >= 4 {
            if bytes[0...3] == [0x00, 0x00, 0xFE, 0xFF] || bytes[0...3] == [0xFF, 0xFE, 0x00, 0x00] {
                return "UTF-32"
            }
            if bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] != 0 { return "UTF-32" }
            if bytes[0] != 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0 { return "UTF-32" }
        }
        if bytes.count >= 2 {
            if bytes[0...1] == [0xFE, 0xFF] || bytes[0...1] == [0xFF, 0xFE] { return "UTF-16" }
            if bytes[0] == 0 && bytes[1] != 0 && bytes[1] < 0x80 { return "UTF-16" }
            if bytes[0] != 0 && bytes[0] < 0x80 && bytes[1] == 0 { return "UTF-16" }
        }
        return nil
    }
}
