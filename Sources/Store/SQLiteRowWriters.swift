/// SQLite's write path of imports: inside a transaction, an upsert writer runs one statement for
/// `BulkWriteLimits.sqliteRows` rows at a time (`INSERT … VALUES (…), (…), … ON CONFLICT … DO
/// UPDATE`), so that SQLite's fixed cost of a statement run (reset, cursors opened and closed,
/// the program's start and halt) is paid once a batch instead of once a row: that cost, not the
/// B-tree, was most of what the import's database thread spent on a row beyond SQLite's own
/// floor (docs/BENCHMARKS.md). SQLite applies the rows of one statement in order, each upsert
/// seeing the rows before it, so a key repeated within a batch ends with its last row, as row by
/// row. Rows held back are written before anything could read the table (`PendingWrites`, as on
/// PostgreSQL); a rollback drops them. Outside a transaction every row is written at once.
extension SQLiteConnection: BulkWritingConnection {
    func upsertWriter(
        table: String, columns: [String], key: [String], context: WriterContext
    ) throws
        -> any StoreRowWriter
    {
        try SQLiteBatchUpsertWriter(connection: self, table: table, columns: columns, key: key, context: context)
    }

    /// A list of child rows is replaced row by row: lists are short, and the delete of the
    /// parent's earlier rows must come before its new ones.
    func childRowsWriter(
        table: String, parentColumn: String, columns: [String], context: WriterContext
    ) throws
        -> any StoreChildRowsWriter
    {
        try StatementChildRowsWriter(connection: self, table: table, parentColumn: parentColumn, columns: columns)
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
    private var rows = 0

    var tables: [String] { [table] }

    init(connection: SQLiteConnection, table: String, columns: [String], key: [String], context: WriterContext) throws {
        self.connection = connection
        self.context = context
        self.table = table
        self.columns = columns.count
        single = try SQLiteStatement(connection: connection, sql: Upsert.sql(table: table, columns: columns, key: key))
        batchSQL = Upsert.sql(table: table, columns: columns, key: key, rows: context.limits.sqliteRows)
    }

    func write(_ row: [SQLValue]) throws {
        guard row.count == columns else {
            throw StoreError("\(row.count) values for the \(columns) columns of \(table)")
        }
        guard connection.isInTransaction, context.limits.sqliteRows > 1 else { return try single.run(row: row) }
        if rows == 0 {
            held.reserveCapacity(columns * context.limits.sqliteRows)
            context.pending.add(self)
        }
        held.append(contentsOf: row)
        rows += 1
        if rows == context.limits.sqliteRows {
            if batch == nil { batch = try SQLiteStatement(connection: connection, sql: batchSQL) }
            defer { discardBuffered() }
            context.pending.remove(self)
            try batch!.run(row: held)
        }
    }

    func flush() throws {
        context.pending.remove(self)
        try flushBuffered()
    }

    func flushBuffered() throws {
        guard rows > 0 else { return }
        defer { discardBuffered() }
        for start in stride(from: 0, to: held.count, by: columns) {
            try single.run(row: Array(held[start..<start + columns]))
        }
    }

    func discardBuffered() {
        rows = 0
        held.removeAll(keepingCapacity: true)
    }
}
