import Foundation

/// One line a person can act on for the SQLite failures that come from the world rather than
/// from a bug: a lock held by another process, a read-only or damaged file, a full disk.
///
/// `SQLiteError.description` is right for a developer (`SQLite error 13: database or disk is full -
/// while executing `COMMIT``) but names neither the database nor what to do. The command line
/// (and the importer's per-file message) use this instead; SQLite's own words stay in the line so
/// that a search for the message still finds it.
extension SQLiteError: StoreFailure {
    /// `report.sqlite is locked by another process …; try again …` for the known cases, the plain
    /// description for the others.
    public func advice(database path: String) -> String {
        let cause = "(SQLite error \(code): \(sqliteMessage(database: path)))"
        var isFolder: ObjCBool = false
        if code.primary == .cannotOpen || code.primary == .ioError,
            FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
        {
            // SQLite cannot say it: opening a folder gives `unable to open` or `disk I/O error`.
            return "\(path) is a folder, not a database file; give --db a file path, e.g. "
                + "\(path.hasSuffix("/") ? path : path + "/")report.sqlite"
        }
        switch code.primary {
        case .busy, .locked:
            return "\(path) is locked by another process \(cause) and stayed locked for the whole --busy-timeout; "
                + "try again when the other import or report has finished, or give a longer --busy-timeout"
        case .readOnly:
            return "\(path) is read-only \(cause); make the file and its folder writable, or give another --db"
        case .corrupt:
            return "\(path) is damaged \(cause); restore it from a backup, or import into a new --db"
        case .notADatabase:
            return "\(path) is not a SQLite database \(cause); give --db the path of a report database"
        case .full:
            return "the disk holding \(path) is full \(cause); free some space and run again"
        case .cannotOpen:
            return "cannot open \(path) \(cause); check that its folder exists and is writable "
                + "(SQLite keeps its -wal and -shm files beside the database)"
        case .ioError:
            return "input/output error on \(path) \(cause); check the disk and run again"
        default:
            return description
        }
    }

    /// SQLite's message without the ` (path)` that `Database.init` appends, which the advice names itself.
    private func sqliteMessage(database path: String) -> String {
        let suffix = " (\(path))"
        return message.hasSuffix(suffix) ? String(message.dropLast(suffix.count)) : message
    }
}
