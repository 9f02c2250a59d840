/// One step of a schema: the SQL that brings a domain's tables from `version - 1` to `version`.
///
/// Applied steps are recorded in `schema_migrations`, so a later release adds steps and migrates a
/// database file made by this one; a file with steps this release does not know is refused.
///
/// The SQL is SQLite's, which every backend translates (types, STRICT); a step whose SQL cannot be
/// translated word for word (SQLite triggers are PostgreSQL trigger functions) gives its text in
/// that dialect as well (`dialects`). An empty text is a step with nothing to do
/// in that dialect (it is still recorded, so the versions stay the same on every backend).
public struct Migration: Sendable {
    public let domain: String
    public let version: Int
    public let sql: String
    /// The step in a dialect whose text is not `sql` translated.
    public let dialects: [SQLDialect: String]
    /// CHECK constraints of SQLite tables written again in an equivalent form (SQLite only).
    public let sqliteChecks: [MembershipCheck]

    public init(domain: String, version: Int, sql: String, dialects: [SQLDialect: String] = [:]) {
        self.domain = domain
        self.version = version
        self.sql = sql
        self.dialects = dialects
        sqliteChecks = []
    }

    /// A step that writes each `CHECK (column IN ('a', 'b', 'c'))` of `checks` as `CHECK (column
    /// = 'a' OR column = 'b' OR column = 'c')` in SQLite's schema, and does nothing on PostgreSQL.
    ///
    /// Why: SQLite evaluates an `IN` list of three values or more by filling a temporary B-tree
    /// with the list, and a CHECK does so for every row it checks (`OpenEphemeral` in the insert's
    /// program, cleared and filled again each row; twice for an upsert). That was about 30 % of
    /// the instructions of the import's database thread for tasks (docs/BENCHMARKS.md); a chain
    /// of `=` is three comparisons. PostgreSQL compares with `= ANY (ARRAY[…])`, already cheap.
    ///
    /// The table is not rebuilt: the schema's text is edited in place, SQLite's documented way for
    /// a change that leaves every stored byte as it is (ALTER TABLE, "making other kinds of table
    /// schema changes"): `writable_schema`, the new text, `schema_version` one higher so that every
    /// connection reads the schema again, in the migration's transaction.
    public init(domain: String, version: Int, sqliteChecks: [MembershipCheck]) {
        self.domain = domain
        self.version = version
        sql = ""
        dialects = [:]
        self.sqliteChecks = sqliteChecks
    }

    /// The step as a connection runs it (a dialect's own text is translated too: it may use
    /// SQLite's type names for its tables).
    func text(for connection: any StoreConnection) -> String {
        connection.schemaSQL(dialects[connection.dialect] ?? sql)
    }
}

public enum Schema {
    /// The store's own tables, migrated before any other step: `store_changes`, the count of
    /// writing transactions on a backend without SQLite's `data_version` (`Database.changeToken()`).
    static let store: [Migration] = [
        Migration(
            domain: "store", version: 1, sql: "",
            dialects: [
                .postgresql: """
                CREATE TABLE store_changes (version BIGINT NOT NULL);
                INSERT INTO store_changes (version) VALUES (0);
                """
            ])
    ]

    /// Applies every step not yet applied, in one transaction. A database already up to date is
    /// only read, so a report never waits for the write lock an import holds.
    public static func migrate(_ database: Database, _ migrations: [Migration]) throws {
        let migrations = store + migrations
        if try steps(database, migrations).isEmpty { return }
        try database.transaction {
            let connection = database.connection
            try database.execute(
                connection.schemaSQL(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (domain TEXT NOT NULL, version INTEGER NOT NULL, "
                        + "PRIMARY KEY (domain, version)) STRICT"
                ))
            for step in try steps(database, migrations) {
                let text = step.text(for: connection)
                if !text.isEmpty { try database.execute(text) }
                if !step.sqliteChecks.isEmpty, connection.dialect == .sqlite {
                    try MembershipCheck.rewrite(step.sqliteChecks, in: database)
                }
                try database.run(
                    "INSERT INTO schema_migrations (domain, version) VALUES (?, ?)",
                    [.text(step.domain), .integer(Int64(step.version))])
            }
            try connection.markApplication()
        }
    }

    /// The steps not applied yet (the store's own included), in order; throws for a file of
    /// another application or of a newer release.
    public static func pendingSteps(_ database: Database, _ migrations: [Migration]) throws -> [Migration] {
        try steps(database, store + migrations)
    }

    private static func steps(_ database: Database, _ migrations: [Migration]) throws -> [Migration] {
        try database.connection.checkApplication()
        var applied: [String: Int] = [:]
        if try database.tableExists("schema_migrations") {
            for row in try database.rows("SELECT domain, MAX(version) FROM schema_migrations GROUP BY domain") {
                if let domain = row[0].string, let version = row[1].int { applied[domain] = Int(version) }
            }
        }
        let known = Dictionary(migrations.map { ($0.domain, $0.version) }, uniquingKeysWith: max)
        for (domain, version) in applied.sorted(by: { $0.key < $1.key }) where version > known[domain] ?? 0 {
            throw StoreError(
                "\(database.path) was made by a newer release of report (\(domain) schema version \(version)); "
                    + "upgrade report"
            )
        }
        return migrations.sorted { ($0.domain, $0.version) < ($1.domain, $1.version) }
            .filter { $0.version > applied[$0.domain] ?? 0 }
    }
}

/// A CHECK that a text column holds one of a list of values, as the schemas write it: `CHECK
/// (column IN ('a', 'b', …))` (`Migration.init(domain:version:sqliteChecks:)`).
public struct MembershipCheck: Sendable {
    public let table: String
    public let column: String
    public let values: [String]

    public init(table: String, column: String, values: [String]) {
        self.table = table
        self.column = column
        self.values = values
    }

    /// The constraint as the table was created with it.
    public var membership: String {
        "CHECK (\(column) IN (" + values.map(Self.literal).joined(separator: ", ") + "))"
    }

    /// The same constraint as a chain of equalities.
    public var equalities: String {
        "CHECK (" + values.map { "\(column) = \(Self.literal($0))" }.joined(separator: " OR ") + ")"
    }

    private static func literal(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Writes every check of `checks` as equalities in the schema's text of its table, inside the
    /// caller's transaction. A table whose text has neither form is an error: the file was not
    /// made by `report`, and its constraints are left as they are.
    static func rewrite(_ checks: [MembershipCheck], in database: Database) throws {
        let version = try database.scalarInt("PRAGMA schema_version") ?? 0
        try database.execute("PRAGMA writable_schema = ON")
        do {
            for check in checks {
                try database.run(
                    "UPDATE sqlite_schema SET sql = replace(sql, ?1, ?2) WHERE type = 'table' AND name = ?3",
                    [.text(check.membership), .text(check.equalities), .text(check.table)])
                let text = try database.rows(
                    "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1", [.text(check.table)]
                ).first?.first?.string
                guard let text, text.contains(check.equalities), !text.contains(check.membership) else {
                    throw StoreError(
                        "\(database.path): table \(check.table) has no constraint `\(check.membership)` to rewrite")
                }
            }
            // A PRAGMA's value cannot be a bound parameter; this one is SQLite's own integer, plus one.
            try database.execute("PRAGMA schema_version = \(version + 1)")
        } catch {
            try? database.execute("PRAGMA writable_schema = OFF")
            throw error
        }
        try database.execute("PRAGMA writable_schema = OFF")
    }
}
