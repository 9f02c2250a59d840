import Foundation

/// One connection to the store: a SQLite file or a PostgreSQL database. Owns a backend
/// connection with a C handle: not Sendable, one thread at a time.
///
/// Domains, importers and commands use only this type and `Statement`, so they run unchanged on
/// both backends; `init(path:)` is the one place that picks the backend (a `postgresql://` or
/// `postgres://` URL selects PostgreSQL, anything else is a SQLite file path).
public final class Database {
    let connection: any StoreConnection
    /// The database as messages name it (a URL is shown without its password).
    public var path: String { connection.location }
    public var kind: StoreKind { connection.kind }
    /// The writers holding rows not yet in their tables: see `UpsertWriter`.
    let pending = PendingWrites()
    /// The tables loaded in key order in the current transaction (`loadInKeyOrder`).
    let keyOrder = KeyOrderLoads()
    /// When the writers made from now on send what they buffer.
    public var bulkWriteLimits = BulkWriteLimits()

    public enum Mode: Sendable { case readWrite, readOnly }

    /// Opens the database at `path` (a file, or a PostgreSQL URL). A missing file is created for
    /// reading and writing unless `createIfMissing` is false; then, as for a read-only open, a
    /// missing database throws `DatabaseMissing` (a server's database always exists beforehand).
    public init(
        path: String, mode: Mode = .readWrite, busyTimeoutMilliseconds: Int32 = 5000, createIfMissing: Bool = true
    ) throws {
        if StoreLocation.isPostgreSQL(path) {
            connection = try PostgresConnection(url: path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } else {
            if !createIfMissing || mode == .readOnly, !FileManager.default.fileExists(atPath: path) {
                throw DatabaseMissing(location: path)
            }
            connection = try SQLiteConnection(path: path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
    }

    /// A database over a connection already open (`withSnapshotReader`).
    init(connection: any StoreConnection) { self.connection = connection }

    /// Runs `body` with a second connection to this database whose read-only transaction sees
    /// the snapshot of this one's reading transaction (PostgreSQL's exported snapshot), so that a
    /// report's reads can run on two connections at once, on another thread (a connection is one
    /// thread's at a time): the server then works on two queries, on two cores, instead of one.
    /// The connection ends when `body` returns. `body` gets nil on SQLite, outside a reading
    /// transaction, and where the second connection cannot be opened or cannot take the snapshot
    /// (a limit of connections, a pooler that cannot share one): the reads then all run here, as
    /// they would anyway.
    ///
    /// On Citus the coordinator's snapshot is shared; what each worker's rows show is as in any
    /// Citus transaction, the snapshot of the worker's own transaction (docs/SCALE.md).
    public func withSnapshotReader<T>(_ body: (Database?) throws -> T) throws -> T {
        guard isInTransaction, let reader = try connection.openSnapshotReader() else { return try body(nil) }
        let database = Database(connection: reader)
        defer { try? database.execute("COMMIT") }
        return try body(database)
    }

    /// Runs one or more statements that take no parameters and return no rows.
    public func execute(_ sql: String) throws {
        if pending.isActive { try pending.flush(beforeRunning: sql) }
        try connection.execute(sql)
    }

    /// Compiles a statement for repeated use.
    public func prepare(_ sql: String) throws -> Statement {
        Statement(try connection.prepare(sql), sql: sql, pending: pending)
    }

    /// Compiles a query whose rows are few enough to be held at once (a bounded read: a few days
    /// of a list of users), run many times. On PostgreSQL its rows then come in one result and one
    /// round trip, from its second run on through a server-prepared plan, where another query in a
    /// report reads through a cursor (`DECLARE`, `FETCH`, `CLOSE`, and a plan at every run). On
    /// SQLite it is `prepare`.
    public func prepare(readingWhole sql: String) throws -> Statement {
        Statement(try connection.prepare(sql, readingWhole: true), sql: sql, pending: pending)
    }

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
    /// `immediate` takes the write lock at once (SQLite's `BEGIN IMMEDIATE`), so a busy database
    /// fails before any work. Inside another transaction it nests as a savepoint, so composed steps
    /// (a report inside the command's read snapshot) each keep their all-or-nothing meaning.
    /// The rows writers buffer are stored before a savepoint opens and before the commit (a failure
    /// there rolls everything back), and dropped by a rollback.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            try pending.flushAll()
            savepointDepth += 1
            let name = "report_\(savepointDepth)"
            defer { savepointDepth -= 1 }
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try pending.flushAll()
                try execute("RELEASE SAVEPOINT \(name)")
                return result
            } catch {
                abandonWrites()
                try? execute("ROLLBACK TO SAVEPOINT \(name)")
                try? execute("RELEASE SAVEPOINT \(name)")
                throw error
            }
        }
        try connection.begin(immediate: immediate)
        return try finish(writing: immediate, body)
    }

    /// Runs `body` in a writing transaction only if no other connection committed a write since
    /// `token` was read and none is writing now (the write lock is not waited for): nil, with
    /// nothing run, otherwise. For state derived from what a snapshot read (a cache of the
    /// habits streaks), saved after the snapshot ended: it must not describe data a writer has
    /// changed since. Not inside another transaction.
    public func transaction<T>(ifUnchangedSince token: ChangeToken, _ body: () throws -> T) throws -> T? {
        guard !isInTransaction else { throw StoreError("internal error: a guarded transaction inside another one") }
        guard try connection.beginWithoutWaiting() else { return nil }
        let unchanged: Bool
        do { unchanged = try connection.changeToken() == token.value } catch {
            try? execute("ROLLBACK")
            throw error
        }
        guard unchanged else {
            try execute("ROLLBACK")
            return nil
        }
        return try finish(writing: true, body)
    }

    /// Runs `body` in the transaction just begun, then commits; rolls back and rethrows on a throw.
    /// Either way, then runs what waited for the transaction to end (`whenOutsideTransaction`).
    private func finish<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        defer { runAfterTransaction() }
        do {
            let result = try body()
            try pending.flushAll()
            if writing { try connection.willCommitWrites() }
            try execute("COMMIT")
            return result
        } catch {
            abandonWrites()
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `work` now when no transaction is open, or else just after the outermost one ends,
    /// committed or rolled back: for a write that must not happen inside a caller's read snapshot
    /// (a report's save of derived state, `transaction(ifUnchangedSince:)`, which a report made
    /// inside one snapshot with its other reads could not run there).
    public func whenOutsideTransaction(_ work: @escaping () -> Void) {
        if isInTransaction { afterTransaction.append(work) } else { work() }
    }

    private var afterTransaction: [() -> Void] = []

    /// How many times a transaction or a savepoint of this connection was rolled back: a writer
    /// that remembers what it wrote (to skip writing it again) forgets it when this changes.
    /// Read for every record of an import (`HabitsRecordUsers`), on this connection's thread only,
    /// and never inside another access to it: through a getter, whose read of the count goes
    /// without the runtime's exclusivity check. Another module's direct read of a stored property
    /// makes that check (`swift_beginAccess`, 76 instructions a read) whatever the property says.
    public var rollbacks: Int { rollbackCount }
    @exclusivity(unchecked) var rollbackCount = 0

    private func runAfterTransaction() {
        guard !afterTransaction.isEmpty, !isInTransaction else { return }
        let work = afterTransaction
        afterTransaction.removeAll()
        for item in work { item() }
    }

    /// What the store has committed, as seen from this connection: equal tokens mean no other
    /// connection committed a writing transaction in between. Read inside a snapshot, it is the
    /// state that snapshot shows. Compare tokens of one connection only.
    public func changeToken() throws -> ChangeToken { ChangeToken(value: try connection.changeToken()) }

    /// A transaction (or savepoint) is open on this connection.
    public var isInTransaction: Bool { connection.isInTransaction }
    private var savepointDepth = 0

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { connection.changes }

    /// Whether the table exists.
    public func tableExists(_ name: String) throws -> Bool { try connection.tableExists(name) }

    /// The tables that hold data, in byte order of their names.
    public func tableNames() throws -> [String] { try connection.tableNames() }

    /// The secondary indexes of a table: name and the SQL that creates it again.
    public func secondaryIndexes(of table: String) throws -> [(name: String, sql: String)] {
        try connection.secondaryIndexes(of: table)
    }

    /// Takes the lock `name` of the database at `path` (`nightly`: one `report nightly` at a time)
    /// without waiting, held until released or until this process ends, however it ends; nothing
    /// of the database is created or changed. Machines that share a server share its lock (a
    /// connection of its own holds it); a SQLite file is locked beside it (`<file>.<name>.lock`).
    public static func tryExclusiveLock(
        named name: String, path: String, busyTimeoutMilliseconds: Int32 = 5000
    ) throws -> ExclusiveLockAttempt {
        if StoreLocation.isPostgreSQL(path) {
            let connection = try PostgresConnection(
                url: path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            return try connection.tryExclusiveLock(named: name)
        }
        return try LockFile.tryLock(path: "\(path).\(name).lock")
    }

    /// Whether the database holds nothing of `report` yet: no schema step was ever applied (a new
    /// SQLite file, an empty PostgreSQL database, or one holding only other applications' tables).
    public func isEmpty() throws -> Bool { !(try tableExists("schema_migrations")) }
}

/// The database to open does not exist (and was not to be created).
public struct DatabaseMissing: Error, CustomStringConvertible, Sendable {
    public let location: String
    public var description: String { "\(location): no such database" }
}

/// A point in a store's history of commits (`Database.changeToken()`).
public struct ChangeToken: Sendable, Equatable {
    let value: Int64
}

/// How a `--db` value names a database.
public enum StoreLocation {
    /// `postgresql://…` or `postgres://…` (libpq's URL forms), or a libpq keyword/value string
    /// (`host=db dbname=report`), select PostgreSQL.
    public static func isPostgreSQL(_ location: String) -> Bool {
        let lower = location.prefix(13).lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://") || isKeywordValue(location)
    }
}
