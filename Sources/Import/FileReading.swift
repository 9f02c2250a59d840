import Foundation
import JSON

/// Where the records of one file go as they are read: the import's transaction (upserted, the
/// rejections kept) or nowhere (`report check`). The loop that feeds it is the same for both
/// (`FileReading.readRecords`), so counts, messages, `--strict` and layouts cannot drift apart.
protocol RecordSink {
    /// A valid record, with its index in the file (from 1).
    func accept(_ record: ValidatedRecord, index: Int) throws
    /// A rejected record (already counted, its message kept when there is room).
    func reject(_ rejection: Rejection) throws
    /// After each record, with the number read so far (an import looks at its digest there).
    func afterRecord(count: Int) throws
}

/// How a file's records are laid out, decided in two explicit steps (docs/DECISIONS.md,
/// "Layout"): from its name (`.jsonl`, `.ndjson`: JSON Lines; anything else: one document, an
/// array or a wrapper object), then, only when a document's first value turns out to be an object
/// that is not a wrapper, from its first lines read again (`reconsidered`): objects one per line
/// are JSON Lines, anything else fails whole.
enum RecordLayout: Equatable {
    case document, jsonLines

    init(fileName: String) { self = ImportFiles.isJSONLines(fileName) ? .jsonLines : .document }

    /// The second step: JSON Lines when the file's first lines are objects one per line, nil when
    /// they are not (the document's own error stands then) or the file cannot be read again.
    static func reconsidered(_ entry: ImportFiles.Entry) -> RecordLayout? {
        guard let file = try? FileByteSource(path: entry.path) else { return nil }
        if entry.isCompressed {
            guard let gzip = try? GzipByteSource(file, name: entry.displayName) else { return nil }
            return JSONRecordReader.startsWithObjectLines(source: gzip) ? .jsonLines : nil
        }
        return JSONRecordReader.startsWithObjectLines(source: file) ? .jsonLines : nil
    }
}

/// What the import and the check share: the options, the kinds of the registered modules, the
/// progress callback, and the steps of reading one file (its kind, its layout, the loop over its
/// records). `Importer` adds the store; `ImportCheck` adds nothing, and opens no database.
public class FileReading {
    public struct Options: Sendable {
        public var strict = false
        public var force = false
        /// Overrides the kind told from file names.
        public var kind: ExportKind?
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

    /// How far the reading of one file is.
    public struct Progress: Sendable {
        public let file: String
        public let records: Int
        /// Bytes of the file read so far and its size; nil for a compressed file, whose
        /// decompressed size is not known in advance.
        public let bytes: (read: Int, total: Int64)?
    }

    /// Whether the records' text goes where a NUL cannot be stored (PostgreSQL, `NULText`): such
    /// a record is then rejected. A check says so for the database it checks for.
    var textRefusesNUL: Bool { false }

    let modules: [DomainName: ImportModule]
    /// The kinds of the modules: how each file's kind is told from its name.
    public let kinds: KindRegistry
    let options: Options
    /// Called as a file is read, at most a few times a second.
    public var progress: ((Progress) -> Void)?

    init(modules: [ImportModule], options: Options) {
        kinds = KindRegistry(modules)
        self.modules = Dictionary(modules.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
        self.options = options
    }

    /// The file's kind (from `--kind` or its name) and the module that owns it, or the outcome of
    /// a file that cannot be read as any.
    func kindOf(_ entry: ImportFiles.Entry) -> Result<(ExportKind, ImportModule), FileFailure> {
        guard let kind = options.kind ?? kinds.detect(fileName: entry.fileName) else {
            // `Events.json`: kind names are matched as written (SPEC §1), so say which one it resembles.
            if let resembled = kinds.detect(fileName: entry.fileName.lowercased()) {
                let renamed = resembled.name + entry.fileName.dropFirst(resembled.name.count)
                return .failure(
                    FileFailure(
                        outcome: FileOutcome(
                            file: entry.displayName, kind: nil,
                            status: .failed(
                                reason: "cannot tell the kind of file from its name: it resembles \(resembled.name), "
                                    + "but kind names are matched in lower case; rename it \(renamed) or use --kind "
                                    + "\(resembled.name)"))))
            }
            return .failure(
                FileFailure(
                    outcome: FileOutcome(
                        file: entry.displayName, kind: nil,
                        status: .failed(
                            reason: "cannot tell the kind of file from its name; names start with one of: "
                                + "\(kinds.knownNames); or use --kind NAME"))))
        }
        guard let module = modules[kind.domain] else {
            return .failure(
                FileFailure(
                    outcome: FileOutcome(
                        file: entry.displayName, kind: kind, status: .failed(reason: "no importer for \(kind.name)"))))
        }
        return .success((kind, module))
    }

    /// Runs `attempt` with the layout the file's name gives, then with the one its first lines
    /// give if the first turned out wrong (`RecordLayout`); turns what the reading threw into the
    /// file's outcome. `describe` words any other error (a database fault, for an import).
    func withLayout(
        _ entry: ImportFiles.Entry, kind: ExportKind, describe: (any Error) -> String,
        _ attempt: (RecordLayout) throws -> FileOutcome
    ) -> FileOutcome {
        var layout = RecordLayout(fileName: entry.fileName)
        func failed(_ reason: String) -> FileOutcome {
            FileOutcome(file: entry.displayName, kind: kind, status: .failed(reason: reason))
        }
        while true {
            do {
                return try attempt(layout)
            } catch let notAWrapper as NotAWrapper where layout == .document {
                // JSON Lines in a `.json` file, or one document that is not records.
                if let second = RecordLayout.reconsidered(entry) {
                    layout = second
                    continue
                }
                let prefix = notAWrapper.isFollowedByObject ? "malformed JSON: " : ""
                return failed(prefix + notAWrapper.description + "; nothing of this file was stored")
            } catch let layoutError as JSONLayoutError {
                return failed(layoutError.message + "; nothing of this file was stored")
            } catch let failure as FileFailure where failure.strict && layout == .document {
                // The first line looked like a wrapper and its "records" were rejected, but the
                // file may be JSON Lines: --strict judges its real records.
                guard let second = RecordLayout.reconsidered(entry) else { return failure.outcome }
                layout = second
            } catch let failure as FileFailure {
                return failure.outcome
            } catch let error as JSONReadError {
                // The outcome already names the file.
                return failed(error.message + "; nothing of this file was stored")
            } catch {
                return failed(describe(error))
            }
        }
    }

    /// The loop over one file's records, shared by the import and the check: counts them, hands
    /// each to `sink`, keeps the first rejection messages, stops at the first rejection under
    /// `--strict`, reports progress, and records the layout (or that the file was empty).
    /// `validatesOnReader`: validation on the reader thread (an import, whose own thread writes)
    /// or on this one (a check, which has nothing else to do).
    func readRecords(
        _ entry: ImportFiles.Entry, kind: ExportKind, layout: RecordLayout, validatesOnReader: Bool,
        into sink: any RecordSink, outcome: inout FileOutcome
    ) throws {
        guard let module = modules[kind.domain] else { return }
        let file = try FileByteSource(path: entry.path)
        // Decided once per file: the name's suffix costs a path split and a lowercased copy, which
        // per record was most of what a check spent (docs/BENCHMARKS.md, issue 28's A/B).
        let compressed = entry.isCompressed
        let source: ByteSource = compressed ? try GzipByteSource(file, name: entry.displayName) : file
        let reader = RecordPipeline(
            reader: JSONRecordReader(source: source, jsonLines: layout == .jsonLines),
            validate: try module.validator(for: kind), validatesOnReader: validatesOnReader,
            refusesNUL: textRefusesNUL)
        defer { reader.close() }
        var lastProgress = DispatchTime.now().uptimeNanoseconds
        do {
            // Each record is lent where it lies in the pipeline's batch, not copied out of it.
            while try reader.withNext({ record in
                outcome.records += 1
                if let validated = record.validated {
                    try sink.accept(validated, index: record.index)
                    outcome.accepted += 1
                } else if let rejection = record.rejection {
                    outcome.rejected += 1
                    if options.strict {
                        outcome.status = .failed(
                            reason: rejection.detail + "; --strict: nothing of this file was stored")
                        throw FileFailure(outcome: outcome, strict: true)
                    }
                    if outcome.rejectMessages.count < options.messagesPerFile {
                        outcome.rejectMessages.append(rejection.message(file: entry.displayName))
                    }
                    try sink.reject(rejection)
                }
                reportProgress(
                    entry, records: outcome.records,
                    bytes: compressed ? nil : file.size.map { (reader.bytesConsumed, $0) },
                    last: &lastProgress)
                try sink.afterRecord(count: outcome.records)
            }) {}
        } catch let syntax as JSONSyntaxError {
            outcome.status = .failed(reason: "malformed JSON: \(syntax); nothing of this file was stored")
            throw FileFailure(outcome: outcome)
        }
        outcome.layout = reader.layout
        if let emptiness = reader.emptiness {
            outcome.layout = nil
            outcome.warnings.append(
                emptiness.rawValue + ": no records; a crashed or interrupted export leaves such files")
        }
    }

    /// Calls `progress` at most four times a second, looking at the clock every 1,024 records.
    private func reportProgress(
        _ entry: ImportFiles.Entry, records: Int, bytes: @autoclosure () -> (read: Int, total: Int64)?,
        last: inout UInt64
    ) {
        guard let progress, records & 1023 == 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - last > 250_000_000 else { return }
        last = now
        progress(Progress(file: entry.displayName, records: records, bytes: bytes()))
    }
}

/// Ends a file's reading with nothing stored, carrying what to report.
struct FileFailure: Error {
    let outcome: FileOutcome
    /// A `--strict` rejection (which may have come from a first line read as a wrapper).
    var strict = false
}
