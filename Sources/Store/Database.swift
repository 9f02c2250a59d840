import CSQLite

/// SQLite's "copy this text now" destructor, which Swift cannot import as a macro.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Process-wide SQLite settings, applied once before the first connection opens.
private let configureSQLiteOnce: Void = {
    _ = report_sqlite3_disable_memory_statistics()
}()

/// One connection to a SQLite database file. Owns a C handle: not Sendable, one thread at a time.
///
/// Opened in WAL mode with `synchronous=NORMAL` and a busy timeout, so that a report can read a
/// consistent snapshot while an import writes, and a second writer waits before failing.
public final class Database {
    let handle: OpaquePointer
    public let path: String

    public enum Mode: Sendable { case readWrite, readOnly }

    /// Opens (creating it unless read-only) the database at `path` and brings its schema up to date.
    public init(path: String, mode: Mode = .readWrite, busyTimeoutMilliseconds: Int32 = 5000) throws {
        _ = configureSQLiteOnce
        var pointer: OpaquePointer?
        let flags = mode == .readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let code = sqlite3_open_v2(path, &pointer, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard let pointer else { throw SQLiteError(code: code, message: "cannot open \(path)") }
        guard code == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(pointer))
            sqlite3_close_v2(pointer)
            throw SQLiteError(code: code, message: "\(message) (\(path))")
        }
        handle = pointer
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        do {
            if mode == .readWrite {
                try switchToWriteAheadLog(waitingUpTo: busyTimeoutMilliseconds)
                try execute("PRAGMA synchronous=NORMAL")
                // 8 MB of page cache: a large import's index pages stay in memory instead of
                // spilling to the WAL and being read back, and peak memory stays small.
                try execute("PRAGMA cache_size=-8192")
            }
            try execute("PRAGMA foreign_keys=OFF")
            // Reading the schema version checks early that the file really is a database.
            _ = try scalarInt("PRAGMA user_version")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit { sqlite3_close_v2(handle) }

    /// `PRAGMA journal_mode=WAL`, retried while another connection holds the lock. On a new file
    /// two connections switching at once can make SQLite answer SQLITE_BUSY at once, without its
    /// busy handler (waiting could deadlock), so the wait the busy timeout promises is done here.
    private func switchToWriteAheadLog(waitingUpTo milliseconds: Int32) throws {
        var waited: Int32 = 0
        while true {
            do {
                try execute("PRAGMA journal_mode=WAL")
                return
            } catch let error as SQLiteError where error.isBusy && waited < milliseconds {
                let step = min(10, milliseconds - waited)
                sqlite3_sleep(step)
                waited += step
            }
        }
    }

    /// Runs one or more statements that take no parameters and return no rows.
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: code, message: message, sql: sql)
        }
    }

    /// Compiles a statement for repeated use.
    public func prepare(_ sql: String) throws -> Statement { try Statement(database: self, sql: sql) }

    /// Runs a statement with bound parameters and no result rows.
    public func run(_ sql: String, _ parameters: [SQLValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        try statement.run()
    }

    /// Every row of a query, each as an array of values.
    public func rows(_ sql: String, _ parameters: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        var result: [[SQLValue]] = []
        while try statement.step() { result.append((0..<statement.columnCount).map { statement.value($0) }) }
        return result
    }

    /// The first column of the first row as an integer (nil when no row or NULL).
    public func scalarInt(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        guard try statement.step() else { return nil }
        return statement.int64OrNil(0)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// `BEGIN IMMEDIATE` takes the write lock at once, so a busy database fails before any work.
    /// Inside another transaction it nests as a savepoint, so composed steps (a report inside the
    /// command's read snapshot) each keep their all-or-nothing meaning.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointDepth += 1
            let name = "report_\(savepointDepth)"
            defer { savepointDepth -= 1 }
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A transaction (or savepoint) is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
    private var savepointDepth = 0

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: lastMessage, sql: sql)
    }
}
