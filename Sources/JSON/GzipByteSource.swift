import CZlib

/// A gzip-compressed source (`tasks.json.gz`), inflated as it is read with zlib: a GB export
/// stays compressed on disk and streams through two fixed buffers. Concatenated gzip members
/// (as `cat a.gz b.gz` makes) are read one after the other.
///
/// Not Sendable: it owns the compressed source and zlib's state.
public final class GzipByteSource: ByteSource {
    private let compressed: ByteSource
    private let name: String
    private var stream = z_stream()
    private let input: UnsafeMutableRawBufferPointer
    private var inputEnded = false
    private var finished = false
    /// Compressed bytes read so far (the progress line compares them with the file's size).
    public private(set) var compressedBytesRead = 0

    /// - Parameter name: the file, for messages.
    public init(_ compressed: ByteSource, name: String, inputBufferSize: Int = 64 << 10) throws {
        self.compressed = compressed
        self.name = name
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, inputBufferSize), alignment: 16)
        guard report_inflate_init_gzip(&stream) == Z_OK else {
            input.deallocate()
            throw JSONReadError(path: name, message: "cannot start gzip decompression")
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let start = buffer.baseAddress, buffer.count > 0, !finished else { return 0 }
        stream.next_out = start.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while stream.avail_out == UInt32(min(buffer.count, Int(UInt32.max))) {
            if stream.avail_in == 0 && !inputEnded {
                let count = try compressed.read(into: input)
                compressedBytesRead += count
                if count == 0 { inputEnded = true }
                stream.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = UInt32(count)
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            switch status {
            case Z_OK:
                if inputEnded && stream.avail_in == 0 && stream.avail_out == UInt32(min(buffer.count, Int(UInt32.max)))
                {
                    throw JSONReadError(path: name, message: "gzip data cut short (the file is truncated)")
                }
            case Z_STREAM_END:
                // Another gzip member may follow; otherwise this is the end.
                if stream.avail_in == 0 && inputEnded {
                    finished = true
                    return buffer.count - Int(stream.avail_out)
                }
                if stream.avail_in == 0 {
                    let count = try compressed.read(into: input)
                    compressedBytesRead += count
                    if count == 0 {
                        inputEnded = true
                        finished = true
                        return buffer.count - Int(stream.avail_out)
                    }
                    stream.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.avail_in = UInt32(count)
                }
                guard inflateReset(&stream) == Z_OK else {
                    throw JSONReadError(path: name, message: "cannot restart gzip decompression")
                }
            case Z_BUF_ERROR where inputEnded:
                throw JSONReadError(path: name, message: "gzip data cut short (the file is truncated)")
            case Z_BUF_ERROR:
                continue
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw JSONReadError(path: name, message: "invalid gzip data (\(detail))")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }
}
