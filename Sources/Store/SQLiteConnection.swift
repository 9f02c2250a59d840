import CSQLite

/// SQLite's "copy this text now" destructor, which Swift cannot import as a macro.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
/// SQLite's "the bytes stay alive until the statement is reset" destructor (a null pointer).
let SQLITE_STATIC: sqlite3_destructor_type? = nil

/// Process-wide SQLite settings, applied once before the first connection opens.
private let configureSQLiteOnce: Void = {
    _ = report_sqlite3_disable_memory_statistics()
}()

/// The SQLite backend: one connection to a database file. Owns a C handle: not Sendable, one
/// thread at a time.
///
/// Opened in WAL mode with `synchronous=NORMAL` and a busy timeout, so that a report can read a
/// consistent snapshot while an import writes, and a second writer waits before failing.
final class SQLiteConnection: StoreConnection {
    let handle: OpaquePointer
    let location: String
    var kind: StoreKind { .sqlite }
    var dialect: SQLDialect { .sqlite }
    /// How long a statement waits for another connection's lock (`--busy-timeout`).
    private let busyTimeoutMilliseconds: Int32

    /// Opens (creating it unless read-only) the database at `path`.
    init(path: String, mode: Database.Mode, busyTimeoutMilliseconds: Int32) throws {
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
        location = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
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
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: code, message: message, sql: sql)
        }
    }

    func prepare(_ sql: String) throws -> any StoreStatement { try SQLiteStatement(connection: self, sql: sql) }

    /// SQLite reads every query a row at a time in the process: nothing to choose.
    func prepare(_ sql: String, readingWhole: Bool) throws -> any StoreStatement { try prepare(sql) }

    /// The first column of the first row as an integer (nil when no row or NULL).
    func scalarInt(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int64? {
        let statement = try SQLiteStatement(connection: self, sql: sql)
        for (offset, value) in parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
        guard try statement.step() else { return nil }
        return statement.isNull(0) ? nil : statement.int64(0)
    }

    /// Every row of a query, each as an array of values.
    func rows(_ sql: String, _ parameters: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try SQLiteStatement(connection: self, sql: sql)
        for (offset, value) in parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
        var result: [[SQLValue]] = []
        while try statement.step() { result.append((0..<statement.columnCount).map { statement.value($0) }) }
        return result
    }

    /// `BEGIN IMMEDIATE` takes the write lock at once, so a busy database fails before any work.
    func begin(immediate: Bool) throws { try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN") }

    /// `BEGIN IMMEDIATE` with no busy wait: false when another connection holds the write lock.
    func beginWithoutWaiting() throws -> Bool {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        do { try execute("BEGIN IMMEDIATE") } catch let error as SQLiteError where error.isBusy { return false }
        return true
    }

    /// `PRAGMA data_version`: SQLite's own count of the commits of other connections to the file.
    func changeToken() throws -> Int64 { try scalarInt("PRAGMA data_version") ?? 0 }

    /// SQLite counts commits itself (`data_version`).
    func willCommitWrites() throws {}

    func isDistributedDatabase() throws -> Bool { false }

    func shards(of values: [String], in table: String) throws -> [Int64]? { nil }

    /// None: SQLite's reads run in this process, whose two threads already share the work
    /// (`ReadAhead`), and a second connection would share no snapshot without SQLite's
    /// `SQLITE_ENABLE_SNAPSHOT` interface.
    func openSnapshotReader() throws -> (any StoreConnection)? { nil }

    /// A file is one machine's: there is nothing to distribute it over.
    func distribute(_ plan: [TableDistribution]) throws -> [DistributionStep] {
        throw StoreError(
            "\(location) is a SQLite file, which lives on one machine; distributing tables needs a Citus "
                + "coordinator: give --db postgresql://… (docs/SCALE.md)")
    }

    func refreshStatistics() throws {}

    /// A transaction (or savepoint) is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: lastMessage, sql: sql)
    }
}
