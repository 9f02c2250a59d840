import Store

/// The import's bookkeeping, which Import alone writes and reads: `import_log` (one row per file
/// imported: its SHA-256, counts, layout) and `import_rejects` (every rejected record: where, which
/// field, which value, which rule). Others see them as values (`ImportLog.summary`,
/// `ImportLog.rejections`), never as tables.
public enum ImportLog {
    /// The steps of `import_log` and `import_rejects`. Their migration domain is still called
    /// `core`, as the databases of earlier releases record it.
    public static let migrations: [Migration] = [
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

    /// Import's own steps, then those of the modules: everything `report` keeps in a database.
    public static func migrations(for modules: [ImportModule]) -> [Migration] {
        migrations + modules.flatMap(\.migrations)
    }

    /// What `status` shows of the imports: files imported, rejected records kept, the last files.
    public struct Summary: Sendable, Equatable {
        public var filesImported = 0
        public var rejectedRecords = 0
        /// The latest files, newest first.
        public var lastImports: [Entry] = []
    }

    /// One imported file as the log keeps it.
    public struct Entry: Sendable, Equatable {
        public let file: String
        public let kind: String
        public let records: Int
        public let accepted: Int
        public let rejected: Int
        /// When the file's transaction committed (UTC, ISO 8601).
        public let finishedAt: String
    }

    /// The counts and the `latest` last files; nil when nothing was ever imported into the database.
    public static func summary(_ database: Database, latest: Int = 10) throws -> Summary? {
        guard try database.tableExists("import_log") else { return nil }
        var summary = Summary()
        summary.filesImported = Int(try database.scalarInt("SELECT COUNT(*) FROM import_log") ?? 0)
        summary.rejectedRecords = Int(try database.scalarInt("SELECT COUNT(*) FROM import_rejects") ?? 0)
        for row in try database.rows(
            "SELECT file, kind, records, accepted, rejected, finished_at FROM import_log ORDER BY id DESC LIMIT ?",
            [.integer(Int64(latest))])
        {
            summary.lastImports.append(
                Entry(
                    file: row[0].string ?? "", kind: row[1].string ?? "", records: Int(row[2].int ?? 0),
                    accepted: Int(row[3].int ?? 0), rejected: Int(row[4].int ?? 0),
                    finishedAt: row[5].string ?? ""))
        }
        return summary
    }

    /// A rejected record kept in `import_rejects`, with the file it came from.
    public struct StoredRejection: Sendable, Equatable {
        public let file: String
        public let kind: String
        public let rejection: Rejection

        /// `bookings.json record 17 (id 1042): field starts_at: invalid date "2016-13-42"`, the
        /// words the import printed when it rejected the record.
        public var message: String { rejection.message(file: file) }
    }

    /// Every rejection kept for files of `kinds`, in import order (file by file, then by position).
    public static func rejections(_ database: Database, of kinds: [ExportKind]) throws -> [StoredRejection] {
        guard !kinds.isEmpty, try database.tableExists("import_log") else { return [] }
        let statement = try database.prepare(
            """
            SELECT l.file, l.kind, j.position, j.line, j.record_id, j.field, j.value, j.rule
            FROM import_rejects j JOIN import_log l ON l.id = j.import_id
            WHERE l.kind IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))
            ORDER BY l.id, j.position
            """)
        try statement.bind(kinds.map { SQLValue.text($0.name) })
        var rejections: [StoredRejection] = []
        while try statement.step() {
            let rejection = Rejection(
                position: Int(statement.int64(2)), line: statement.int64OrNil(3).map { Int($0) },
                recordId: statement.stringOrNil(4), field: statement.string(5), value: statement.string(6),
                rule: statement.string(7))
            rejections.append(
                StoredRejection(file: statement.string(0), kind: statement.string(1), rejection: rejection))
        }
        return rejections
    }
}
