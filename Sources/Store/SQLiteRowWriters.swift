/// SQLite's write path of imports: inside a transaction, an upsert writer runs one statement for
/// `BulkWriteLimits.sqliteRows` rows at a time (`INSERT … VALUES (…), (…), … ON CONFLICT … DO
/// UPDATE`), so that SQLite's fixed cost of a statement run (reset, cursors opened and closed,
/// the program's start and halt) is paid once a batch instead of once a row: that cost, not the
/// B-tree, was most of what the import's database thread spent on a row beyond SQLite's own
/// floor (docs/BENCHMARKS.md). SQLite applies the rows of one statement in order, each upsert
/// seeing the rows before it, so a key repeated within a batch ends with its last row, as row by
/// row. Lists of child rows are replaced the same way, `sqliteRows` parents at a time. Rows held
/// back are written before anything could read the table (`PendingWrites`, as on PostgreSQL); a
/// rollback drops them. Outside a transaction every row is written at once.
extension SQLiteConnection {
    func upsertWriter(
        table: String, columns: [String], key: [String], context: WriterContext
    ) throws
        -> any StoreRowWriter
    {
        try SQLiteBatchUpsertWriter(connection: self, table: table, columns: columns, key: key, context: context)
    }

    func childRowsWriter(
        table: String, parentColumn: String, columns: [String], context: WriterContext
    ) throws
        -> any StoreChildRowsWriter
    {
        try SQLiteBatchChildRowsWriter(
            connection: self, table: table, parentColumn: parentColumn, columns: columns, context: context)
    }

    /// Nothing runs in the background on SQLite.
    func abandonPendingWork() {}
}

final class SQLiteBatchUpsertWriter: StoreRowWriter, BufferingWriter {
    private let connection: SQLiteConnection
    private let context: WriterContext
    private let table: String
    private let columns: Int
    /// One row, for writes outside a transaction and for the rows left at a flush.
    private let single: SQLiteStatement
    /// `context.limits.sqliteRows` rows; prepared at the first full batch.
    private var batch: SQLiteStatement?
    private let batchSQL: String
    /// The values of the rows held back, row after row.
    private var held: [SQLValue] = []
    /// The column names and key, for a load in key order (`Database.loadInKeyOrder`).
    private let columnNames: [String]
    private let key: [String]
    /// The rows staged for a merge in key order since the last flush, if any.
    private var stage: SQLiteKeyOrderStage?

    var tables: [String] { [table] }

    init(connection: SQLiteConnection, table: String, columns: [String], key: [String], context: WriterContext) throws {
        self.connection = connection
        self.context = context
        self.table = table
        self.columns = columns.count
        columnNames = columns
        self.key = key
        single = try SQLiteStatement(connection: connection, sql: Upsert.sql(table: table, columns: columns, key: key))
        batchSQL = Upsert.sql(table: table, columns: columns, key: key, rows: context.limits.sqliteRows)
    }

    func write(_ row: [SQLValue]) throws { try hold(row, then: nil) }

    /// The same as `write(values + [last])`, without making that array (the row of each record
    /// of an import, on the database thread).
    func write(_ values: [SQLValue], then last: SQLValue) throws { try hold(values, then: last) }

    /// Writes `values`, then `last` when given, as one row: held with the batch's others inside a
    /// transaction, the batch statement run once they fill it; written at once outside one.
    private func hold(_ values: [SQLValue], then last: SQLValue?) throws {
        let count = values.count + (last == nil ? 0 : 1)
        guard count == columns else { throw StoreError("\(count) values for the \(columns) columns of \(table)") }
        guard connection.isInTransaction, context.limits.sqliteRows > 1 else {
            return try single.run(row: last.map { values + [$0] } ?? values)
        }
        if held.isEmpty {
            held.reserveCapacity(columns * context.limits.sqliteRows)
            context.pending.add(self)
        }
        held.append(contentsOf: values)
        if let last { held.append(last) }
        guard held.count == columns * context.limits.sqliteRows else { return }
        defer { held.removeAll(keepingCapacity: true) }
        if context.keyOrder.tables.contains(table) {
            // Staged: the writer stays among the pending ones until the merge.
            if stage == nil {
                stage = try SQLiteKeyOrderStage(
                    connection: connection, table: table, columns: columnNames, key: key,
                    rows: context.limits.sqliteRows)
            }
            return try stage!.batch.run(row: held)
        }
        if batch == nil { batch = try SQLiteStatement(connection: connection, sql: batchSQL) }
        context.pending.remove(self)
        try batch!.run(row: held)
    }

    func flush() throws {
        context.pending.remove(self)
        try flushBuffered()
    }

    func flushBuffered() throws {
        defer { discardBuffered() }
        if let stage {
            for start in stride(from: 0, to: held.count, by: columns) {
                try stage.single.run(row: Array(held[start..<start + columns]))
            }
            held.removeAll(keepingCapacity: true)
            return try stage.merge()
        }
        for start in stride(from: 0, to: held.count, by: columns) {
            try single.run(row: Array(held[start..<start + columns]))
        }
    }

    func discardBuffered() {
        held.removeAll(keepingCapacity: true)
        stage = nil
    }
}

/// The temporary table a load in key order stages a table's rows in (`Database.loadInKeyOrder`),
/// with the statements that fill it and the merge that empties it into the table sorted by key.
/// Made at the first batch after each flush: a rollback may have dropped the table.
///
/// Memory: the stage's pages pass through the temporary database's cache, kept at
/// `stageCacheKiB`, and the merge's sort holds as many bytes as the main cache's size before it
/// spills sorted runs to temporary files, so the main cache is lowered to `mergeCacheKiB` for the
/// merge (appending in key order needs few pages) and set back after: the import's peak stays
/// under its 64 MB (docs/BENCHMARKS.md, issue 32 item 2).
final class SQLiteKeyOrderStage {
    static let stageCacheKiB = 512
    static let mergeCacheKiB = 2048

    private let connection: SQLiteConnection
    let batch: SQLiteStatement
    let single: SQLiteStatement
    private let mergeSQL: String
    private let name: String

    init(connection: SQLiteConnection, table: String, columns: [String], key: [String], rows: Int) throws {
        self.connection = connection
        name = "temp.report_stage_\(table)"
        let list = columns.joined(separator: ", ")
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS report_stage_\(table) AS SELECT \(list) FROM main.\(table) WHERE 0")
        try connection.execute("PRAGMA temp.cache_size = -\(Self.stageCacheKiB)")
        batch = try SQLiteStatement(
            connection: connection, sql: Upsert.insert(table: name, columns: columns, rows: rows))
        single = try SQLiteStatement(connection: connection, sql: Upsert.insert(table: name, columns: columns))
        mergeSQL = Upsert.merge(table: "main.\(table)", columns: columns, key: key, from: name)
    }

    /// Upserts the staged rows into the table in key order, then empties the stage.
    func merge() throws {
        let cache = try connection.scalarInt("PRAGMA main.cache_size") ?? 0
        let lowered = cache < -Int64(Self.mergeCacheKiB)
        if lowered { try connection.execute("PRAGMA main.cache_size = -\(Self.mergeCacheKiB)") }
        defer { if lowered { try? connection.execute("PRAGMA main.cache_size = \(cache)") } }
        try connection.execute(mergeSQL)
        try connection.execute("DELETE FROM \(name)")
    }
}

/// Child rows on SQLite, inside a transaction: the lists of `sqliteRows` parents are held, then
/// one statement deletes those parents' earlier rows and the last list of each goes in
/// `sqliteRows` rows a statement (a parent replaced twice among them keeps its last list only,
/// an empty one none), as the delete and inserts of each replace would have left them.
final class SQLiteBatchChildRowsWriter: StoreChildRowsWriter, BufferingWriter {
    private let connection: SQLiteConnection
    private let context: WriterContext
    private let table: String
    /// Values of a stored row: the parent, its position in the list, then the columns.
    private let width: Int
    /// Writes outside a transaction; its one-row insert also takes the rows left after the last
    /// full many-row insert of a flush.
    private let direct: StatementChildRowsWriter
    private let deleteSQL: String
    private let insertSQL: String
    /// Prepared at the first flush.
    private var delete: SQLiteStatement?
    private var insert: SQLiteStatement?
    /// The parents held, in order (a parent may repeat), and where each one's rows start in `held`.
    private var parents: [String] = []
    private var starts: [Int] = []
    private var held: [SQLValue] = []

    var tables: [String] { [table] }

    init(
        connection: SQLiteConnection, table: String, parentColumn: String, columns: [String],
        context: WriterContext
    ) throws {
        self.connection = connection
        self.context = context
        self.table = table
        width = columns.count + 2
        direct = try StatementChildRowsWriter(
            connection: connection, table: table, parentColumn: parentColumn, columns: columns)
        let count = context.limits.sqliteRows
        deleteSQL = "DELETE FROM \(table) WHERE \(parentColumn) IN \(Upsert.parameters(count))"
        insertSQL = Upsert.insert(table: table, columns: [parentColumn, "position"] + columns, rows: count)
    }

    func replace(parent: String, rows: [[SQLValue]]) throws {
        guard connection.isInTransaction, context.limits.sqliteRows > 1 else {
            return try direct.replace(parent: parent, rows: rows)
        }
        if parents.isEmpty { context.pending.add(self) }
        parents.append(parent)
        starts.append(held.count)
        for (position, row) in rows.enumerated() {
            guard row.count + 2 == width else {
                throw StoreError("\(row.count) values for the \(width - 2) columns of \(table)")
            }
            held.append(.text(parent))
            held.append(.integer(Int64(position)))
            held.append(contentsOf: row)
        }
        if parents.count == context.limits.sqliteRows {
            context.pending.remove(self)
            try flushBuffered()
        }
    }

    func flush() throws {
        context.pending.remove(self)
        try flushBuffered()
    }

    func flushBuffered() throws {
        guard !parents.isEmpty else { return }
        defer { discardBuffered() }
        let count = context.limits.sqliteRows
        if delete == nil { delete = try SQLiteStatement(connection: connection, sql: deleteSQL) }
        if insert == nil { insert = try SQLiteStatement(connection: connection, sql: insertSQL) }
        // The last list of each parent; the deleted parents padded with a repeat of the first.
        var seen = Set<String>()
        var kept = [Bool](repeating: false, count: parents.count)
        for index in parents.indices.reversed() where seen.insert(parents[index]).inserted { kept[index] = true }
        var distinct = parents.indices.filter { kept[$0] }.map { SQLValue.text(parents[$0]) }
        distinct += Array(repeating: distinct[0], count: count - distinct.count)
        try delete!.run(row: distinct)
        var rows: [SQLValue] = []
        rows.reserveCapacity(held.count)
        for index in parents.indices where kept[index] {
            let end = index + 1 < starts.count ? starts[index + 1] : held.count
            rows += held[starts[index]..<end]
        }
        let batch = width * count
        var start = 0
        while rows.count - start >= batch {
            try insert!.run(row: Array(rows[start..<start + batch]))
            start += batch
        }
        while start < rows.count {
            try direct.insert.run(row: Array(rows[start..<start + width]))
            start += width
        }
    }

    func discardBuffered() {
        parents.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
    }
}
