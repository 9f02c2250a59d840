/// Append-only bytes in chunks of about 1 MiB, with variable-length integers and strings: the
/// storage of the report's big tables (`daily`, `quality`) between the analysis and the writers.
///
/// Why: a decoded row of Swift values costs 100 bytes and more; packed it costs about 20, so
/// 10,000 users × 365 days stay far below the memory budget. Chunks mean growing never copies the
/// whole buffer (no doubling spike). A record never spans two chunks, so a reader decodes each one
/// from a single contiguous buffer.
struct HabitsPackedBytes: Sendable {
    static let chunkSize = 1 << 20

    private var chunks: [[UInt8]] = []
    /// How many records were appended.
    private(set) var count = 0

    /// Appends one record of at most `maximumSize` bytes, written by `write`.
    mutating func append(maximumSize: Int, _ write: (inout Writer) -> Void) {
        if chunks.isEmpty
            || chunks[chunks.count - 1].count + maximumSize > max(Self.chunkSize, chunks[chunks.count - 1].capacity)
        {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkSize, maximumSize))
            chunks.append(chunk)
        }
        var writer = Writer(bytes: [])
        swap(&writer.bytes, &chunks[chunks.count - 1])
        write(&writer)
        swap(&writer.bytes, &chunks[chunks.count - 1])
        count += 1
    }

    /// Each record in order: `read` decodes one from the reader and returns its value.
    func makeIterator<Element>(_ read: @escaping (inout Reader) -> Element) -> AnyIterator<Element> {
        let chunks = self.chunks
        var chunkIndex = 0
        var offset = 0
        return AnyIterator {
            while chunkIndex < chunks.count, offset >= chunks[chunkIndex].count {
                chunkIndex += 1
                offset = 0
            }
            guard chunkIndex < chunks.count else { return nil }
            return chunks[chunkIndex].withUnsafeBufferPointer { buffer in
                var reader = Reader(bytes: buffer, offset: offset)
                let element = read(&reader)
                offset = reader.offset
                return element
            }
        }
    }

    /// Writes into the current chunk (moved in and out with `swap`, so never copied).
    struct Writer {
        fileprivate var bytes: [UInt8]

        mutating func byte(_ value: UInt8) { bytes.append(value) }

        /// LEB128: 7 bits a byte, at most 10 bytes.
        mutating func unsigned(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        /// Zigzag then LEB128, so that small negative numbers stay small.
        mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

        /// The 8 bytes of a double, exact.
        mutating func double(_ value: Double) {
            var bits = value.bitPattern
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }

        /// Length then UTF-8 bytes.
        mutating func string(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                unsigned(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        /// The most bytes `string` writes for `value`.
        static func size(of value: String) -> Int { value.utf8.count + 10 }
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        fileprivate(set) var offset: Int

        mutating func byte() -> UInt8 {
            guard offset < bytes.count else { return 0 }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func unsigned() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if shift < 64 { value |= UInt64(byte & 0x7f) << shift }
                if byte < 0x80 { break }
                shift += 7
            }
            return value
        }

        mutating func signed() -> Int64 {
            let value = unsigned()
            return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }

        mutating func double() -> Double {
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(byte()) << (8 * UInt64(index)) }
            return Double(bitPattern: bits)
        }

        mutating func string() -> String {
            let length = Int(unsigned())
            let end = min(bytes.count, offset + length)
            defer { offset = end }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        }
    }
}
