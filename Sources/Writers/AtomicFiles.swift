import ByteOutput
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and folders that appear whole or not at all (SPEC §6: a dashboard never reads half a file).
///
/// A file is written to a hidden temporary sibling (`.name.tmp-<pid>-<random>`, same directory so
/// the rename never crosses file systems), fsynced, then renamed over the destination. A folder
/// (the CSV tables of one report) is filled as a temporary sibling, then swapped in: the old
/// folder is renamed away, the new one renamed in, the old one deleted. Between those two renames
/// the folder is briefly absent, never half-written (Linux's `renameat2(RENAME_EXCHANGE)` would
/// close that gap, but Swift's Glibc module does not expose it). On any error the temporary file
/// or folder is removed and an `OutputError` is thrown; the destination is left as it was.
extension OutputFiles {
    /// Writes a file atomically; `body` streams the contents into the sink.
    public static func writeFile(at url: URL, _ body: (ByteSink) throws -> Void) throws {
        let destination = url.path
        let temporary = TemporaryNames.sibling(of: url).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError(path: destination, errno: errno, operation: "create the temporary file")
        }
        var isOpen = true
        do {
            let sink = ByteSink(fileDescriptor: descriptor, path: destination)
            try body(sink)
            try sink.flush()
            guard fsync(descriptor) == 0 else {
                throw OutputError(path: destination, errno: errno, operation: "fsync")
            }
            isOpen = false
            guard close(descriptor) == 0 else {
                throw OutputError(path: destination, errno: errno, operation: "close")
            }
            guard rename(temporary, destination) == 0 else {
                throw OutputError(path: destination, errno: errno, operation: "rename into place")
            }
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary)
            throw error
        }
        syncDirectory(url.deletingLastPathComponent().path)
    }

    /// Moves a finished file written aside by someone else (libxlsxwriter's workbook) into place
    /// as `writeFile` does its own: the file fsynced, renamed over `destination`, the rename made
    /// durable by an fsync of the folder.
    public static func moveIntoPlace(_ temporary: String, at destination: String) throws {
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OutputError(path: destination, errno: errno, operation: "open") }
        guard fsync(descriptor) == 0 else {
            let code = errno
            close(descriptor)
            throw OutputError(path: destination, errno: code, operation: "fsync")
        }
        close(descriptor)
        guard rename(temporary, destination) == 0 else {
            throw OutputError(path: destination, errno: errno, operation: "rename into place")
        }
        syncDirectory(URL(fileURLWithPath: destination).deletingLastPathComponent().path)
    }

    /// Writes a text file atomically.
    public static func writeFile(at url: URL, contents: String) throws {
        try writeFile(at: url) { try $0.write(contents) }
    }

    /// Builds a folder atomically: `body` fills the temporary folder it is given (any files,
    /// written however it likes), then the folder replaces `url` as a whole.
    public static func writeFolder(at url: URL, _ body: (URL) throws -> Void) throws {
        let destination = url.path
        let temporaryURL = TemporaryNames.sibling(of: url)
        guard mkdir(temporaryURL.path, 0o755) == 0 else {
            throw OutputError(path: destination, errno: errno, operation: "create the temporary folder")
        }
        do {
            try body(temporaryURL)
            syncDirectory(temporaryURL.path)
            try swapIn(temporaryURL.path, at: destination, old: TemporaryNames.sibling(of: url, .replaced).path)
        } catch var failure as OutputError {
            removeTree(temporaryURL.path)
            // Name the file as the user will look for it (`Reports/fleet-x/loans.csv`), not by the
            // hidden temporary folder that no longer exists.
            if failure.path.hasPrefix(temporaryURL.path + "/") {
                failure.path = destination + failure.path.dropFirst(temporaryURL.path.count)
            }
            throw failure
        } catch {
            removeTree(temporaryURL.path)
            throw error
        }
        syncDirectory(url.deletingLastPathComponent().path)
    }

    /// Renames `temporary` to `destination`, moving an existing destination to `old` first and
    /// deleting it afterwards; puts the old one back if the second rename fails.
    private static func swapIn(_ temporary: String, at destination: String, old: String) throws {
        var status = stat()
        let exists = lstat(destination, &status) == 0
        if exists {
            guard rename(destination, old) == 0 else {
                throw OutputError(path: destination, errno: errno, operation: "move the previous folder aside")
            }
        }
        guard rename(temporary, destination) == 0 else {
            let code = errno
            if exists { rename(old, destination) }
            throw OutputError(path: destination, errno: code, operation: "rename into place")
        }
        if exists { removeTree(old) }
    }

    /// Makes a rename durable across a crash; best effort (some file systems refuse it).
    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Removes a temporary or replaced folder; a failure leaves only a hidden sibling behind.
    private static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
