/// One step of a schema: the SQL that brings a domain's tables from `version - 1` to `version`.
///
/// Applied steps are recorded in `schema_migrations`, so a later release adds steps and migrates a
/// database file made by this one; a file with steps this release does not know is refused.
///
/// The SQL is SQLite's, which the PostgreSQL backend translates (types, STRICT); a step whose SQL
/// cannot be translated word for word (SQLite triggers are PostgreSQL trigger functions) gives
/// its PostgreSQL text as well.
public struct Migration: Sendable {
    public let domain: String
    public let version: Int
    public let sql: String
    /// The step on PostgreSQL when it is not `sql` translated.
    public let postgresql: String?

    public init(domain: String, version: Int, sql: String, postgresql: String? = nil) {
        self.domain = domain
        self.version = version
        self.sql = sql
        self.postgresql = postgresql
    }
}

public enum Schema {
    /// The import bookkeeping every domain shares.
    public static let core: [Migration] = [
        Migration(
            domain: "core", version: 1,
            sql: """
                CREATE TABLE import_log (
                    id INTEGER PRIMARY KEY,
                    file TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    records INTEGER NOT NULL,
                    accepted INTEGER NOT NULL,
                    rejected INTEGER NOT NULL,
                    started_at TEXT NOT NULL,
                    finished_at TEXT NOT NULL,
                    forced INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                CREATE INDEX import_log_sha256 ON import_log(sha256);
                CREATE TABLE import_rejects (
                    import_id INTEGER NOT NULL REFERENCES import_log(id),
                    position INTEGER NOT NULL,
                    line INTEGER,
                    record_id TEXT,
                    field TEXT NOT NULL,
                    value TEXT NOT NULL,
                    rule TEXT NOT NULL
                ) STRICT;
                CREATE INDEX import_rejects_import ON import_rejects(import_id);
                """),
        // How each file was laid out: `array`, `wrapper`, `json lines` or `empty`, and the wrapper's
        // member that held the records (issue 15). Rows of older imports keep NULL: not recorded then.
        Migration(
            domain: "core", version: 2,
            sql: """
                ALTER TABLE import_log ADD COLUMN layout TEXT;
                ALTER TABLE import_log ADD COLUMN records_member TEXT;
                """),
    ]

    /// Applies every step not yet applied, in one transaction. A database already up to date is
    /// only read, so a report never waits for the write lock an import holds.
    public static func migrate(_ database: Database, _ migrations: [Migration]) throws {
        if try pendingSteps(database, migrations).isEmpty { return }
        try database.transaction {
            let connection = database.connection
            try database.execute(
                connection.schemaSQL(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (domain TEXT NOT NULL, version INTEGER NOT NULL, "
                        + "PRIMARY KEY (domain, version)) STRICT"
                ))
            for step in try pendingSteps(database, migrations) {
                let text = database.kind == .postgresql ? (step.postgresql ?? step.sql) : step.sql
                try database.execute(connection.schemaSQL(text))
                try database.run(
                    "INSERT INTO schema_migrations (domain, version) VALUES (?, ?)",
                    [.text(step.domain), .integer(Int64(step.version))])
            }
            try connection.markApplication()
        }
    }

    /// The steps not applied yet, in order; throws for a file of another application or of a newer release.
    public static func pendingSteps(_ database: Database, _ migrations: [Migration]) throws -> [Migration] {
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
