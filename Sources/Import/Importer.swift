import Foundation
import JSON
import Store
import Time

/// Imports export files into the database: one transaction per file, every record validated and
/// upserted by its kind's importer, rejections kept, each import logged.
///
/// Not Sendable: it owns the connection's prepared statements for the duration of a run.
public final class Importer {
    public struct Options: Sendable {
        public var strict = false
        public var force = false
        /// Overrides the kind told from file names.
        public var kind: ExportKind?
        /// Validate only: every file is read in a transaction that is rolled back.
        public var checkOnly = false
        /// How many rejection messages to keep per file for display.
        public var messagesPerFile = 20
        /// From this file size on, the kind's tables (`ExportKind.bulkTables`) are loaded without
        /// their secondary indexes, which are built again (sorted, in bulk) before the commit:
        /// several times faster than keeping a `(user_id, date)` index in order row by row. Small
        /// files keep them, which is cheaper then.
        public var bulkIndexBytes: Int64 = 16 << 20
        /// Fail a zero-byte file instead of importing it with a warning: `report nightly` sets it,
        /// because a crashed exporter leaves empty files and one should not be archived as done.
        public var refuseEmptyFiles = false
        public init() {}
    }

    let database: Database
    private let modules: [DomainName: ImportModule]
    /// The kinds of the modules: how each file's kind is told from its name.
    public let kinds: KindRegistry
    let options: Options
    /// Called as a file is read, at most a few times a second.
    public var progress: ((Progress) -> Void)?

    /// How far the import of one file is.
    public struct Progress: Sendable {
        public let file: String
        public let records: Int
        /// Bytes of the file read so far and its size; nil for a compressed file, whose
        /// decompressed size is not known in advance.
        public let bytes: (read: Int, total: Int64)?
    }

    public init(database: Database, modules: [ImportModule], options: Options) throws {
        self.database = database
        kinds = KindRegistry(modules)
        self.modules = Dictionary(modules.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
        self.options = options
        try Schema.migrate(database, ImportLog.migrations(for: modules))
    }

    /// Imports each file in order; a file that fails does not stop the others.
    public func importFiles(_ entries: [ImportFiles.Entry]) -> [FileOutcome] {
        entries.map(importFile)
    }

    public func importFile(_ entry: ImportFiles.Entry) -> FileOutcome {
        guard let kind = options.kind ?? kinds.detect(fileName: entry.fileName) else {
            return FileOutcome(
                file: entry.displayName, kind: nil,
                status: .failed(
                    reason:
                        "cannot tell the kind of file from its name; names start with one of: \(kinds.knownNames); "
                        + "or use --kind NAME"
                ))
        }
        guard let module = modules[kind.domain] else {
            return FileOutcome(
                file: entry.displayName, kind: kind, status: .failed(reason: "no importer for \(kind.name)"))
        }
        let digest: BackgroundDigest
        do { digest = try BackgroundDigest(path: entry.path, hashing: !options.checkOnly) } catch {
            return FileOutcome(file: entry.displayName, kind: kind, status: .failed(reason: "\(error)"))
        }
        defer { digest.cancel() }  // a file that ends early (failed, skipped) needs no more hashing
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
        if !options.force && !options.checkOnly && digest.size < options.bulkIndexBytes {
            do {
                if let skipped = try alreadyImported(entry, kind: kind, digest: try digest.wait().get()) {
                    return skipped
                }
            } catch {
                return FileOutcome(file: entry.displayName, kind: kind, status: .failed(reason: describe(error)))
            }
        }
        var jsonLines = ImportFiles.isJSONLines(entry.fileName)
        while true {
            do {
                if options.checkOnly { return try checkOnce(entry, kind: kind, module: module, jsonLines: jsonLines) }
                return try importOnce(entry, kind: kind, module: module, digest: digest, jsonLines: jsonLines)
            } catch let notAWrapper as NotAWrapper where !jsonLines {
                // JSON Lines in a `.json` file, or one document that is not records (docs/DECISIONS.md).
                if startsWithObjectLines(entry) {
                    jsonLines = true
                    continue
                }
                let prefix = notAWrapper.isFollowedByObject ? "malformed JSON: " : ""
                return FileOutcome(
                    file: entry.displayName, kind: kind,
                    status: .failed(
                        reason: prefix + notAWrapper.description + "; nothing of this file was stored"))
            } catch let layoutError as JSONLayoutError {
                return FileOutcome(
                    file: entry.displayName, kind: kind,
                    status: .failed(
                        reason: layoutError.message + "; nothing of this file was stored"))
            } catch let failure as FileFailure where failure.strict && !jsonLines && startsWithObjectLines(entry) {
                // The first line looked like a wrapper and its "records" were rejected, but the
                // file is JSON Lines: --strict judges its real records.
                jsonLines = true
            } catch let failure as FileFailure {
                return failure.outcome
            } catch let skipped as AlreadyImported {
                return skipped.outcome
            } catch let error as JSONReadError {
                // The outcome already names the file.
                return FileOutcome(
                    file: entry.displayName, kind: kind,
                    status: .failed(reason: error.message + "; nothing of this file was stored"))
            } catch {
                return FileOutcome(file: entry.displayName, kind: kind, status: .failed(reason: describe(error)))
            }
        }
    }

    /// Whether a file that is not named as JSON Lines holds JSON Lines, judged from its first lines
    /// read again; false when it cannot be read (the first reading's error stands then).
    private func startsWithObjectLines(_ entry: ImportFiles.Entry) -> Bool {
        guard let file = try? FileByteSource(path: entry.path) else { return false }
        if entry.fileName.lowercased().hasSuffix(".gz") {
            guard let gzip = try? GzipByteSource(file, name: entry.displayName) else { return false }
            return JSONRecordReader.startsWithObjectLines(source: gzip)
        }
        return JSONRecordReader.startsWithObjectLines(source: file)
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

    /// Ends a file's import with nothing stored, carrying what to report.
    struct FileFailure: Error {
        let outcome: FileOutcome
        /// A `--strict` rejection (which may have come from a first line read as a wrapper).
        var strict = false
    }

    private func importOnce(
        _ entry: ImportFiles.Entry, kind: ExportKind, module: ImportModule,
        digest: BackgroundDigest, jsonLines: Bool
    ) throws -> FileOutcome {
        let compressed = entry.fileName.lowercased().hasSuffix(".gz")
        let file = try FileByteSource(path: entry.path)
        let source: ByteSource = compressed ? try GzipByteSource(file, name: entry.displayName) : file
        let importer = try module.makeImporter(kind, database)
        let reader = RecordPipeline(
            reader: JSONRecordReader(source: source, jsonLines: jsonLines), validate: importer.validate)
        defer { reader.close() }
        var outcome = FileOutcome(file: entry.displayName, kind: kind, status: .imported)
        let started = Importer.now()
        do {
            try database.transaction {
                let importId = try database.insertReturningId(
                    "INSERT INTO import_log (file, kind, size, sha256, records, accepted, rejected, started_at, "
                        + "finished_at, forced) VALUES (?, ?, ?, ?, 0, 0, 0, ?, ?, ?)",
                    [
                        .text(entry.displayName), .text(kind.name), .integer(digest.size), .text(""),
                        .text(started), .text(started), .integer(options.force ? 1 : 0),
                    ])
                let bulk = digest.size >= options.bulkIndexBytes
                let deferred =
                    bulk ? try kind.bulkTables.flatMap(dropSecondaryIndexes) + liftCacheTriggers(module, kind) : []
                let insertReject = try database.prepare(
                    "INSERT INTO import_rejects (import_id, position, line, record_id, field, value, rule) VALUES "
                        + "(?, ?, ?, ?, ?, ?, ?)"
                )
                var lastProgress = DispatchTime.now().uptimeNanoseconds
                var looked = options.force || !bulk
                func lookUp(_ result: Result<String, FileDigest.Failure>) throws {
                    looked = true
                    if let skipped = try alreadyImported(entry, kind: kind, digest: try result.get()) {
                        throw AlreadyImported(outcome: skipped)
                    }
                }
                while let record = try reader.next() {
                    outcome.records += 1
                    let rejection: Rejection?
                    switch record.result {
                    case .failure(let rejected):
                        rejection = rejected
                    case .success(let validated):
                        try importer.store(validated, Int64(record.index) | importId << 32)
                        rejection = nil
                    }
                    if let rejection {
                        outcome.rejected += 1
                        if options.strict {
                            outcome.status = .failed(
                                reason: rejection.detail + "; --strict: nothing of this file was stored")
                            throw FileFailure(outcome: outcome, strict: true)
                        }
                        if outcome.rejectMessages.count < options.messagesPerFile {
                            outcome.rejectMessages.append(rejection.message(file: entry.displayName))
                        }
                        try insertReject.bind([
                            .integer(importId), .integer(Int64(rejection.position)),
                            rejection.line.map { .integer(Int64($0)) } ?? .null,
                            rejection.recordId.map(SQLValue.text) ?? .null,
                            .text(rejection.field), .text(rejection.value), .text(rejection.rule),
                        ])
                        try insertReject.run()
                    } else {
                        outcome.accepted += 1
                    }
                    reportProgress(
                        entry, records: outcome.records, bytes: compressed ? nil : (reader.bytesConsumed, digest.size),
                        last: &lastProgress)
                    if !looked, outcome.records & 1023 == 0, let result = digest.ready { try lookUp(result) }
                }
                let sha256 = try digest.wait().get()
                if !looked { try lookUp(.success(sha256)) }
                // The rows a writer still buffers (PostgreSQL's COPY staging) go in before the
                // indexes are built again, so that each index is built once, in bulk (and before
                // the lifted triggers are back, which had nothing to do for these rows).
                try database.flushWriters()
                for create in deferred { try database.execute(create) }
                outcome.layout = reader.layout
                if let emptiness = reader.emptiness {
                    outcome.layout = nil
                    outcome.warnings.append(
                        emptiness.rawValue + ": no records; a crashed or interrupted export leaves such files")
                }
                try database.run(
                    "UPDATE import_log SET records = ?, accepted = ?, rejected = ?, finished_at = ?, layout = ?, "
                        + "records_member = ?, sha256 = ? WHERE id = ?",
                    [
                        .integer(Int64(outcome.records)), .integer(Int64(outcome.accepted)),
                        .integer(Int64(outcome.rejected)), .text(Importer.now()),
                        outcome.layout.map { .text($0.name) } ?? .text("empty"),
                        outcome.layout?.recordsMember.map(SQLValue.text) ?? .null, .text(sha256), .integer(importId),
                    ])
            }
        } catch let syntax as JSONSyntaxError {
            outcome.status = .failed(reason: "malformed JSON: \(syntax); nothing of this file was stored")
            throw FileFailure(outcome: outcome)
        }
        return outcome
    }

    /// Calls `progress` at most four times a second, looking at the clock every 1,024 records.
    func reportProgress(
        _ entry: ImportFiles.Entry, records: Int, bytes: (read: Int, total: Int64)?, last: inout UInt64
    ) {
        guard let progress, records & 1023 == 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - last > 250_000_000 else { return }
        last = now
        progress(Progress(file: entry.displayName, records: records, bytes: bytes))
    }

    /// Drops the named secondary indexes of a table inside the file's transaction (a rollback
    /// restores them) and returns the SQL that creates them again.
    private func dropSecondaryIndexes(of table: String) throws -> [String] {
        var creates: [String] = []
        for (name, sql) in try database.secondaryIndexes(of: table) {
            try database.execute("DROP INDEX \(Self.quoted(name))")
            creates.append(sql)
        }
        return creates
    }

    /// Drops the triggers of the kind's tables inside the file's transaction when every cache
    /// they keep is empty (`ImportModule.caches`), and returns the SQL that creates them again.
    private func liftCacheTriggers(_ module: ImportModule, _ kind: ExportKind) throws -> [String] {
        if module.caches.isEmpty { return [] }
        for cache in module.caches {
            let probe = "SELECT COUNT(*) FROM (SELECT 1 FROM \(Self.quoted(cache)) LIMIT 1) AS probe"
            if try database.scalarInt(probe) != 0 { return [] }
        }
        var creates: [String] = []
        for table in kind.bulkTables {
            for (name, sql) in try database.bulkLiftableTriggers(of: table) {
                try database.execute("DROP TRIGGER \(Self.quoted(name))")
                creates.append(sql)
            }
        }
        return creates
    }

    /// A name from the schema as a quoted SQL identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
