import Foundation
import JSON
import Store
import Time

/// Imports export files into the database: one transaction per file, every record validated and
/// upserted by its kind's importer, rejections kept, each import logged (`ImportLog`).
///
/// Not Sendable: it owns the connection's prepared statements for the duration of a run.
public final class Importer: FileReading {
    let database: Database

    override var textRefusesNUL: Bool { database.kind == .postgresql }

    /// Brings the schema of Import and of every module up to date (`ImportLog.migrations(for:)`),
    /// then, on a distributed database, lays the tables out as `layout` says (`Database.layOut`).
    public init(
        database: Database, modules: [ImportModule], options: Options, layout: [TableDistribution] = []
    ) throws {
        self.database = database
        super.init(modules: modules, options: options)
        try Schema.migrate(database, ImportLog.migrations(for: modules))
        try database.layOut(layout)
    }

    /// Imports each file in order; a file that fails does not stop the others.
    public func importFiles(_ entries: [ImportFiles.Entry]) -> [FileOutcome] {
        entries.map(importFile)
    }

    public func importFile(_ entry: ImportFiles.Entry) -> FileOutcome {
        let kind: ExportKind, module: ImportModule
        switch kindOf(entry) {
        case .failure(let failure): return failure.outcome
        case .success(let found): (kind, module) = found
        }
        let digest: BackgroundDigest
        do { digest = try BackgroundDigest(path: entry.path, hashing: true) } catch {
            return FileOutcome(file: entry.displayName, kind: kind, status: .failed(reason: "\(error)"))
        }
        defer { digest.finish() }  // a file that ends early (failed, skipped) needs no more hashing
        if digest.size == 0 && options.refuseEmptyFiles {
            return FileOutcome(
                file: entry.displayName, kind: kind,
                status: .failed(
                    reason:
                        "the file is empty (0 bytes), as a crashed or interrupted export leaves it; export it again; "
                        + "nothing of this file was stored"
                ))
        }
        // A small file is looked up before its import; a big one while it is imported (the digest
        // is then ready long before the end: the import of a file already imported stops there).
        if !options.force && digest.size < options.bulkIndexBytes {
            do {
                if let skipped = try alreadyImported(entry, kind: kind, digest: try digest.wait().get()) {
                    return skipped
                }
            } catch {
                return FileOutcome(file: entry.displayName, kind: kind, status: .failed(reason: describe(error)))
            }
        }
        return withLayout(entry, kind: kind, describe: describe) { layout in
            do {
                return try importOnce(entry, kind: kind, module: module, digest: digest, layout: layout)
            } catch let skipped as AlreadyImported {
                return skipped.outcome
            }
        }
    }

    /// The outcome of a file whose content (SHA-256) an earlier import stored, or nil.
    private func alreadyImported(_ entry: ImportFiles.Entry, kind: ExportKind, digest: String) throws -> FileOutcome? {
        guard
            let previous = try database.rows(
                "SELECT file, finished_at FROM import_log WHERE sha256 = ? ORDER BY id DESC LIMIT 1", [.text(digest)]
            ).first
        else { return nil }
        return FileOutcome(
            file: entry.displayName, kind: kind,
            status: .skipped(
                reason:
                    "same content (SHA-256) as \(previous[0].string ?? "?") imported "
                    + "\(previous[1].string ?? "?"); use --force to import it again"
            ))
    }

    /// Ends a big file's import, rolled back, once its digest shows it was imported before.
    struct AlreadyImported: Error {
        let outcome: FileOutcome
    }

    /// Where an import's records go: upserted by the kind's importer, rejections kept in
    /// `import_rejects`; a big file's digest looked up as soon as it is ready.
    private final class StoreSink: RecordSink {
        let importer: ErasedKindImporter
        let importId: Int64
        let insertReject: Statement
        /// Whether the digest was looked up already (or need not be: `--force`, a small file).
        var looked: Bool
        let lookUp: (Result<String, FileDigest.Failure>) throws -> Void
        let digest: BackgroundDigest

        init(
            importer: ErasedKindImporter, importId: Int64, insertReject: Statement, looked: Bool,
            digest: BackgroundDigest, lookUp: @escaping (Result<String, FileDigest.Failure>) throws -> Void
        ) {
            self.importer = importer
            self.importId = importId
            self.insertReject = insertReject
            self.looked = looked
            self.digest = digest
            self.lookUp = lookUp
        }

        func accept(_ record: ValidatedRecord, index: Int) throws {
            try importer.store(record, Int64(index) | importId << 32)
        }

        func reject(_ rejection: Rejection) throws {
            try insertReject.bind([
                .integer(importId), .integer(Int64(rejection.position)),
                rejection.line.map { .integer(Int64($0)) } ?? .null,
                rejection.recordId.map(SQLValue.text) ?? .null,
                .text(rejection.field), .text(rejection.value), .text(rejection.rule),
            ])
            try insertReject.run()
        }

        func afterRecord(count: Int) throws {
            if !looked, count & 1023 == 0, let result = digest.ready { try finishLookUp(result) }
        }

        func finishLookUp(_ result: Result<String, FileDigest.Failure>) throws {
            looked = true
            try lookUp(result)
        }
    }

    private func importOnce(
        _ entry: ImportFiles.Entry, kind: ExportKind, module: ImportModule,
        digest: BackgroundDigest, layout: RecordLayout
    ) throws -> FileOutcome {
        let importer = try module.makeImporter(kind, database)
        var outcome = FileOutcome(file: entry.displayName, kind: kind, status: .imported)
        let started = Importer.now()
        try database.transaction {
            // The log's row goes in last, once, with its final values: its id is taken now, for
            // the rejected records and the records' sequence. Inserted at the start and updated at
            // the end, its page would be changed at both ends of a big file's load and, spilled to
            // SQLite's WAL in between, written there twice (`Database.beginBulkLoad`).
            let importId = try database.reserveId(in: "import_log")
            let bulk = digest.size >= options.bulkIndexBytes
            let load = bulk ? try database.beginBulkLoad(of: kind.bulkTables) : nil
            let sink = StoreSink(
                importer: importer, importId: importId,
                insertReject: try database.prepare(
                    "INSERT INTO import_rejects (import_id, position, line, record_id, field, value, rule) VALUES "
                        + "(?, ?, ?, ?, ?, ?, ?)"),
                looked: options.force || !bulk, digest: digest
            ) { [self] result in
                if let skipped = try alreadyImported(entry, kind: kind, digest: try result.get()) {
                    throw AlreadyImported(outcome: skipped)
                }
            }
            try readRecords(
                entry, kind: kind, layout: layout, validatesOnReader: true, into: sink, outcome: &outcome)
            let sha256 = try digest.wait().get()
            if !sink.looked { try sink.finishLookUp(.success(sha256)) }
            // The rows a writer still buffers (a server's COPY staging) go in before the indexes
            // are built again, so that each index is built once, in bulk.
            try load?.buildIndexes()
            try database.run(
                "INSERT INTO import_log (id, file, kind, size, sha256, records, accepted, rejected, started_at, "
                    + "finished_at, forced, layout, records_member) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .integer(importId), .text(entry.displayName), .text(kind.name), .integer(digest.size),
                    .text(sha256), .integer(Int64(outcome.records)), .integer(Int64(outcome.accepted)),
                    .integer(Int64(outcome.rejected)), .text(started), .text(Importer.now()),
                    .integer(options.force ? 1 : 0), outcome.layout.map { .text($0.name) } ?? .text("empty"),
                    outcome.layout?.recordsMember.map(SQLValue.text) ?? .null,
                ])
        }
        // The file is stored: statistics for a report run right after (PostgreSQL). A failure
        // here (a lock not granted in time) leaves them to autovacuum and the file imported.
        try? database.refreshStatistics()
        return outcome
    }

    /// The reason a file failed, on one line: a database problem (locked, read-only, full disk)
    /// named with what to do, and the promise SPEC §1.4 makes about the file.
    func describe(_ error: any Error) -> String {
        guard let failure = error as? any StoreFailure else { return String(describing: error) }
        return failure.advice(database: database.path) + "; nothing of this file was stored"
    }

    /// Wall-clock time for the import log, in UTC.
    static func now() -> String {
        let micros = Int64(Date().timeIntervalSince1970 * 1_000_000)
        return Timestamp(microseconds: micros - micros % 1_000_000).description
    }
}
