/// An error from SQLite: its result code, its message and the SQL that was running.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
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
    public var isBusy: Bool { code & 0xFF == 5 || code & 0xFF == 6 }
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
