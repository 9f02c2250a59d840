/// An SQLite result code. Extended codes (`SQLITE_CONSTRAINT_NOTNULL`, 1299) keep their primary
/// code (`SQLITE_CONSTRAINT`, 19) in the low byte: `primary` compares with the named codes.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code of an extended one.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }
    public var description: String { String(rawValue) }

    public static let busy = SQLiteResultCode(rawValue: 5)
    public static let locked = SQLiteResultCode(rawValue: 6)
    public static let readOnly = SQLiteResultCode(rawValue: 8)
    public static let ioError = SQLiteResultCode(rawValue: 10)
    public static let corrupt = SQLiteResultCode(rawValue: 11)
    public static let full = SQLiteResultCode(rawValue: 13)
    public static let cannotOpen = SQLiteResultCode(rawValue: 14)
    public static let constraint = SQLiteResultCode(rawValue: 19)
    public static let notADatabase = SQLiteResultCode(rawValue: 26)
}

/// An error from SQLite itself: its result code, its message and the SQL that was running.
/// (Problems `report` finds in a database, such as one made by a newer release, are `StoreError`s.)
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: SQLiteResultCode
    public let message: String
    public let sql: String?

    /// From a C call's result code.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = SQLiteResultCode(rawValue: code)
        self.message = message
        self.sql = sql
    }

    /// `SQLite error 19: NOT NULL constraint failed: tasks.user_id - while executing `INSERT …``
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql {
            let oneLine = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
            text += " - while executing `\(oneLine.count > 120 ? String(oneLine.prefix(117)) + "..." : oneLine)`"
        }
        return text
    }

    /// The database is locked by another writer past the busy timeout.
    public var isBusy: Bool { code.primary == .busy || code.primary == .locked }
}

/// A database that `report` refuses, whatever its backend: another application's, or one made by
/// a newer release. One line that says what to do.
public struct StoreError: Error, CustomStringConvertible, Sendable, StoreFailure {
    public let description: String
    public init(_ message: String) { description = message }
    public func advice(database: String) -> String { description }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Set where Element == Character {
    fileprivate static var whitespaces: Set<Character> { [" ", "\t"] }
}
