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

    func insertReturningId(_ sql: String, _ parameters: [SQLValue]) throws -> Int64 {
        let statement = try SQLiteStatement(connection: self, sql: sql)
        for (offset, value) in parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
        while try statement.step() {}
        return sqlite3_last_insert_rowid(handle)
    }
}
