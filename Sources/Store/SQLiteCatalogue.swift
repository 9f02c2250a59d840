import CSQLite

/// What the SQLite backend reads from `sqlite_master` and the file header: the only place that
/// names them, so that commands and domains ask the store instead.
extension SQLiteConnection {
    /// Marks a file as a `report` database (PRAGMA application_id: "RPRT").
    static let applicationId: Int64 = 0x5250_5254

    func tableExists(_ name: String) throws -> Bool {
        try scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) ?? 0 > 0
    }

    func tableNames() throws -> [String] {
        try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { $0[0].string }
    }

    func secondaryIndexes(of table: String) throws -> [(name: String, sql: String)] {
        try schemaObjects("index", of: table)
    }

    /// The indexes of a table written in its schema (not those SQLite makes itself for
    /// a key), as (name, the SQL that creates it again), by name.
    private func schemaObjects(_ type: String, of table: String) throws -> [(name: String, sql: String)] {
        try rows(
            "SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
            [.text(type), .text(table)]
        ).compactMap { row in
            guard let name = row[0].string, let sql = row[1].string else { return nil }
            return (name, sql)
        }
    }

    /// SQLite runs the schema as written: the domains' DDL is SQLite's dialect.
    func schemaSQL(_ sql: String) -> String { sql }

    func checkApplication() throws {
        let applicationId = try scalarInt("PRAGMA application_id") ?? 0
        if applicationId != 0 && applicationId != Self.applicationId {
            throw StoreError("\(location) is a SQLite database of another application")
        }
    }

    func markApplication() throws { try execute("PRAGMA application_id = \(Self.applicationId)") }

    /// One more than the largest id, as SQLite gives an `INTEGER PRIMARY KEY` row inserted
    /// without one; the writing transaction's lock keeps it free until the row goes in.
    func reserveId(in table: String) throws -> Int64 {
        guard isInTransaction else {
            throw StoreError("internal error: an id of \(table) reserved outside a transaction")
        }
        return try scalarInt("SELECT coalesce(max(id), 0) + 1 FROM \(quotedSQLIdentifier(table))") ?? 1
    }

    /// A read of `sqlite_schema`'s last row, stepped once and left open: the pages under its
    /// cursor (the schema's root and last leaf) are referenced, and SQLite never spills a
    /// referenced page from its cache to the WAL. A bulk load drops indexes at its start and
    /// creates them at its end, changing that leaf twice; spilled in between, the leaf would be
    /// written to the WAL twice, and a page written again into its frame of the same transaction
    /// makes SQLite read back every later frame at the commit to write its checksum again (46,000
    /// frames for the 1M-task file: docs/BENCHMARKS.md, issue 32 item 2). Held, the leaf is
    /// written once, at the commit.
    func holdSchemaPage() throws -> (any StoreStatement)? {
        let statement = try SQLiteStatement(
            connection: self, sql: "SELECT rowid FROM main.sqlite_schema ORDER BY rowid DESC LIMIT 1")
        _ = try statement.step()
        return statement
    }
}
