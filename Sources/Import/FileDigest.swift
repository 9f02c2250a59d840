import CCrypto
import Foundation
import Glibc

/// SHA-256 of a file, read in fixed-size chunks (OpenSSL's libcrypto does the hashing).
public enum FileDigest {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The file's SHA-256 as lower-case hex, and its size in bytes.
    public static func sha256(path: String) throws -> (hex: String, size: Int64) {
        let descriptor = try open(path)
        defer { close(descriptor) }
        return try hash(descriptor, path: path)
    }

    /// Opens the file for reading, failing as `sha256` does.
    static func open(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw Failure(description: "\(path): cannot open (\(String(cString: strerror(errno))))")
        }
        return descriptor
    }

    /// Reads an open file to its end: its SHA-256 as lower-case hex, and its size. `stop` is asked
    /// before each read of 1 MiB; when it answers true the hashing ends with a failure.
    static func hash(
        _ descriptor: Int32, path: String, stop: () -> Bool = { false }
    ) throws -> (hex: String, size: Int64) {
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "\(path): cannot start SHA-256") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw Failure(description: "\(path): cannot start SHA-256")
        }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var size: Int64 = 0
        while true {
            if stop() { throw Failure(description: "\(path): SHA-256 stopped") }
            let count = read(descriptor, buffer, chunk)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "\(path): read error (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            size += Int64(count)
            guard EVP_DigestUpdate(context, buffer, count) == 1 else {
                throw Failure(description: "\(path): SHA-256 failed")
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
            throw Failure(description: "\(path): SHA-256 failed")
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in digest.prefix(Int(length)) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return (String(decoding: hex, as: UTF8.self), size)
    }
}

/// A file's SHA-256 computed on a thread of its own, so that an import reads and stores the file
/// meanwhile instead of after a whole read of it (a 200 MB file took 0.4-0.6 s to hash, all of it
/// before the first record). The file is opened at once, so a file that cannot be opened fails
/// as before, and its size (from the open file) is known at once too.
///
/// The thread is joined by `finish()`: a process that exits while the thread still runs (a
/// zero-byte file refused at once, then `exit`) tears libcrypto down under it, which crashed the
/// binary with SIGSEGV (exit 139) in one CI run out of many.
final class BackgroundDigest: @unchecked Sendable {
    let size: Int64
    private let condition = NSCondition()
    private var outcome: Result<String, FileDigest.Failure>?
    private var cancelled = false
    private var thread: pthread_t?

    /// `hashing` false: only the size (`report check` stores nothing, so needs no digest).
    init(path: String, hashing: Bool = true) throws {
        let descriptor = try FileDigest.open(path)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw FileDigest.Failure(description: "\(path): cannot read (\(String(cString: strerror(errno))))")
        }
        size = Int64(status.st_size)
        guard hashing else {
            close(descriptor)
            outcome = .failure(FileDigest.Failure(description: "\(path): no digest was asked for"))
            return
        }
        let work = Work { [self] in
            let result: Result<String, FileDigest.Failure>
            do {
                let digest = try FileDigest.hash(descriptor, path: path, stop: { self.isCancelled })
                result = .success(digest.hex)
            } catch {
                result = .failure(error as? FileDigest.Failure ?? FileDigest.Failure(description: "\(path): \(error)"))
            }
            close(descriptor)
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        var created = pthread_t()
        let context = Unmanaged.passRetained(work).toOpaque()
        let started = pthread_create(
            &created, nil,
            { context in
                let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                work.body()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            close(descriptor)
            throw FileDigest.Failure(description: "\(path): cannot start the SHA-256 thread (\(started))")
        }
        thread = created
    }

    deinit {
        // The last reference may be the thread's own (its body holds the digest): it cannot join
        // itself, so it lets itself go.
        if let running = thread {
            if pthread_equal(running, pthread_self()) != 0 { pthread_detach(running) } else { finish() }
        }
    }

    /// The thread's body, handed to `pthread_create` through an opaque pointer.
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Stops the hashing at its next read and waits for the thread to end: after this, no
    /// libcrypto call of this digest is running or will run. Idempotent.
    func finish() {
        cancel()
        condition.lock()
        let running = thread
        thread = nil
        condition.unlock()
        if let running { pthread_join(running, nil) }
    }

    /// Asks the hashing thread to stop at its next read (the digest is not needed any more).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.unlock()
    }

    private var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// The digest once it is known, without waiting.
    var ready: Result<String, FileDigest.Failure>? {
        condition.lock()
        defer { condition.unlock() }
        return outcome
    }

    /// The digest, waiting for it.
    func wait() -> Result<String, FileDigest.Failure> {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return outcome!
    }
}
