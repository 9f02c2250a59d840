import Foundation
import JSON

extension Importer {
    /// `report check` of one file: the import's reader and per-kind validation, with no
    /// transaction and no write at all, so memory stays that of the reader (a rolled-back
    /// transaction held every page the import would have written) and nothing waits on SQLite.
    ///
    /// What an import would add is the store side: upserts by key (a later record replacing an
    /// earlier one is not an error), and the tables' CHECK constraints, which the validation
    /// already enforces field by field. Counts, messages and `--strict` are those of the import.
    func checkOnce(
        _ entry: ImportFiles.Entry, kind: ExportKind, module: ImportModule,
        jsonLines: Bool
    ) throws -> FileOutcome {
        let compressed = entry.fileName.lowercased().hasSuffix(".gz")
        let file = try FileByteSource(path: entry.path)
        let source: ByteSource = compressed ? try GzipByteSource(file, name: entry.displayName) : file
        let validate = try module.makeImporter(kind, database).validate
        // Nothing is stored, so this thread validates while the reader thread reads the next batch.
        let reader = RecordPipeline(
            reader: JSONRecordReader(source: source, jsonLines: jsonLines), validate: validate,
            validatesOnReader: false)
        defer { reader.close() }
        var outcome = FileOutcome(file: entry.displayName, kind: kind, status: .checked)
        var lastProgress = DispatchTime.now().uptimeNanoseconds
        do {
            while let record = try reader.next() {
                outcome.records += 1
                reportProgress(
                    entry, records: outcome.records,
                    bytes: compressed ? nil : file.size.map { (reader.bytesConsumed, $0) }, last: &lastProgress)
                guard case .failure(let rejection) = record.result else {
                    outcome.accepted += 1
                    continue
                }
                outcome.rejected += 1
                if options.strict {
                    outcome.status = .failed(reason: rejection.detail + "; --strict: nothing of this file was stored")
                    throw FileFailure(outcome: outcome, strict: true)
                }
                if outcome.rejectMessages.count < options.messagesPerFile {
                    outcome.rejectMessages.append(rejection.message(file: entry.displayName))
                }
            }
            outcome.layout = reader.layout
            if let emptiness = reader.emptiness {
                outcome.layout = nil
                outcome.warnings.append(
                    emptiness.rawValue + ": no records; a crashed or interrupted export leaves such files")
            }
        } catch let syntax as JSONSyntaxError {
            outcome.status = .failed(reason: "malformed JSON: \(syntax); nothing of this file was stored")
            throw FileFailure(outcome: outcome)
        }
        return outcome
    }
}
