/// The write path of an import: rows upserted by key, and nested lists replaced whole with their
/// parent. Importers hold an `UpsertWriter` (and `ChildRows`) and never learn which backend
/// stores the rows.
///
/// - SQLite, inside a transaction: the prepared `INSERT … ON CONFLICT DO UPDATE` writes
///   `BulkWriteLimits.sqliteRows` rows a run, and child lists are replaced that many parents at a
///   time (`SQLiteRowWriters.swift`), the rows held back until then being written before anything
///   could read them, as below. Outside a transaction every row is written at once.
/// - PostgreSQL, inside a transaction: rows are COPY-escaped into a byte buffer and sent with
///   `COPY … FROM STDIN` into a TEMP staging table, then merged into the table (delete the staged
///   keys, insert the last staged row of each key), every `BulkWriteLimits.rows` rows and before
///   the transaction commits (`PostgresRowWriters.swift`). Outside a transaction a PostgreSQL
///   writer runs the prepared statements, as SQLite does, so every write stands at once.
///
/// Buffered rows are merged before anything else on the connection could see the tables they
/// go to: before COMMIT, before a savepoint opens, and before any statement whose SQL names one
/// of those tables (a read of the importer, the bulk rebuild of an index). A rollback drops them.
/// Table and column names come from the code; every value is bound or COPY-escaped.
public final class UpsertWriter {
    let backend: any StoreRowWriter

    init(_ backend: any StoreRowWriter) { self.backend = backend }

    /// Upserts one row: one value for each column, in the order the writer was made with.
    public func write(_ row: [SQLValue]) throws { try backend.write(row) }

    /// Upserts one row given as `values` then one last column's value: a row whose values were
    /// made before the last was known (on the import's reader thread, before its import
    /// sequence), written without a second array.
    public func write(_ values: [SQLValue], then last: SQLValue) throws { try backend.write(values, then: last) }

    /// Stores every buffered row now (nothing to do on SQLite).
    public func flush() throws { try backend.flush() }
}

/// The rows of one nested list (a flow's contexts, a booking's service lines), replaced whole with
/// their parent: the parent's earlier rows are deleted and the new ones inserted on every replace,
/// so that a later record with a shorter list leaves no stale rows. Positions count from 0, as
/// the paths of error messages do. On PostgreSQL the lists are staged as `UpsertWriter` rows are,
/// and the last staged list of each parent wins.
public final class ChildRows {
    let backend: any StoreChildRowsWriter

    public init(database: Database, table: String, parentColumn: String, columns: [String]) throws {
        backend = try database.makeChildRowsWriter(table: table, parentColumn: parentColumn, columns: columns)
    }

    public func replace(parent: String, rows: [[SQLValue]]) throws { try backend.replace(parent: parent, rows: rows) }

    /// Stores every buffered list now (nothing to do on SQLite).
    public func flush() throws { try backend.flush() }
}

/// When a buffering writer sends and merges what it holds: after `rows` rows or `bytes` bytes of
/// COPY text, whichever comes first, sent to the server in pieces of `chunkBytes`. The defaults
/// keep an import's memory flat (one buffer of about `bytes` per writer, reserved once: the
/// server merges from its staging table while the buffer fills again) and make the merges few.
public struct BulkWriteLimits: Sendable {
    public var rows: Int
    public var bytes: Int
    public var chunkBytes: Int

    /// SQLite: rows a statement writes at once inside a transaction (1: row by row).
    public var sqliteRows: Int

    public init(rows: Int = 50_000, bytes: Int = 8 << 20, chunkBytes: Int = 256 << 10, sqliteRows: Int = 32) {
        self.rows = max(1, rows)
        self.bytes = max(1, bytes)
        self.chunkBytes = max(1, chunkBytes)
        self.sqliteRows = min(max(1, sqliteRows), 256)
    }
}

extension Database {
    /// A writer that upserts rows of `columns` into `table` by `key`: a later row with the same key
    /// replaces the earlier one whole (every column is overwritten, an absent optional becomes NULL).
    public func upsertWriter(table: String, columns: [String], key: [String] = ["id"]) throws -> UpsertWriter {
        UpsertWriter(try makeUpsertWriter(table: table, columns: columns, key: key))
    }

    /// Stores the rows every writer of this connection still buffers (done before COMMIT anyway).
    public func flushWriters() throws { try pending.flushAll() }

    /// Loads rows into `tables` in the order of their keys for the rest of the current transaction
    /// (a bulk file, `report import`). On SQLite, an upsert writer of a `WITHOUT ROWID` table among
    /// them, whose one B-tree is its key, stages its rows in a temporary table and, when flushed
    /// (before anything reads the table, and before the commit), merges them into the table in one
    /// `INSERT … SELECT … ORDER BY key, arrival` with the same `ON CONFLICT` update, so that the
    /// last row of a key still wins. Rows arriving in another order than the key's (logins and
    /// moods come day by day, keyed by user) would otherwise go into that B-tree at random places:
    /// sorted, they are appended (docs/BENCHMARKS.md, issue 32 item 2). A table with a rowid, and
    /// PostgreSQL (which merges staged rows already), are loaded as before.
    public func loadInKeyOrder(_ tables: [String]) throws {
        guard kind == .sqlite, isInTransaction else { return }
        for table in tables {
            let sql = try rows("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])
            if sql.first?.first?.string?.uppercased().contains("WITHOUT ROWID") == true {
                keyOrder.tables.insert(table)
            }
        }
        whenOutsideTransaction { [keyOrder] in keyOrder.tables.removeAll() }
    }

    /// Registers a writer holding rows back in the current transaction: it is flushed, as the
    /// store's own writers are, before the transaction commits or a savepoint opens, before any
    /// statement naming one of its tables, and discarded by a rollback. Call it again after each
    /// flush, when it holds rows again.
    public func holdBack(_ writer: any BufferingWriter) { pending.add(writer) }
}

/// A backend's upsert of one table.
public protocol StoreRowWriter: AnyObject {
    func write(_ row: [SQLValue]) throws
    func write(_ values: [SQLValue], then last: SQLValue) throws
    func flush() throws
}

extension StoreRowWriter {
    public func write(_ values: [SQLValue], then last: SQLValue) throws { try write(values + [last]) }
}

/// A backend's replacement of one parent's child rows.
public protocol StoreChildRowsWriter: AnyObject {
    func replace(parent: String, rows: [[SQLValue]]) throws
    func flush() throws
}

/// What a writer is made with: the connection's list of writers holding rows, its limits, and the
/// tables loaded in key order in the current transaction.
public struct WriterContext {
    let pending: PendingWrites
    let limits: BulkWriteLimits
    let keyOrder: KeyOrderLoads
}

/// The tables whose rows go in sorted by key in the current transaction (`Database.loadInKeyOrder`).
final class KeyOrderLoads {
    var tables: Set<String> = []
}

/// A writer that holds rows the tables do not have yet: the backends' batching writers, and an
/// importer that holds records back to look at what they replace before they are written
/// (`Database.holdBack`).
public protocol BufferingWriter: AnyObject {
    /// The tables its rows go to, so that a statement naming one of them is preceded by a flush.
    var tables: [String] { get }
    /// Sends what it holds (the server may still be merging it when this returns: the connection
    /// waits for that before its next command, and reports a failure there).
    func flushBuffered() throws
    /// Forgets what it holds (the transaction is being rolled back).
    func discardBuffered()
}

/// The writers of one connection that hold rows, in the order they started to. Empty on SQLite,
/// so there a statement pays one test of `isActive`.
final class PendingWrites {
    private var writers: [any BufferingWriter] = []
    var isActive: Bool { !writers.isEmpty }

    func add(_ writer: any BufferingWriter) {
        if !writers.contains(where: { $0 === writer }) { writers.append(writer) }
    }

    func remove(_ writer: any BufferingWriter) { writers.removeAll { $0 === writer } }

    /// Flushes every writer; after a failure the others' rows are dropped (the transaction fails).
    func flushAll() throws {
        while let writer = writers.first {
            writers.removeFirst()
            do { try writer.flushBuffered() } catch {
                discardAll()
                throw error
            }
        }
    }

    func discardAll() {
        let all = writers
        writers.removeAll()
        for writer in all { writer.discardBuffered() }
    }

    /// Flushes every writer when the SQL names a table one of them writes to, or ends the
    /// transaction (a COMMIT run as SQL rather than by `Database.transaction`).
    func flush(beforeRunning sql: String) throws {
        guard isActive else { return }
        let ends = ["COMMIT", "END", "RELEASE", "PREPARE"].contains(SQLText.leadingKeyword(sql))
        if ends || writers.contains(where: { $0.tables.contains { SQLText.names(sql, $0) } }) { try flushAll() }
    }
}

enum SQLText {
    /// The statement's first word, upper-cased (`COMMIT` of `commit;`), after any leading white
    /// space: how a transaction-control statement run as SQL is told from the rest.
    static func leadingKeyword(_ sql: String) -> String {
        let word = sql.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
            .prefix { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
        return String(decoding: word, as: UTF8.self).uppercased()
    }

    /// Whether `sql` holds `name` as a whole word (`tasks` in `ON public.tasks (`, not in
    /// `task_contexts` or `tasks_user_date`). May answer true for a name inside a literal: a flush
    /// too many costs time, never correctness.
    static func names(_ sql: String, _ name: String) -> Bool {
        let text = Array(sql.utf8)
        let word = Array(name.utf8)
        guard !word.isEmpty, text.count >= word.count else { return false }
        func isNameByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || byte >= 0x80
        }
        var start = 0
        while start + word.count <= text.count {
            if text[start] | 0x20 == word[0] | 0x20 {
                var matches = true
                for offset in 1..<word.count where text[start + offset] | 0x20 != word[offset] | 0x20 {
                    matches = false
                    break
                }
                if matches {
                    let before = start == 0 ? nil : text[start - 1]
                    let after = start + word.count < text.count ? text[start + word.count] : nil
                    if !(before.map(isNameByte) ?? false) && !(after.map(isNameByte) ?? false) { return true }
                }
            }
            start += 1
        }
        return false
    }
}

/// The writers over prepared statements: SQLite's always, PostgreSQL's outside a transaction.
final class StatementUpsertWriter: StoreRowWriter {
    private let statement: any StoreStatement

    init(connection: any StoreConnection, table: String, columns: [String], key: [String]) throws {
        statement = try connection.prepare(Upsert.sql(table: table, columns: columns, key: key))
    }

    func write(_ row: [SQLValue]) throws { try statement.run(row: row) }

    func flush() throws {}
}

final class StatementChildRowsWriter: StoreChildRowsWriter {
    private let delete: any StoreStatement
    /// One stored row: the parent, its position in the list, then the columns.
    let insert: any StoreStatement

    init(connection: any StoreConnection, table: String, parentColumn: String, columns: [String]) throws {
        delete = try connection.prepare("DELETE FROM \(table) WHERE \(parentColumn) = ?")
        insert = try connection.prepare(Upsert.insert(table: table, columns: [parentColumn, "position"] + columns))
    }

    func replace(parent: String, rows: [[SQLValue]]) throws {
        try delete.run(row: [.text(parent)])
        for (position, row) in rows.enumerated() {
            try insert.run(row: [.text(parent), .integer(Int64(position))] + row)
        }
    }

    func flush() throws {}
}

extension Database {
    func makeUpsertWriter(table: String, columns: [String], key: [String]) throws -> any StoreRowWriter {
        try connection.upsertWriter(
            table: table, columns: columns, key: key,
            context: WriterContext(pending: pending, limits: bulkWriteLimits, keyOrder: keyOrder))
    }

    func makeChildRowsWriter(
        table: String, parentColumn: String, columns: [String]
    ) throws
        -> any StoreChildRowsWriter
    {
        try connection.childRowsWriter(
            table: table, parentColumn: parentColumn, columns: columns,
            context: WriterContext(pending: pending, limits: bulkWriteLimits, keyOrder: keyOrder))
    }

    /// Drops the writers' buffered rows and whatever the server still runs for them (its result,
    /// an error included, is read and thrown away), so that a rollback can run.
    func abandonWrites() {
        rollbackCount += 1
        pending.discardAll()
        connection.abandonPendingWork()
    }
}
