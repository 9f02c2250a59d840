import CLibPQ

/// The PostgreSQL write path of imports: `COPY … FROM STDIN`, straight into the table for rows
/// whose key it cannot hold yet, into TEMP staging tables and one merge per flush for the others.
///
/// Rows are appended, COPY-escaped (`PostgresCopyText`), to byte buffers: a row whose key the
/// table may hold already (`StagedKeys`: the table held rows when the transaction began to write
/// it, or the key was written since, or the filter answers "maybe") to the staging buffer, every
/// other row to the buffer of new rows. A flush sends the new rows with `COPY t (columns) FROM
/// STDIN` (`NewRows`), then, if any row was staged, creates the staging table if this transaction
/// has none yet (`ON COMMIT DROP`: it goes with the transaction, committed or not), sends the
/// staged rows, and sends the merge:
///
///     DELETE FROM t WHERE t.key = ANY (ARRAY(SELECT DISTINCT key FROM staging));
///     INSERT INTO t (columns) SELECT DISTINCT ON (key) columns FROM staging ORDER BY key, seq DESC;
///     TRUNCATE staging
///
/// Buffers go in pieces of `BulkWriteLimits.chunkBytes` with `PQputCopyData`; neither the COPY of
/// the new rows nor the merge is waited for, so that the server stores them while the import reads
/// and validates the next rows. The connection reads their result before its next command and
/// fails that command with their error (COMMIT included, so the file's transaction rolls back
/// whole). The merge is a delete and an insert rather than `ON CONFLICT` so that the same SQL works
/// on a partitioned table whose partitions are foreign tables (postgres_fdw), where `ON CONFLICT`
/// cannot reach the remote keys. The staging table is made `AS SELECT columns FROM t WITH NO
/// DATA`: the columns' types and collations without the constraints, so that a row the table
/// refuses is refused at the merge with the table's own name in the message, as the prepared
/// upsert reported it.
extension PostgresConnection {
    func upsertWriter(
        table: String, columns: [String], key: [String], context: WriterContext
    ) throws
        -> any StoreRowWriter
    {
        PostgresUpsertWriter(connection: self, table: table, columns: columns, key: key, context: context)
    }

    func childRowsWriter(
        table: String, parentColumn: String, columns: [String], context: WriterContext
    ) throws
        -> any StoreChildRowsWriter
    {
        PostgresChildRowsWriter(
            connection: self, table: table, parentColumn: parentColumn, columns: columns, context: context)
    }

    /// Reads the result of the command sent without waiting, if any; throws its error.
    func awaitPending() throws {
        finishStream()
        guard let sql = pendingSQL else { return }
        pendingSQL = nil
        if let failure = drainResults(sql: sql) { throw failure }
    }

    func abandonPendingWork() {
        guard let sql = pendingSQL else { return }
        pendingSQL = nil
        _ = drainResults(sql: sql)
    }

    /// Reads every result of the running command; the first failure, if any.
    private func drainResults(sql: String) -> PostgresError? {
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            if failure == nil && status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK {
                failure = error(result, sql: sql)
            }
            PQclear(result)
        }
        if failure == nil && PQstatus(handle) != CONNECTION_OK { failure = error(nil, sql: sql) }
        return failure
    }

    /// Sends a command (several, separated by `;`) and returns without waiting for its result;
    /// `label` stands for it in error messages (which show the first 120 characters of the SQL).
    func send(_ sql: String, label: String) throws {
        try awaitPending()
        guard PQsendQuery(handle, sql) == 1 else { throw error(nil, sql: label) }
        pendingSQL = label
    }

    /// Runs `COPY … FROM STDIN` with `data` (COPY text), sent in pieces of `chunk` bytes. With a
    /// `pendingLabel`, returns once the rows are sent, without waiting for the server to store
    /// them: their result is read before the next command, as a merge's is, and an error names
    /// the label.
    func copy(_ sql: String, _ data: [UInt8], chunk: Int, pendingLabel: String? = nil) throws {
        try awaitPending()
        let started = PQexec(handle, sql)
        guard let started, PQresultStatus(started) == PGRES_COPY_IN else {
            defer { PQclear(started) }
            throw error(started, sql: sql)
        }
        PQclear(started)
        var sent = true
        data.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { bytes in
                var offset = 0
                while offset < buffer.count {
                    let count = min(chunk, buffer.count - offset)
                    if PQputCopyData(handle, bytes + offset, Int32(count)) != 1 {
                        sent = false
                        return
                    }
                    offset += count
                }
            }
        }
        // A failed send ends the COPY with an error, so the server stores none of it.
        let ended = PQputCopyEnd(handle, sent ? nil : "report: the rows could not be sent") == 1
        if sent && ended, let pendingLabel {
            pendingSQL = pendingLabel
            return
        }
        if let failure = drainResults(sql: pendingLabel ?? sql) { throw failure }
        if !sent || !ended { throw error(nil, sql: pendingLabel ?? sql) }
    }
}

/// COPY's text format: columns separated by tabs, rows ended by a newline, NULL as `\N`, and in a
/// value a backslash, tab, newline or carriage return written as `\\`, `\t`, `\n`, `\r`; every
/// other byte as it is (the session's encoding is UTF-8). Numbers are written as a bound
/// parameter's text is, so a value means the same by either path. A text is cut at a NUL byte, as
/// the C string of a bound parameter is (PostgreSQL text cannot hold one).
enum PostgresCopyText {
    static func append(_ value: SQLValue, to buffer: inout [UInt8]) {
        switch value {
        case .null:
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(UInt8(ascii: "N"))
        case .integer(let number): appendDecimal(number, to: &buffer)
        case .real(let number): buffer.append(contentsOf: PostgresStatement.text(of: number).utf8)
        case .text(var text): text.withUTF8 { appendEscaped($0, to: &buffer) }
        }
    }

    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let escape: UInt8
            switch byte {
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case 0x09: escape = UInt8(ascii: "t")
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            case 0x00:
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                return
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(escape)
            runStart = index + 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }

    static func appendDecimal(_ number: Int64, to buffer: inout [UInt8]) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer[start...].reverse()
    }

    /// One row of a table: its values, tab-separated, ended by a newline.
    static func appendRow(_ values: [SQLValue], to buffer: inout [UInt8]) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(0x09) }
            append(value, to: &buffer)
        }
        buffer.append(0x0A)
    }

    /// One row of a staging table: the values, then the staging sequence, tab-separated, ended by
    /// a newline.
    static func appendRow(_ values: [SQLValue], sequence: Int64, to buffer: inout [UInt8]) {
        for value in values {
            append(value, to: &buffer)
            buffer.append(0x09)
        }
        appendDecimal(sequence, to: &buffer)
        buffer.append(0x0A)
    }
}

/// The name of the staging sequence column (no table of `report` has a column of that name).
private let stageSequence = "report_stage_seq"

/// Run before each COPY into a staging table (so before each merge): `work_mem` raised to at least
/// 64 MB for the rest of the transaction (never lowered), so that the sort of a flush's rows
/// (`DISTINCT ON`, some 10 MB for 50,000 tasks) stays in memory; with the default 4 MB it spilled
/// to disk.
private let mergeMemory =
    "SELECT set_config('work_mem', GREATEST(setting::bigint, 65536)::text || 'kB', true) FROM pg_settings "
    + "WHERE name = 'work_mem'"

/// Whether `table` may hold a staged key: one index probe for a row whose `column` lies between the
/// smallest and largest staged key (none: false). Uncorrelated, so the server evaluates it once,
/// before the delete: when it is false (keys that grow, as exports' ids do: a later export's new
/// keys into a table that held rows, or keys the filter took for known) the delete skips its probe
/// per staged key (150 ms of a 50,000-task flush, 8 ms with the probe). The bounds are scalar
/// subqueries, so the probe is an index range scan whatever the table's statistics say (joined to
/// the bounds, the planner had chosen a scan of the whole table when they were stale). `LIMIT 1`
/// changes nothing on one server (an `EXISTS` stops at its first row) but everything on Citus,
/// which runs the subquery first as a distributed subplan and ships its result back to every
/// worker: without the limit, every row in the bounds (942,544 logins, 9 MB, 1.5 s a flush on the
/// habits profile at scale 1, where the bounds span nearly every user), with it one row a shard
/// (38 ms).
private func mayHoldStagedKeys(_ table: String, _ column: String, _ staging: String) -> String {
    "EXISTS (SELECT 1 FROM \(table) r WHERE r.\(column) >= (SELECT min(\(column)) FROM \(staging)) "
        + "AND r.\(column) <= (SELECT max(\(column)) FROM \(staging)) LIMIT 1)"
}

/// The delete of a merge: every row of `table` whose `key` a staged row names.
///
/// A one-column key is matched as `key = ANY (ARRAY(SELECT DISTINCT key FROM staging))`: an index
/// probe per staged key, always. The join it replaces (`USING (SELECT DISTINCT key …)`) let the
/// planner, which knows nothing of a TEMP table's rows and little of a table growing inside the
/// import's transaction, hash-join a scan of the whole table at every flush: the fleet profile's
/// 60 flushes of `loan_impacts` read its millions of rows 54 times (6.5 s of a 20 s import).
/// A key of several columns keeps the join.
func stagedKeyDelete(_ table: String, key: [String], keyStaging: String) -> String {
    let probe = mayHoldStagedKeys(table, key[0], keyStaging)
    if key.count == 1 {
        return "DELETE FROM \(table) t WHERE t.\(key[0]) = "
            + "ANY (ARRAY(SELECT DISTINCT \(key[0]) FROM \(keyStaging))) AND " + probe
    }
    let match = key.map { "t.\($0) = s.\($0)" }.joined(separator: " AND ")
    return "DELETE FROM \(table) t USING (SELECT DISTINCT \(key.joined(separator: ", ")) FROM \(keyStaging)) s "
        + "WHERE \(match) AND " + probe
}

/// One COPY-fed staging table of a transaction: its rows buffered, sent and truncated per flush.
private struct StagingTable {
    let name: String
    let create: String
    let copy: String
    var buffer: [UInt8] = []

    init(name: String, source: String, columns: [String]) {
        self.name = name
        create =
            "CREATE TEMP TABLE IF NOT EXISTS \(name) ON COMMIT DROP AS SELECT \(columns.joined(separator: ", ")), "
            + "0::bigint AS \(stageSequence) FROM \(source) WITH NO DATA; " + mergeMemory
        copy = "COPY \(name) (\(columns.joined(separator: ", ")), \(stageSequence)) FROM STDIN"
    }

    /// Creates the table in this transaction if it has none, then sends the buffer.
    mutating func send(_ connection: PostgresConnection, chunk: Int) throws {
        try connection.execute(create)
        try connection.copy(copy, buffer, chunk: chunk)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The rows of a flush whose keys the table cannot hold yet (`StagedKeys`: the table was empty when
/// the transaction began to write it, and no row of that key was written since): nothing to delete
/// and nothing to pick, so they are COPY'd straight into the table, not staged. On Citus the
/// coordinator then routes each row to its shard once, where an `INSERT … SELECT` from a staging
/// table of the coordinator read every row back and sent it on again.
///
/// They go in before the flush's staged rows, so that a later row of the same key (staged, since
/// its key is then known) replaces this one at the merge. The COPY is not waited for: the server
/// stores the rows while the import reads the next ones, as it merges.
private struct NewRows {
    let copy: String
    let label: String
    var buffer: [UInt8] = []

    init(table: String, columns: [String]) {
        copy = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        label = "copy of the new rows: " + copy
    }

    /// Appends a row; the buffer's first row reserves room for a whole flush (`limits.bytes`) and
    /// the row that ends it, so that it is not copied as it grows.
    mutating func append(_ values: [SQLValue], limits: BulkWriteLimits) {
        if buffer.capacity == 0 { buffer.reserveCapacity(limits.bytes + (1 << 20)) }
        PostgresCopyText.appendRow(values, to: &buffer)
    }

    mutating func send(_ connection: PostgresConnection, chunk: Int) throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try connection.copy(copy, buffer, chunk: chunk, pendingLabel: label)
    }
}

final class PostgresUpsertWriter: StoreRowWriter, BufferingWriter {
    private let connection: PostgresConnection
    private let context: WriterContext
    private let table: String
    private let columns: [String]
    private let key: [String]
    /// Where the key's columns are in a row.
    private let keyColumns: [Int]
    /// The rows whose key the table may hold already (or that the buffer holds twice).
    private var staging: StagingTable
    private var newRows: NewRows
    private let merge: String
    /// The merge's insert alone: the last staged row of each key (after a delete sent apart).
    private let insertLatest: String
    /// The merge as error messages name it: what failed is the table's constraint or trigger.
    private let mergeLabel: String
    private var rows = 0
    private var sequence: Int64 = 0
    /// The prepared upsert, for writes outside a transaction.
    private var direct: StatementReplaceWriter?

    var tables: [String] { [table] }

    init(connection: PostgresConnection, table: String, columns: [String], key: [String], context: WriterContext) {
        self.connection = connection
        self.context = context
        self.table = table
        self.columns = columns
        self.key = key
        keyColumns = key.map { name in columns.firstIndex(of: name) ?? 0 }
        staging = StagingTable(name: "report_stage_\(table)", source: table, columns: columns)
        newRows = NewRows(table: table, columns: columns)
        let keys = key.joined(separator: ", ")
        let list = columns.joined(separator: ", ")
        insertLatest =
            "INSERT INTO \(table) (\(list)) SELECT DISTINCT ON (\(keys)) \(list) FROM \(staging.name) "
            + "ORDER BY \(keys), \(stageSequence) DESC; TRUNCATE \(staging.name)"
        merge = stagedKeyDelete(table, key: key, keyStaging: staging.name) + "; " + insertLatest
        mergeLabel = "merge of the staged rows: DELETE FROM \(table) …; INSERT INTO \(table) (\(list)) SELECT …"
    }

    func write(_ row: [SQLValue]) throws {
        guard row.count == columns.count else {
            throw PostgresError(
                state: "", message: "\(row.count) values for the \(columns.count) columns of \(table)",
                location: connection.location)
        }
        guard connection.isInTransaction else {
            if direct == nil {
                direct = try StatementReplaceWriter(connection: connection, table: table, columns: columns, key: key)
            }
            try direct!.write(row)
            return
        }
        sequence += 1
        if try connection.stagedKeys(for: table).stage(keyColumns.lazy.map { row[$0] }) {
            PostgresCopyText.appendRow(row, sequence: sequence, to: &staging.buffer)
        } else {
            newRows.append(row, limits: context.limits)
        }
        rows += 1
        if rows == 1 { context.pending.add(self) }
        if rows >= context.limits.rows || staging.buffer.count + newRows.buffer.count >= context.limits.bytes {
            context.pending.remove(self)
            try flushBuffered()
        }
    }

    func flush() throws {
        context.pending.remove(self)
        try flushBuffered()
        try connection.awaitPending()
    }

    func flushBuffered() throws {
        guard rows > 0 else { return }
        connection.noteStaged(table, rows: rows)
        rows = 0
        let staged = !staging.buffer.isEmpty
        do {
            try newRows.send(connection, chunk: context.limits.chunkBytes)
            if staged { try staging.send(connection, chunk: context.limits.chunkBytes) }
        } catch {
            discardBuffered()
            throw error
        }
        guard staged else { return }
        if try key.count == 1 && connection.isReferenceTable(table) {
            try deleteStagedKeysFromTheClient()
            try connection.send(insertLatest, label: mergeLabel)
        } else {
            try connection.send(merge, label: mergeLabel)
        }
    }

    /// The delete of a merge into a Citus reference table, whose modifications may not read a
    /// table of the coordinator alone such as the staging table ("relation report_stage_… is not
    /// distributed"): the staged keys are read here and sent back as a bound array. Reference
    /// tables are the small ones (events, services, customers…).
    private func deleteStagedKeysFromTheClient() throws {
        let keys = try connection.scalar("SELECT array_agg(DISTINCT \(key[0]))::text FROM \(staging.name)")
        guard case .text(let array)? = keys else { return }
        _ = try connection.scalar("DELETE FROM \(table) WHERE \(key[0]) = ANY (CAST(? AS text[]))", [.text(array)])
    }

    func discardBuffered() {
        rows = 0
        staging.buffer.removeAll(keepingCapacity: true)
        newRows.buffer.removeAll(keepingCapacity: true)
    }
}

/// Child rows on PostgreSQL: the rows of a parent the table cannot hold yet are COPY'd straight in
/// (`NewRows`); the other parents are replaced through two staging tables, their keys and their
/// rows, whose merge deletes every staged parent's rows and inserts the rows of the last replace of
/// each parent (a parent whose last list is empty keeps no rows).
final class PostgresChildRowsWriter: StoreChildRowsWriter, BufferingWriter {
    private let connection: PostgresConnection
    private let context: WriterContext
    private let table: String
    private let parentColumn: String
    private let columns: [String]
    private var parents: StagingTable
    private var children: StagingTable
    private var newRows: NewRows
    private let merge: String
    /// The merge as error messages name it: what failed is the table's constraint or trigger.
    private let mergeLabel: String
    private var replaced = 0
    private var sequence: Int64 = 0
    private var direct: StatementChildRowsWriter?
    private var row: [SQLValue] = []

    var tables: [String] { [table] }

    init(
        connection: PostgresConnection, table: String, parentColumn: String, columns: [String],
        context: WriterContext
    ) {
        self.connection = connection
        self.context = context
        self.table = table
        self.parentColumn = parentColumn
        self.columns = columns
        parents = StagingTable(name: "report_stage_\(table)_parents", source: table, columns: [parentColumn])
        let all = [parentColumn, "position"] + columns
        children = StagingTable(name: "report_stage_\(table)", source: table, columns: all)
        newRows = NewRows(table: table, columns: all)
        let list = all.joined(separator: ", ")
        let staged = all.map { "c.\($0)" }.joined(separator: ", ")
        merge =
            stagedKeyDelete(table, key: [parentColumn], keyStaging: parents.name) + "; "
            + "INSERT INTO \(table) (\(list)) SELECT \(staged) FROM \(children.name) c JOIN (SELECT \(parentColumn), "
            + "max(\(stageSequence)) AS \(stageSequence) FROM \(parents.name) GROUP BY \(parentColumn)) l "
            + "ON c.\(parentColumn) = l.\(parentColumn) AND c.\(stageSequence) = l.\(stageSequence); "
            + "TRUNCATE \(parents.name), \(children.name)"
        mergeLabel = "merge of the staged rows: DELETE FROM \(table) …; INSERT INTO \(table) (\(list)) SELECT …"
    }

    func replace(parent: String, rows: [[SQLValue]]) throws {
        guard connection.isInTransaction else {
            if direct == nil {
                direct = try StatementChildRowsWriter(
                    connection: connection, table: table, parentColumn: parentColumn, columns: columns)
            }
            try direct!.replace(parent: parent, rows: rows)
            return
        }
        if let values = rows.first(where: { $0.count != columns.count }) {
            throw PostgresError(
                state: "", message: "\(values.count) values for the \(columns.count) columns of \(table)",
                location: connection.location)
        }
        sequence += 1
        let known = try connection.stagedKeys(for: table).stage([.text(parent)])
        if known { PostgresCopyText.appendRow([.text(parent)], sequence: sequence, to: &parents.buffer) }
        for (position, values) in rows.enumerated() {
            row.removeAll(keepingCapacity: true)
            row.append(.text(parent))
            row.append(.integer(Int64(position)))
            row.append(contentsOf: values)
            if known {
                PostgresCopyText.appendRow(row, sequence: sequence, to: &children.buffer)
            } else {
                newRows.append(row, limits: context.limits)
            }
        }
        replaced += 1 + rows.count
        if replaced == 1 + rows.count { context.pending.add(self) }
        let bytes = parents.buffer.count + children.buffer.count + newRows.buffer.count
        if replaced >= context.limits.rows || bytes >= context.limits.bytes {
            context.pending.remove(self)
            try flushBuffered()
        }
    }

    func flush() throws {
        context.pending.remove(self)
        try flushBuffered()
        try connection.awaitPending()
    }

    func flushBuffered() throws {
        guard replaced > 0 else { return }
        connection.noteStaged(table, rows: replaced)
        replaced = 0
        let staged = !parents.buffer.isEmpty
        do {
            try newRows.send(connection, chunk: context.limits.chunkBytes)
            if staged {
                try parents.send(connection, chunk: context.limits.chunkBytes)
                try children.send(connection, chunk: context.limits.chunkBytes)
            }
        } catch {
            discardBuffered()
            throw error
        }
        if staged { try connection.send(merge, label: mergeLabel) }
    }

    func discardBuffered() {
        replaced = 0
        parents.buffer.removeAll(keepingCapacity: true)
        children.buffer.removeAll(keepingCapacity: true)
        newRows.buffer.removeAll(keepingCapacity: true)
    }
}

/// A PostgreSQL row written outside any transaction (a test's single record, never an import):
/// the earlier row of its key deleted and the row inserted, in a transaction of their own. Not
/// `ON CONFLICT (key)`: on Citus a distributed table's key holds its distribution column
/// (`report distribute` widens `(id)` to `(id, user_id)`), so no unique index holds the record's
/// key alone, and a record that moved to another user must not stay on the old one.
final class StatementReplaceWriter: StoreRowWriter {
    private let connection: PostgresConnection
    private let delete: any StoreStatement
    private let insert: any StoreStatement
    private let keyColumns: [Int]

    init(connection: PostgresConnection, table: String, columns: [String], key: [String]) throws {
        self.connection = connection
        keyColumns = try key.map { name in
            guard let index = columns.firstIndex(of: name) else {
                throw StoreError("internal error: key column \(name) is not among the columns of \(table)")
            }
            return index
        }
        delete = try connection.prepare(
            "DELETE FROM \(table) WHERE " + key.map { "\($0) = ?" }.joined(separator: " AND "))
        insert = try connection.prepare(Upsert.insert(table: table, columns: columns))
    }

    func write(_ row: [SQLValue]) throws {
        try connection.execute("BEGIN")
        do {
            try delete.run(row: keyColumns.map { row[$0] })
            try insert.run(row: row)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func flush() throws {}
}
