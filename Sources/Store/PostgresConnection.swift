import CLibPQ
import Foundation

/// The PostgreSQL backend: one libpq connection. Owns a C handle: not Sendable, one thread at a time.
///
/// The session is set so that the store behaves as the SQLite one does: `--busy-timeout` is the
/// `lock_timeout`, floats print their shortest
/// exact form (so a REAL reads back as the same Double), server notices stay off stderr. Writing
/// transactions take one advisory lock, so writers follow one another as on SQLite: two imports
/// upserting the same keys in different orders can never deadlock, and nothing is lost or doubled.
final class PostgresConnection: StoreConnection {
    let handle: OpaquePointer
    let location: String
    /// The URL as given, password included, to open a second connection (`openSnapshotReader`);
    /// never shown (`location` is).
    private let url: String
    private let busyTimeoutMilliseconds: Int32
    /// The snapshot of the reading transaction in progress, exported at its `BEGIN` (nil when the
    /// server refused, or in a writing transaction).
    private var exportedSnapshot: String?
    var kind: StoreKind { .postgresql }
    var dialect: SQLDialect { .postgresql }
    /// The password of the URL, every spelling and piece of it, removed from every message libpq
    /// or the server writes.
    private let secrets: ConnectionSecrets
    private var statementNumber = 0
    var lastChanges = 0
    /// The SQL of a command sent without waiting for its result (a writer's merge): read before
    /// the next command, which fails with its error if it had one (`PostgresRowWriters.swift`).
    var pendingSQL: String?
    /// The query whose rows are being read in single-row mode, or the cursor whose next chunk is on
    /// its way, if any: nothing else can be sent until that is read (`finishStream`). Weak: the
    /// statement owns the connection.
    private weak var activeStream: (any PostgresStream)?
    /// Whether queries read through cursors now: in a reading transaction (a report's snapshot),
    /// from its `BEGIN` to its end. A writing transaction (an import) keeps single-row mode and
    /// server-prepared plans for its queries, mostly lookups of one row, where a cursor's DECLARE,
    /// FETCH and CLOSE would be three commands instead of one.
    private(set) var readsThroughCursors = false
    /// How many rows a cursor reads at a time.
    var readChunk = PostgresReadChunk()
    private var cursorNumber = 0
    /// The cursors with rows left on the server, by identity: told when their transaction ends.
    private var openCursors: [ObjectIdentifier: WeakCursor] = [:]

    private struct WeakCursor {
        weak var cursor: PostgresCursor?
    }

    /// What this transaction's writers know of the keys of the tables they stage rows for, by
    /// table (`StagedKeys`); emptied whenever a transaction may have begun or ended.
    private var stagedKeysByTable: [String: StagedKeys] = [:]
    /// The rows the import writers staged, by table: in the transaction in progress, and in the
    /// transactions committed since the last `refreshStatistics()`.
    private var stagedRows: [String: Int] = [:]
    private var committedRows: [String: Int] = [:]

    /// The advisory lock every writing transaction holds ("RPRT").
    static let writerLock: Int64 = 0x5250_5254
    /// Whether `store_changes` (the store's schema step 1) exists here: known once seen.
    private var countsChanges = false
    /// How Citus holds each table asked about (`citusMethod`): `n`, `h`, or empty for local.
    var citusMethods: [String: String] = [:]
    /// Whether the Citus extension is installed here (`isDistributedDatabase`): known once asked.
    var citusInstalled: Bool?

    init(url: String, mode: Database.Mode, busyTimeoutMilliseconds: Int32) throws {
        self.url = url
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        location = StoreLocation.display(url)
        secrets = ConnectionSecrets(location: url)
        // `connect_timeout` first, so that a value in the URL overrides it: an unreachable host
        // fails in seconds instead of the system's TCP timeout.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = ["10", "report", url]
        var keywordPointers = keywords.map { strdup($0) } + [nil]
        var valuePointers = values.map { strdup($0) } + [nil]
        defer {
            keywordPointers.forEach { free($0) }
            valuePointers.forEach { free($0) }
        }
        let connection = keywordPointers.withUnsafeMutableBufferPointer { keywordBuffer in
            valuePointers.withUnsafeMutableBufferPointer { valueBuffer in
                keywordBuffer.baseAddress!.withMemoryRebound(
                    to: UnsafePointer<CChar>?.self, capacity: keywordBuffer.count
                ) { keywordBase in
                    valueBuffer.baseAddress!.withMemoryRebound(
                        to: UnsafePointer<CChar>?.self, capacity: valueBuffer.count
                    ) { valueBase in
                        PQconnectdbParams(keywordBase, valueBase, 1)
                    }
                }
            }
        }
        guard let connection else {
            throw PostgresError(state: "", message: "out of memory opening a connection", location: location)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            var error = PostgresError(
                state: PostgresConnection.connectionState(message), message: PostgresConnection.scrub(message, secrets),
                location: location)
            error.misreadURL = ConnectionSecrets.isMisread(url)
            throw error
        }
        handle = connection
        report_pq_silence_notices(handle)
        do {
            let settings =
                "SET client_encoding = 'UTF8'; SET extra_float_digits = 1; SET lock_timeout = "
                + "\(max(1, busyTimeoutMilliseconds)); SET cursor_tuple_fraction = 1; SET jit = off"
            // `cursor_tuple_fraction = 1`: every cursor (PostgresCursor) is read to its end, so
            // it is planned for all its rows. At the default 0.1 the planner picks plans that are
            // fast to the first tenth (a nested loop over an index instead of a sort or a hash):
            // the habits day report's flows read took 15 ms a window instead of 2.8 ms.
            // `jit = off`: a report's queries are scans with a few expressions each, whose
            // estimated cost still passes PostgreSQL's JIT thresholds (a correlated subquery
            // counted once a row): the bookings scan of a month compiled for 236 ms (inlining and
            // optimisation) to run for 140 ms, and the month report took 1.27–1.33 s with JIT
            // against 0.96–0.97 s without; the other reports did not move (docs/BENCHMARKS.md).
            // A read-only open is not enforced by the session: `default_transaction_read_only`
            // would refuse even the TEMP table a fleet report sorts its rows in. On a server, what
            // a connection may write is the role's grants (docs/SCALE.md: a reporting role).
            _ = mode
            try execute(settings)
        } catch {
            PQfinish(handle)
            throw error
        }
    }

    deinit { PQfinish(handle) }

    func streamStarted(_ stream: any PostgresStream) { activeStream = stream }

    func streamEnded(_ stream: any PostgresStream) {
        if activeStream === stream { activeStream = nil }
    }

    /// Reads the rest of a streaming query's rows, or a cursor's chunk on its way, ahead, so that
    /// another command can be sent.
    func finishStream() {
        activeStream?.drain()
        activeStream = nil
    }

    /// A name for the next server-side prepared statement of this connection.
    func nextStatementName() -> String {
        statementNumber += 1
        return "report_\(statementNumber)"
    }

    /// A name for the next cursor of this connection: a new one for every run, so that a cursor
    /// left open (closed only by its transaction's end) never stands in a later one's way.
    func nextCursorName() -> String {
        cursorNumber += 1
        return "report_cursor_\(cursorNumber)"
    }

    func cursorOpened(_ cursor: PostgresCursor) { openCursors[ObjectIdentifier(cursor)] = WeakCursor(cursor: cursor) }

    func cursorEnded(_ cursor: PostgresCursor) { openCursors[ObjectIdentifier(cursor)] = nil }

    /// Tells every cursor with rows left that its transaction ends (`PostgresCursor.transactionEnds`).
    private func endCursors(committing: Bool) throws {
        let cursors = openCursors.values.compactMap(\.cursor)
        openCursors.removeAll()
        var failure: (any Error)?
        for cursor in cursors {
            do { try cursor.transactionEnds(committing: committing) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Sends a command nobody waits for (a cursor's CLOSE), read before the next command as a
    /// merge is; not sent when the connection is busy or its transaction failed (the transaction's
    /// end does the same work then).
    func sendWithoutWaiting(_ sql: String) {
        guard pendingSQL == nil, activeStream == nil, PQtransactionStatus(handle) == PQTRANS_INTRANS else { return }
        if PQsendQuery(handle, sql) == 1 { pendingSQL = sql }
    }

    func execute(_ sql: String) throws {
        try awaitPending()
        let controlsTransaction = PostgresConnection.controlsTransaction(sql)
        let reading = readsThroughCursors
        if controlsTransaction {
            stagedKeysByTable.removeAll()
            let keyword = SQLText.leadingKeyword(sql)
            if keyword == "COMMIT" || keyword == "END" {
                committedRows.merge(stagedRows, uniquingKeysWith: +)
            }
            // `ROLLBACK TO SAVEPOINT` keeps the transaction (its count may then be high: an
            // ANALYZE too many costs time, never a figure).
            if keyword != "ROLLBACK" || !sql.uppercased().contains(" TO ") { stagedRows.removeAll() }
            readsThroughCursors = false
            try endCursors(committing: ["COMMIT", "END"].contains(SQLText.leadingKeyword(sql)))
        }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        // A rollback to a savepoint leaves the reading transaction open.
        if controlsTransaction && reading && PQtransactionStatus(handle) == PQTRANS_INTRANS {
            readsThroughCursors = true
        }
    }

    /// Throws for a result that is not a success; records the rows a command changed.
    func check(_ result: OpaquePointer?, sql: String?) throws {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN:
            if let result, let count = PQcmdTuples(result) { lastChanges = Int(String(cString: count)) ?? 0 }
        default:
            throw error(result, sql: sql)
        }
    }

    /// The error of a failed result (or of the connection when there is none), password-free.
    func error(_ result: OpaquePointer?, sql: String?) -> PostgresError {
        var state = ""
        var message = ""
        if let result {
            if let field = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) { state = String(cString: field) }
            if let field = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) { message = String(cString: field) }
        }
        if message.isEmpty { message = String(cString: PQerrorMessage(handle)) }
        if state.isEmpty && PQstatus(handle) != CONNECTION_OK { state = "08006" }
        if message.isEmpty { message = "the server closed the connection" }
        var error = PostgresError(
            state: state, message: PostgresConnection.scrub(message, secrets), sql: sql, location: location)
        if let user = PQuser(handle) { error.role = String(cString: user) }
        return error
    }

    func prepare(_ sql: String) throws -> any StoreStatement { PostgresStatement(connection: self, sql: sql) }

    func prepare(_ sql: String, readingWhole: Bool) throws -> any StoreStatement {
        PostgresStatement(connection: self, sql: sql, readingWhole: readingWhole)
    }

    /// What the current transaction knows of the keys in `table`: at the first call of a
    /// transaction, whether the table holds any row (one query, `isEmptyQuery`), then every key
    /// staged since.
    func stagedKeys(for table: String) throws -> StagedKeys {
        if let known = stagedKeysByTable[table] { return known }
        let keys = StagedKeys(tableWasEmpty: try scalar(Self.isEmptyQuery(table)) == .integer(1))
        stagedKeysByTable[table] = keys
        return keys
    }

    /// Whether `table` holds no row. `LIMIT 1` changes nothing on one server (an `EXISTS` stops at
    /// its first row) but everything on Citus, which runs the subquery first as a distributed
    /// subplan and brings its whole result to the coordinator: without the limit, every row of the
    /// table (the fleet profile's 2,387,438 impacts, 23 MB, 2.2 s of an import file's transaction),
    /// with it one row a shard (4 ms).
    static func isEmptyQuery(_ table: String) -> String { "SELECT NOT EXISTS (SELECT 1 FROM \(table) LIMIT 1)" }

    /// Whether a statement may begin or end a transaction (or roll part of one back): what the
    /// writers knew of the tables' keys is then forgotten (forgetting is always safe).
    static func controlsTransaction(_ sql: String) -> Bool {
        ["BEGIN", "COMMIT", "ROLLBACK", "END", "START", "ABORT"].contains(SQLText.leadingKeyword(sql))
    }

    /// A writing transaction waits (up to `lock_timeout`) for the writer lock; a reading one is a
    /// REPEATABLE READ snapshot, as a SQLite read transaction in WAL mode is.
    func begin(immediate: Bool) throws {
        if immediate {
            exportedSnapshot = nil
            try execute("BEGIN")
            do { try execute("SELECT pg_advisory_xact_lock(\(Self.writerLock))") } catch {
                try? execute("ROLLBACK")
                throw error
            }
        } else {
            try execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
            exportedSnapshot = try exportSnapshot()
            readsThroughCursors = true
        }
    }

    /// This reading transaction's snapshot, exported for a second connection to read beside this
    /// one (`openSnapshotReader`), or nil where the server refuses to export it: the transaction is
    /// then begun again without. Exported at the `BEGIN`, not when asked for: a report reads in a
    /// savepoint of its command's transaction, and a subtransaction cannot export one.
    private func exportSnapshot() throws -> String? {
        let result = PQexec(handle, "SELECT pg_export_snapshot()")
        defer { PQclear(result) }
        if PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) == 1, PQgetisnull(result, 0, 0) == 0 {
            return String(cString: PQgetvalue(result, 0, 0))
        }
        guard PQstatus(handle) == CONNECTION_OK else { throw error(result, sql: "SELECT pg_export_snapshot()") }
        try execute("ROLLBACK")
        try execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        return nil
    }

    /// A second connection to this database, as this one was opened, in a read-only transaction
    /// that sees this reading transaction's snapshot (`SET TRANSACTION SNAPSHOT`); nil outside a
    /// reading transaction, where none was exported, or when the connection or the snapshot's
    /// import fails (a limit of connections, a pooler): reads then stay on this connection.
    func openSnapshotReader() throws -> (any StoreConnection)? {
        // A cursor's CLOSE may still be on its way (`sendWithoutWaiting`): the transaction is
        // idle, and its state known, once it is read.
        try awaitPending()
        guard readsThroughCursors, PQtransactionStatus(handle) == PQTRANS_INTRANS, let exportedSnapshot,
            !exportedSnapshot.isEmpty, exportedSnapshot.allSatisfy({ $0.isHexDigit || $0 == "-" })
        else { return nil }
        guard
            let reader = try? PostgresConnection(
                url: url, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        else { return nil }
        do {
            try reader.execute(
                "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '\(exportedSnapshot)'")
        } catch { return nil }
        reader.readsThroughCursors = true
        return reader
    }

    /// `BEGIN` and the writer lock if it is free now (`pg_try_advisory_xact_lock`).
    func beginWithoutWaiting() throws -> Bool {
        try execute("BEGIN")
        do {
            if try scalar("SELECT pg_try_advisory_xact_lock(\(Self.writerLock))")?.int == 1 { return true }
            try execute("ROLLBACK")
            return false
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Counts rows an import writer staged for `table` (`PostgresRowWriters`).
    func noteStaged(_ table: String, rows: Int) { stagedRows[table, default: 0] += rows }

    /// ANALYZE of each table the import writers loaded in the transactions committed since the
    /// last call, when they took more rows than a tenth of those its statistics counted (plus 50;
    /// never analyzed: always): autovacuum's rule for an analyze, applied at once. Autovacuum gets
    /// to a table in its own time, one table after another: after the habits profile's import,
    /// the day report ran before `flow_contexts` had any statistics, and the planner, taking a
    /// third of the table for 128 users' contexts, scanned all of them at each window (6 s
    /// instead of 2). On Citus the ANALYZE of a distributed table runs on its shards.
    func refreshStatistics() throws {
        let loaded = committedRows
        committedRows.removeAll()
        for (table, rows) in loaded.sorted(by: { $0.key < $1.key }) {
            let counted =
                try scalar(
                    "SELECT CAST(reltuples AS bigint) FROM pg_catalog.pg_class WHERE oid = to_regclass(?)",
                    [.text(table)])?.int ?? -1
            guard counted < 0 || rows > 50 + counted / 10 else { continue }
            try execute("ANALYZE " + quotedSQLIdentifier(table))
        }
    }

    /// PostgreSQL has no `data_version`: every writing transaction of `report` bumps the one row
    /// of `store_changes` just before it commits, under the writer lock (`willCommitWrites`). Read
    /// in a snapshot, it is the count of the writes that snapshot sees.
    func changeToken() throws -> Int64 {
        guard try tracksChanges() else { return 0 }
        return try scalar("SELECT version FROM store_changes")?.int ?? 0
    }

    func willCommitWrites() throws {
        if try tracksChanges() { try execute("UPDATE store_changes SET version = version + 1") }
    }

    /// Whether `store_changes` exists; asked until it does (a database before its first migration).
    private func tracksChanges() throws -> Bool {
        if !countsChanges { countsChanges = try tableExists("store_changes") }
        return countsChanges
    }

    /// A session advisory lock of the server, so that machines sharing it share the lock; the
    /// server drops it when the holder's connection goes, however it dies. The lock keeps this
    /// connection open until it is released.
    func tryExclusiveLock(named name: String) throws -> ExclusiveLockAttempt {
        let key = Self.advisoryKey(name)
        guard try scalar("SELECT pg_try_advisory_lock(\(key))")?.int == 1 else {
            return .held(by: "the \(name) lock of \(location)")
        }
        return .acquired(ExclusiveLock { [self] in _ = try? execute("SELECT pg_advisory_unlock(\(key))") })
    }

    /// The advisory lock key of a named lock: "RPRU" for the nightly job (the key of earlier
    /// releases, so that an old and a new release exclude each other), a hash of the name otherwise.
    static func advisoryKey(_ name: String) -> Int64 {
        if name == "nightly" { return 0x5250_5255 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: hash)
    }

    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    var changes: Int { lastChanges }

    /// Connection failures carry no SQLSTATE (no result); the two a user can fix are told apart by
    /// libpq's words, everything else is "cannot reach the server".
    static func connectionState(_ message: String) -> String {
        if message.contains("password authentication failed") || message.contains("no password supplied") {
            return "28P01"
        }
        if message.contains("does not exist") && message.contains("database") { return "3D000" }
        if message.contains("role") && message.contains("does not exist") { return "28000" }
        return ""
    }

    /// The message with every spelling and piece of a password replaced by `***`.
    static func scrub(_ message: String, _ secrets: ConnectionSecrets) -> String { secrets.mask(message) }
}
