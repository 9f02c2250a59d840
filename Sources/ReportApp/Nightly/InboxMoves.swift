import Foundation
import Import
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves a file out of the inbox, to the archive or to `failed/`, without ever overwriting a file.
///
/// Crash safety rests on two rules. A file leaves the inbox only after its import committed, so a
/// killed run leaves it there and the next run finds it (imported already: skipped by SHA-256,
/// then archived). And a move is idempotent: when the destination name (or a numbered one) already
/// holds the same bytes, the move was done before a kill cut it short, so the inbox copy is just
/// dropped instead of becoming `name-2.json`. Same-folder-tree moves are `link` then `unlink`
/// (`link` fails on an existing name: no overwrite even in a race); across file systems the file
/// is copied to a hidden temporary file in `scratchFolder` (`.<name>.tmp-<pid>-<hex>`, removed by
/// the next run if a kill leaves it), fsynced, linked into place, and only then unlinked.
enum InboxMoves {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Moves `source` into `folder` (created with its parents) as `name`, or `stem-2.ext`,
    /// `stem-3.ext`… when the name holds other bytes. `beforeMove` runs with the chosen path just
    /// before the file is placed (the failed-file move writes its `.error.txt` there). Returns the
    /// path the file now has.
    @discardableResult
    static func move(
        _ source: String, into folder: String, name: String, scratchFolder: String,
        beforeMove: (String) throws -> Void = { _ in }
    ) throws -> String {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw Failure(description: "\(folder): cannot create the folder (\(error.localizedDescription))")
        }
        var attempt = 1
        while true {
            let candidate = folder + "/" + numbered(name, attempt)
            attempt += 1
            var status = stat()
            if lstat(candidate, &status) == 0 {
                if try sameContent(source, candidate) {
                    try beforeMove(candidate)
                    try unlinkSource(source)
                    return candidate
                }
                continue
            }
            try beforeMove(candidate)
            if link(source, candidate) == 0 {
                try unlinkSource(source)
                return candidate
            }
            switch errno {
            case EEXIST:
                continue  // appeared since the lstat: try the next number
            case EXDEV:
                try copy(source, to: candidate, scratchFolder: scratchFolder)
                try unlinkSource(source)
                return candidate
            case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK:
                // A file system without hard links: rename, after the lstat above said the name is free
                // (this job holds the nightly lock; nothing else writes the archive).
                guard rename(source, candidate) == 0 else { throw failure("move", source, candidate) }
                return candidate
            default:
                throw failure("move", source, candidate)
            }
        }
    }

    /// `tasks.json`, `tasks-2.json`, `tasks-3.json`…; `loan_records.jsonl` → `loan_records-2.jsonl`.
    static func numbered(_ name: String, _ attempt: Int) -> String {
        guard attempt > 1 else { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        guard let dot else { return name + "-\(attempt)" }
        return String(name[..<dot]) + "-\(attempt)" + String(name[dot...])
    }

    private static func sameContent(_ first: String, _ second: String) throws -> Bool {
        do {
            let one = try FileDigest.sha256(path: first), two = try FileDigest.sha256(path: second)
            return one.size == two.size && one.hex == two.hex
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    private static func unlinkSource(_ source: String) throws {
        guard unlink(source) == 0 || errno == ENOENT else {
            throw Failure(
                description:
                    "\(source): archived, but cannot remove it from the inbox (\(String(cString: strerror(errno))))")
        }
    }

    /// Copies across file systems: a hidden temporary file in `scratchFolder` (same file system
    /// as the destination), fsynced, then linked to the destination name (never overwriting).
    private static func copy(_ source: String, to destination: String, scratchFolder: String) throws {
        let name = (destination as NSString).lastPathComponent
        let scratch = URL(fileURLWithPath: scratchFolder).appendingPathComponent(
            "." + name + ".tmp-" + String(getpid()) + "-" + String(UInt32.random(in: .min ... .max), radix: 16)
        ).path
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("open", source, destination) }
        defer { close(input) }
        let output = open(scratch, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure("create a temporary copy for", source, scratch) }
        var succeeded = false
        defer { if !succeeded { unlink(scratch) } }
        do {
            defer { close(output) }
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count == 0 { break }
                guard count > 0 else { throw failure("read", source, destination) }
                var offset = 0
                while offset < count {
                    let written = buffer.withUnsafeBytes { bytes -> Int in
                        guard let base = bytes.baseAddress else { return -1 }
                        return write(output, base + offset, count - offset)
                    }
                    guard written > 0 else { throw failure("copy", source, destination) }
                    offset += written
                }
            }
            guard fsync(output) == 0 else { throw failure("fsync the copy of", source, destination) }
        }
        guard link(scratch, destination) == 0 else { throw failure("move", source, destination) }
        unlink(scratch)
        succeeded = true
    }

    private static func failure(_ operation: String, _ source: String, _ destination: String) -> Failure {
        Failure(
            description: "\(source): cannot \(operation) it to \(destination) (\(String(cString: strerror(errno))))")
    }
}
