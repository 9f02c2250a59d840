#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the reader's bytes come from: a file, or memory in tests.
///
/// The reader owns one fixed buffer and asks the source to fill it; a source never allocates per
/// call, so a GB file streams through the same 64 KiB.
public protocol ByteSource: AnyObject {
    /// Fills the start of `buffer` with the next bytes and returns how many; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A file read with read(2) on its own descriptor, closed when the source goes away.
///
/// Not Sendable: it owns a file position.
public final class FileByteSource: ByteSource {
    public let path: String
    /// The file's size for a progress line, when it is a regular file.
    public let size: Int64?
    private let descriptor: Int32

    /// Opens `path` for reading; throws `JSONReadError` naming the system's reason.
    public init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            throw JSONReadError(path: path, message: "cannot open: \(FileByteSource.systemMessage(errno))")
        }
        var information = stat()
        if fstat(descriptor, &information) != 0 {
            let code = errno
            close(descriptor)
            throw JSONReadError(path: path, message: "cannot open: \(FileByteSource.systemMessage(code))")
        }
        let kind = information.st_mode & S_IFMT
        if kind == S_IFDIR {
            close(descriptor)
            throw JSONReadError(path: path, message: "cannot open: is a directory")
        }
        self.path = path
        self.descriptor = descriptor
        self.size = kind == S_IFREG ? Int64(information.st_size) : nil
    }

    deinit { close(descriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let start = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, start, buffer.count)
            if count >= 0 { return count }
            let code = errno
            if code == EINTR { continue }
            throw JSONReadError(path: path, message: "cannot read: \(FileByteSource.systemMessage(code))")
        }
    }

    private static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// `read` is shadowed by the method of the same name inside the class.
private func systemRead(_ descriptor: Int32, _ start: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, start, count)
}

/// Bytes held in memory: for tests, and for data that is already small and whole.
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position)
        if count <= 0 { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[position..<(position + count)]))
        }
        position += count
        return count
    }
}
