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

    public init(domain: String, version: Int, sql: String, dialects: [SQLDialect: String] = [:]) {
        self.domain = domain
        self.version = version
        self.sql = sql
        self.dialects = dialects
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
