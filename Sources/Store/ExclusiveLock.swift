import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock one job of a store holds at a time (`report nightly`), taken without waiting and held
/// until `release()` or until the holder goes, however it goes: each backend uses the lock its
/// platform drops when a process dies. A SQLite file is locked with `flock` on a file beside it
/// (`<file>.<name>.lock`), a PostgreSQL database with a session advisory lock of the server, which
/// machines sharing the server all see.
public final class ExclusiveLock {
    private var releaseAction: (() -> Void)?

    init(release: @escaping () -> Void) { releaseAction = release }

    deinit { release() }

    /// Gives the lock back (the process's end does too).
    public func release() {
        releaseAction?()
        releaseAction = nil
    }
}

/// What `Database.tryExclusiveLock(named:)` got: the lock, or who holds it, as a message names
/// it (`report.sqlite.nightly.lock (pid 4242)`, `the nightly lock of postgresql://…`).
public enum ExclusiveLockAttempt {
    case acquired(ExclusiveLock)
    case held(by: String)
}

/// An exclusive `flock` on a file: the kernel drops it when its holder dies (`kill -9`, power
/// cut, OOM killer), so a killed run never blocks the next one and nothing stale is left to clean
/// up. The holder writes its pid into the file only so that a refused run can name it. The file is
/// never deleted: unlinking a lock file lets two runs lock two different inodes of the same name.
enum LockFile {
    static func tryLock(path: String) throws -> ExclusiveLockAttempt {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(
                "\(path): cannot open the lock file (\(String(cString: strerror(errno)))); check the folder of --db")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            defer { close(descriptor) }
            if code == EWOULDBLOCK {
                return .held(by: "\(path) (pid \(readPid(descriptor).map(String.init) ?? "unknown"))")
            }
            throw StoreError("\(path): cannot lock (\(String(cString: strerror(code))))")
        }
        let text = Array("\(getpid())\n".utf8)
        // Best effort: the pid only makes the refusal message more useful.
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        // Closing the descriptor drops the `flock`; the file stays.
        return .acquired(ExclusiveLock { close(descriptor) })
    }

    /// The pid the holder wrote, or nil when the file is empty or garbled (it may be mid-write).
    private static func readPid(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
