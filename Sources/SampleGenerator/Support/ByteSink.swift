import Foundation

/// Why writing failed, in words a user can act on.
struct OutputError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "cannot write \(path): \(reason)" }
}

/// A file opened for writing behind a fixed 1 MiB buffer.
///
/// The big modes write hundreds of megabytes record by record; a fixed buffer keeps memory flat
/// and turns millions of tiny appends into a few hundred `write` calls. It owns a file handle
/// and raw memory, so it is a class and not Sendable.
final class ByteSink {
    let path: String
    private let handle: FileHandle
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var count = 0
    private(set) var bytesWritten: Int64 = 0
    private var closed = false

    init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw OutputError(path: path, reason: "cannot create folder \(directory)")
            }
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw OutputError(path: path, reason: "cannot create the file (check the folder and its permissions)")
        }
        self.handle = handle
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        if !closed { try? handle.close() }
        storage.deallocate()
    }

    @inline(__always)
    func append(_ byte: UInt8) throws {
        if count == capacity { try flush() }
        storage[count] = byte
        count += 1
    }

    /// Room for at least `needed` bytes without a flush in between (needed ≤ 1 MiB).
    @inline(__always)
    func reserve(_ needed: Int) throws -> UnsafeMutablePointer<UInt8> {
        if capacity - count < needed { try flush() }
        return storage + count
    }

    /// Declares `written` bytes filled after `reserve`.
    @inline(__always)
    func commit(_ written: Int) {
        count += written
    }

    func append(_ text: StaticString) throws {
        let length = text.utf8CodeUnitCount
        let target = try reserve(length)
        target.update(from: text.utf8Start, count: length)
        commit(length)
    }

    func flush() throws {
        guard count > 0 else { return }
        do {
            try handle.write(contentsOf: Data(bytesNoCopy: storage, count: count, deallocator: .none))
        } catch {
            throw OutputError(path: path, reason: "\(error.localizedDescription) (is the disk full?)")
        }
        bytesWritten += Int64(count)
        count = 0
    }

    func close() throws {
        try flush()
        closed = true
        do { try handle.close() } catch {
            throw OutputError(path: path, reason: error.localizedDescription)
        }
    }
}
