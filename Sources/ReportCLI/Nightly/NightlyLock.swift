import ArgumentParsing
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `report nightly` at a time: an exclusive `flock` on `<database>.nightly.lock`.
///
/// `flock` rather than "a pid file that exists": the kernel drops the lock when its holder dies,
/// however it dies (`kill -9`, power cut, OOM killer), so a killed run never blocks the next one
/// and there is nothing stale to clean up. The holder writes its pid into the file only so that a
/// refused run can name it. The file is never deleted: unlinking a lock file lets two runs lock
/// two different inodes of the same name.
final class NightlyLock {
    enum Outcome {
        case acquired(NightlyLock)
        /// Another open file description holds the lock; its pid as written in the file, if any.
        case held(pid: Int32?)
    }

    let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock without waiting, creating the file if needed.
    static func acquire(path: String) throws -> Outcome {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure(
                "\(path): cannot open the lock file (\(String(cString: strerror(errno)))); check the folder of --db")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            defer { close(descriptor) }
            if code == EWOULDBLOCK { return .held(pid: readPid(descriptor)) }
            throw CommandFailure("\(path): cannot lock (\(String(cString: strerror(code))))")
        }
        let text = Array("\(getpid())\n".utf8)
        // Best effort: the pid only makes the refusal message more useful.
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return .acquired(NightlyLock(path: path, descriptor: descriptor))
    }

    /// Releases the lock (closing the descriptor drops the `flock`); the file stays.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
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
