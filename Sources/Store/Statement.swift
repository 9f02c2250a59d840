import CSQLite

/// A value bound to or read from SQLite.
public enum SQLValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }

    public var int: Int64? { if case .integer(let value) = self { return value } else { return nil } }
    public var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }
    public var string: String? { if case .text(let value) = self { return value } else { return nil } }
}

/// A compiled statement, reused for every row of an import. Not Sendable: it belongs to its
/// connection's thread.
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    public let sql: String

    init(database: Database, sql: String) throws {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else { throw database.error(code, sql: sql) }
        handle = pointer
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds parameters 1…n after resetting the statement.
    public func bind(_ values: [SQLValue]) throws {
        reset()
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Binds one parameter (1-based).
    public func bind(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
        case .real(let number): code = sqlite3_bind_double(handle, index, number)
        case .text(var text):
            code = text.withUTF8 { buffer -> Int32 in
                let bytes = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                return sqlite3_bind_text(handle, index, bytes.assumingMemoryBound(to: CChar.self),
                                         Int32(buffer.count), SQLITE_TRANSIENT)
            }
        }
        guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
    }

    public func bind(_ text: String?, at index: Int32) throws { try bind(text.map(SQLValue.text) ?? .null, at: index) }
    public func bind(_ number: Int64?, at index: Int32) throws { try bind(number.map(SQLValue.integer) ?? .null, at: index) }
    public func bind(_ number: Double?, at index: Int32) throws { try bind(number.map(SQLValue.real) ?? .null, at: index) }

    /// Clears the previous run so the statement can run again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Steps once: true when a row is available.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs to completion, ignoring rows.
    public func run() throws { while try step() {} }

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    public func isNull(_ column: Int) -> Bool { sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL }

    public func int64(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }
    public func int64OrNil(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }
    public func double(_ column: Int) -> Double { sqlite3_column_double(handle, Int32(column)) }
    public func doubleOrNil(_ column: Int) -> Double? { isNull(column) ? nil : double(column) }

    public func string(_ column: Int) -> String {
        guard let pointer = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    public func stringOrNil(_ column: Int) -> String? { isNull(column) ? nil : string(column) }

    public func value(_ column: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_NULL: return .null
        default: return .text(string(column))
        }
    }
}
