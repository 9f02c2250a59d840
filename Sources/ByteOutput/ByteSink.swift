#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif

/// A buffered byte stream to a file descriptor (or to memory), written in fixed chunks (64 KiB
/// unless told otherwise), so that a million-row CSV or a 200 MB generated export goes to disk or
/// to a pipe without ever sitting in memory whole.
///
/// A sink made with `init(fileDescriptor:path:)` does not own the descriptor: whoever opened it
/// closes it (the atomic writer fsyncs and closes its temporary file; standard output stays open).
/// A sink made with `init(creating:)` owns the file it created and closes it in `close()`.
/// Call `flush()` (or `close()`) when done: a sink that is dropped with bytes still buffered loses
/// them, because `deinit` cannot report an error. Not `Sendable`: one writer uses it from one thread.
public final class ByteSink {
    /// The default size of the buffer and of every write to the descriptor but the last.
    public static let chunkSize = 65_536

    /// The path named in errors (`<standard output>` for standard output).
    public let path: String
    private let fileDescriptor: Int32?
    /// Whether `close()` (or `deinit`) closes the descriptor.
    private var ownsDescriptor = false
    private let buffer: UnsafeMutablePointer<UInt8>
    /// The buffer's size: every write to the descriptor but the last is this long.
    public let capacity: Int
    private var used = 0
    /// What a memory sink has received, after `flush()`.
    public private(set) var collectedBytes: [UInt8] = []
    /// Bytes handed to the descriptor or collected so far (buffered bytes not included).
    public private(set) var bytesWritten = 0

    /// A sink writing to an open descriptor; `path` is only used in error messages.
    public init(fileDescriptor: Int32, path: String, capacity: Int = ByteSink.chunkSize) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        self.capacity = capacity
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    /// A sink collecting its bytes in `collectedBytes` (for `render` functions and tests).
    public init() {
        fileDescriptor = nil
        path = "<memory>"
        capacity = ByteSink.chunkSize
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    /// A sink on a new file at `path` (replacing one that is there), which it owns and closes in
    /// `close()`. The folder must exist; `OutputError` says what is wrong when the file cannot be made.
    public convenience init(creating path: String, capacity: Int = ByteSink.chunkSize) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, errno: errno, operation: "create the file") }
        self.init(fileDescriptor: descriptor, path: path, capacity: capacity)
        ownsDescriptor = true
    }

    /// A sink on standard output, for `report … --csv -` style piping.
    public static func standardOutput() -> ByteSink {
        ByteSink(fileDescriptor: STDOUT_FILENO, path: "<standard output>")
    }

    deinit {
        if ownsDescriptor, let fileDescriptor { _ = systemClose(fileDescriptor) }
        buffer.deallocate()
    }

    /// Flushes, then closes the descriptor if the sink owns it (`init(creating:)`).
    public func close() throws {
        try flush()
        guard ownsDescriptor, let fileDescriptor else { return }
        ownsDescriptor = false
        if systemClose(fileDescriptor) != 0 { throw OutputError(path: path, errno: errno, operation: "close") }
    }

    /// The collected bytes as UTF-8 text (memory sinks; flushes first).
    public func collectedText() throws -> String {
        try flush()
        return String(decoding: collectedBytes, as: UTF8.self)
    }

    @inline(__always)
    public func write(_ byte: UInt8) throws {
        if used == capacity { try flush() }
        buffer[used] = byte
        used += 1
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            if used == capacity { try flush() }
            let take = min(bytes.count - offset, capacity - used)
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

    public func write(_ text: StaticString) throws {
        try write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Room for at least `needed` contiguous bytes (at most `capacity`), flushing first if the
    /// buffer lacks it; fill some of it, then declare how much with `commit(_:)`. Lets a writer
    /// encode straight into the buffer (the sample generator's JSON) instead of through a copy.
    @inline(__always)
    public func reserve(_ needed: Int) throws -> UnsafeMutablePointer<UInt8> {
        precondition(needed <= capacity, "reserve(\(needed)) exceeds the sink's capacity \(capacity)")
        if capacity - used < needed { try flush() }
        return buffer + used
    }

    /// Declares `written` bytes filled after `reserve(_:)`.
    @inline(__always)
    public func commit(_ written: Int) {
        used += written
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
