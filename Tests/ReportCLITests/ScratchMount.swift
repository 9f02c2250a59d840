import ArgumentParsing
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted for one test: a disk that fills up after a few megabytes, or a file
/// system turned read-only under a database. Mounting needs root (or CAP_SYS_ADMIN); elsewhere the
/// test is skipped with the reason, since a full disk cannot be faked faithfully any other way.
final class ScratchMount {
    let url: URL
    private var mounted = false
    private let options: String

    var path: String { url.path }

    /// Mounts a tmpfs of `megabytes` at a new folder `name` under `parent`.
    init(in parent: URL, name: String = "disk", kilobytes: Int) throws {
        url = parent.appendingPathComponent(name)
        options = "size=\(kilobytes)k,mode=0755"
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard mount("tmpfs", url.path, "tmpfs", 0, options) == 0 else {
            let code = errno
            throw XCTSkip(
                "cannot mount a \(kilobytes) KB tmpfs at \(url.path) (\(String(cString: strerror(code)))): "
                    + "a full or read-only file system needs root or CAP_SYS_ADMIN; this fault is not tested here")
        }
        mounted = true
    }

    /// Makes the mounted file system read-only (as a failing disk or an `ro` remount would).
    func remountReadOnly() throws {
        guard mount("tmpfs", url.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), options) == 0 else {
            throw XCTSkip("cannot remount \(url.path) read-only: \(String(cString: strerror(errno)))")
        }
    }

    func remountWritable() {
        _ = mount("tmpfs", url.path, "tmpfs", UInt(MS_REMOUNT), options)
    }

    /// Fills the file system up to about `leaving` bytes of free space, with a file `name`.
    func fill(leaving bytes: Int, name: String = "filler") throws {
        var stats = statvfs()
        guard statvfs(url.path, &stats) == 0 else { throw POSIXError(.EIO) }
        let free = Int(stats.f_bavail) * Int(stats.f_frsize)
        let size = max(0, free - bytes)
        let file = url.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: file, contents: nil),
            let handle = FileHandle(forWritingAtPath: file)
        else { throw POSIXError(.EIO) }
        defer { try? handle.close() }
        let chunk = Data(count: 64 << 10)
        var written = 0
        while written < size {
            let piece = min(chunk.count, size - written)
            try handle.write(contentsOf: chunk.prefix(piece))
            written += piece
        }
    }

    func unmount() {
        guard mounted else { return }
        if umount2(url.path, 0) != 0 { umount2(url.path, Int32(MNT_DETACH)) }
        mounted = false
    }

    deinit { unmount() }
}
