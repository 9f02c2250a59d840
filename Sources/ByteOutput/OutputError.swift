#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a report file could not be written, with the path involved and what to do about it.
///
/// The CLI prints `description` as its one line on stderr, so every message names the path and,
/// where the system gave one, the cause in words a user can act on.
public struct OutputError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The output folder (or a folder on the way to it) does not exist.
        case missingFolder
        /// A part of the path is a regular file where a folder is needed.
        case notAFolder
        /// The system refused: permissions or a read-only file system.
        case notWritable
        /// No space left on the device (or the user's quota is used up).
        case diskFull
        /// A name taken from the data would leave the output folder.
        case unsafeName
        /// Two tables of one report would write the same file.
        case duplicateName
        /// Any other system error: its `errno` and `strerror` text.
        case system(code: Int32, message: String)
    }

    public var path: String
    public var reason: Reason
    /// What was being done: `create the temporary file`, `rename into place`.
    public var operation: String

    public init(path: String, reason: Reason, operation: String) {
        self.path = path
        self.reason = reason
        self.operation = operation
    }

    /// Classifies an `errno` value from a failed system call.
    public init(path: String, errno code: Int32, operation: String) {
        let reason: Reason
        switch code {
        case ENOENT: reason = .missingFolder
        case ENOTDIR: reason = .notAFolder
        case EACCES, EPERM, EROFS: reason = .notWritable
        case ENOSPC, EDQUOT: reason = .diskFull
        default: reason = .system(code: code, message: String(cString: strerror(code)))
        }
        self.init(path: path, reason: reason, operation: operation)
    }

    public var description: String {
        let prefix = "cannot write \(path) (\(operation)): "
        switch reason {
        case .missingFolder:
            return prefix + "the folder does not exist; create it or choose another with -o"
        case .notAFolder:
            return prefix + "a part of the path is a file, not a folder; choose another folder with -o"
        case .notWritable:
            return prefix + "permission denied or read-only file system; choose a writable folder with -o"
        case .diskFull:
            return prefix + "no space left on the device; free some space and run again"
        case .unsafeName:
            return prefix + "the name would leave the output folder"
        case .duplicateName:
            return prefix + "two tables of the report would write the same file"
        case .system(let code, let message):
            return prefix + "\(message) (errno \(code))"
        }
    }
}
