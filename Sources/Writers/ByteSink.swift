#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A buffered byte stream to a file descriptor (or to memory), written in 64 KiB chunks, so that a
/// million-row CSV goes to disk or to a pipe without ever sitting in memory whole.
///
/// The sink does not own the descriptor: whoever opened it closes it (the atomic writer fsyncs and
/// closes its temporary file; standard output stays open). Call `flush()` when done: a sink that
/// is dropped with bytes still buffered loses them, because `deinit` cannot report an error.
/// Not `Sendable`: one writer uses it from one thread.
public final class ByteSink {
    /// The size of the buffer and of every write to the descriptor but the last.
    public static let chunkSize = 65_536

    /// The path named in errors (`<standard output>` for standard output).
    public let path: String
    private let fileDescriptor: Int32?
    private let buffer: UnsafeMutablePointer<UInt8>
    private var used = 0
    /// What a memory sink has received, after `flush()`.
    public private(set) var collectedBytes: [UInt8] = []
    /// Bytes handed to the descriptor or collected so far (buffered bytes not included).
    public private(set) var bytesWritten = 0

    /// A sink writing to an open descriptor; `path` is only used in error messages.
    public init(fileDescriptor: Int32, path: String) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: ByteSink.chunkSize)
    }

    /// A sink collecting its bytes in `collectedBytes` (for `render` functions and tests).
    public init() {
        fileDescriptor = nil
        path = "<memory>"
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: ByteSink.chunkSize)
    }

    /// A sink on standard output, for `report … --csv -` style piping.
    public static func standardOutput() -> ByteSink {
        ByteSink(fileDescriptor: STDOUT_FILENO, path: "<standard output>")
    }

    deinit { buffer.deallocate() }

    /// The collected bytes as UTF-8 text (memory sinks; flushes first).
    public func collectedText() throws -> String {
        try flush()
        return String(decoding: collectedBytes, as: UTF8.self)
    }

    @inline(__always)
    public func write(_ byte: UInt8) throws {
        if used == ByteSink.chunkSize { try flush() }
        buffer[used] = byte
        used += 1
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            if used == ByteSink.chunkSize { try flush() }
            let take = min(bytes.count - offset, ByteSink.chunkSize - used)
            guard let base = bytes.baseAddress else { return }
            (buffer + used).update(from: base.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: take)
            used += take
            offset += take
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Hands the buffered bytes to the descriptor (retrying short writes and `EINTR`).
    public func flush() throws {
        guard used > 0 else { return }
        defer { used = 0 }
        guard let fileDescriptor else {
            collectedBytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: used))
            bytesWritten += used
            return
        }
        var offset = 0
        while offset < used {
            let result = systemWrite(fileDescriptor, buffer + offset, used - offset)
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                throw OutputError(path: path, errno: code, operation: "write")
            }
            offset += result
        }
        bytesWritten += used
    }
}
