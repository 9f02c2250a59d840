/// A big file's load into its tables inside the current writing transaction (`report import`):
/// their secondary indexes dropped at the start and built again, in bulk, after the rows, and
/// the tables loaded in key order where that helps (`Database.loadInKeyOrder`). A rollback of
/// the transaction restores the indexes as they were.
public final class BulkLoad {
    private let database: Database
    private var creates: [String]
    /// Held open while the rows go in, where the backend needs it (`StoreConnection.holdSchemaPage`).
    private var schemaPage: (any StoreStatement)?

    fileprivate init(database: Database, creates: [String], schemaPage: (any StoreStatement)?) {
        self.database = database
        self.creates = creates
        self.schemaPage = schemaPage
    }

    deinit { schemaPage?.reset() }

    /// Builds the dropped indexes again: after the writers' rows are stored, so each index is
    /// built once, from all of them.
    public func buildIndexes() throws {
        schemaPage?.reset()
        schemaPage = nil
        try database.flushWriters()
        for sql in creates { try database.execute(sql) }
        creates.removeAll()
    }
}

extension Database {
    /// Starts a bulk load of `tables` in the current writing transaction; `buildIndexes()` on the
    /// result before the transaction ends.
    public func beginBulkLoad(of tables: [String]) throws -> BulkLoad {
        guard isInTransaction else { throw StoreError("internal error: a bulk load outside a transaction") }
        var creates: [String] = []
        for table in tables {
            for (name, sql) in try secondaryIndexes(of: table) {
                try execute("DROP INDEX \(quotedSQLIdentifier(name))")
                creates.append(sql)
            }
        }
        try loadInKeyOrder(tables)
        return BulkLoad(database: self, creates: creates, schemaPage: try connection.holdSchemaPage())
    }

    /// The `id` the next row of `table` (an `INTEGER PRIMARY KEY`) is to get, reserved inside the
    /// current writing transaction, so that a row whose id other rows name as they are written
    /// (the import's log, named by each rejected record) can itself be written last, once, with
    /// its final values.
    public func reserveId(in table: String) throws -> Int64 { try connection.reserveId(in: table) }
}
