import CSQLite
import Time

/// A compiled SQLite statement, reused for every row of an import. Not Sendable: it belongs to
/// its connection's thread.
final class SQLiteStatement: StoreStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    init(connection: SQLiteConnection, sql: String) throws {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else { throw connection.error(code, sql: sql) }
        handle = pointer
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
        case .real(let number): code = sqlite3_bind_double(handle, index, number)
        case .text(var text):
            code = text.withUTF8 { buffer -> Int32 in
                let bytes = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                return sqlite3_bind_text(
                    handle, index, bytes.assumingMemoryBound(to: CChar.self),
                    Int32(buffer.count), SQLITE_TRANSIENT)
            }
        }
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The texts of the row being run, end to end (kept between runs: no allocation once grown).
    private var textBytes: [UInt8] = []
    /// Where each text of the row starts in `textBytes`, and where the last one ends.
    private var textStarts: [Int] = []

    /// Binds the row's texts without SQLite copying them (`SQLITE_STATIC`): they are first
    /// copied end to end into `textBytes`, which this statement keeps and reuses, and the step
    /// runs while that buffer is pinned; the bindings are cleared before it is let go. One
    /// `malloc` and `free` fewer per text than `SQLITE_TRANSIENT`, and flat in the row's width
    /// (an import's batch of rows is one run of a many-row statement).
    ///
    /// The two buffers are taken out of the statement for the run and put back after: as locals
    /// they are accessed without the runtime's exclusivity checks, which a stored property of a
    /// class gets on every access from a closure or a loop (`swift_beginAccess`, about 3 % of the
    /// import's database thread, in the floor's run too).
    func run(row: [SQLValue]) throws {
        var textBytes = self.textBytes
        var textStarts = self.textStarts
        self.textBytes = []
        self.textStarts = []
        defer {
            self.textBytes = textBytes
            self.textStarts = textStarts
        }
        textBytes.removeAll(keepingCapacity: true)
        textStarts.removeAll(keepingCapacity: true)
        for value in row {
            guard case .text(let text) = value else { continue }
            textStarts.append(textBytes.count)
            textBytes.append(contentsOf: text.utf8)
        }
        textStarts.append(textBytes.count)
        sqlite3_reset(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try textBytes.withUnsafeBufferPointer { bytes in
            // A non-null base even for no bytes: a null pointer would bind NULL, not ''.
            let base = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            var text = 0
            for (offset, value) in row.enumerated() {
                guard case .text = value else {
                    try bind(value, at: Int32(offset + 1))
                    continue
                }
                let start = textStarts[text]
                let code = sqlite3_bind_text(
                    handle, Int32(offset + 1), (base + start).assumingMemoryBound(to: CChar.self),
                    Int32(textStarts[text + 1] - start), SQLITE_STATIC)
                guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
                text += 1
            }
            while try step() {}
        }
    }

    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    func isNull(_ column: Int) -> Bool { sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL }

    func int64(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }
    func double(_ column: Int) -> Double { sqlite3_column_double(handle, Int32(column)) }

    func string(_ column: Int) -> String {
        guard let pointer = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func withText<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        guard let pointer = sqlite3_column_text(handle, Int32(column)) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, Int32(column)))))
    }

    func day(_ column: Int) -> Day? {
        guard let pointer = sqlite3_column_text(handle, Int32(column)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return Day.parse(UnsafeBufferPointer(start: pointer, count: count)[...])
    }

    func value(_ column: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_NULL: return .null
        default: return .text(string(column))
        }
    }
}
