import JSON

/// `report check`: every file read and validated as `report import` would, with no store at all:
/// no database opened, no transaction, no write, so memory stays that of the reader and nothing
/// waits on a database.
///
/// What an import would add is the store side: upserts by key (a later record replacing an
/// earlier one is not an error), and the tables' CHECK constraints, which the validation already
/// enforces field by field. Counts, messages, layouts and `--strict` are those of the import: the
/// same loop reads the records (`FileReading.readRecords`).
public final class ImportCheck: FileReading {
    private let refusesNUL: Bool
    override var textRefusesNUL: Bool { refusesNUL }

    /// `refusesNUL`: the import checked for writes to PostgreSQL, which rejects a text holding a
    /// NUL; false for an import into SQLite, which keeps it. Always said: `FileReading`'s
    /// `init(modules:options:)` is not one of this class's (a call to it traps), and a convenience
    /// one forwarding here drew the compiler's "infinite recursion" warning.
    public init(modules: [ImportModule], options: Options, refusesNUL: Bool) {
        self.refusesNUL = refusesNUL
        super.init(modules: modules, options: options)
    }

    /// Checks one file; never throws (a file that cannot be read is a failed outcome).
    public func checkFile(_ entry: ImportFiles.Entry) -> FileOutcome {
        let kind: ExportKind
        switch kindOf(entry) {
        case .failure(let failure): return failure.outcome
        case .success(let found): kind = found.0
        }
        return withLayout(entry, kind: kind, describe: { String(describing: $0) }) { layout in
            var outcome = FileOutcome(file: entry.displayName, kind: kind, status: .checked)
            // Nothing is stored, so this thread validates while the reader thread reads the next batch.
            try readRecords(
                entry, kind: kind, layout: layout, validatesOnReader: false, into: NoSink(), outcome: &outcome)
            return outcome
        }
    }

    /// A check keeps nothing.
    private struct NoSink: RecordSink {
        func accept(_ record: ValidatedRecord, index: Int) throws {}
        func reject(_ rejection: Rejection) throws {}
        func afterRecord(count: Int) throws {}
    }
}
