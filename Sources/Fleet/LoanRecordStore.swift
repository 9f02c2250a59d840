import Store

/// Writes validated loan records into `loan_records` and `loan_impacts`.
///
/// Shared by the `assignments` importer (embedded records) and the `loan_records` importer, so a
/// record imported both ways is one row: the later import replaces it whole, its impacts included
/// (they are deleted and inserted again), and takes its assignment, kind and event from where it
/// sits. The rows are upserted by record id alone, whatever their event, so that a record moving
/// to another event (the key of a distributed table is `(id, event_id)`) is still stored once.
final class LoanRecordStore {
    private let upsertRecord: UpsertWriter
    private let impacts: ChildRows

    /// The table's columns in its order: `event_id`, added by fleet schema step 2, comes last.
    static let columns = [
        "id", "assignment_id", "kind", "recorded_at_us", "recorded_at_offset", "mileage_km",
        "oil_level", "interior_cleanliness", "exterior_cleanliness",
        "signature_present", "signature_out_of_box", "photo_count", "comment", "import_seq", "event_id",
    ]

    init(database: Database) throws {
        upsertRecord = try database.upsertWriter(table: "loan_records", columns: LoanRecordStore.columns)
        impacts = try ChildRows(
            database: database, table: "loan_impacts", parentColumn: "record_id",
            columns: ["type", "x", "y", "event_id"])
    }

    /// Stores a record of `assignmentId`, under its assignment's event (`AssignmentEvents.unknown`
    /// when no assignments file has brought it).
    func write(
        _ record: LoanRecord, assignmentId: String, kind: LoanRecord.Kind, eventId: String, sequence: Int64
    ) throws {
        try upsertRecord.write([
            .text(record.id), .text(assignmentId), .text(kind.rawValue),
            .integer(record.recordedAt.microseconds), .integer(Int64(record.recordedAt.offsetSeconds)),
            .optional(record.mileageKilometres),
            .integer(record.oilLevel), .integer(record.interiorCleanliness), .integer(record.exteriorCleanliness),
            .flag(record.signature.isPresent), .flag(record.signature.isOutOfBox),
            .integer(Int64(record.photoCount)), .optional(record.comment), .integer(sequence), .text(eventId),
        ])
        try impacts.replace(
            parent: record.id,
            rows: record.impacts.map { [.text($0.type), .real($0.x), .real($0.y), .text(eventId)] })
    }

    /// Writes a stored record again under `eventId`, as it was otherwise (its import order too):
    /// the upsert by id replaces its row wherever it was, the impacts go with it.
    func move(_ stored: AssignmentEvents.StoredRecord, to eventId: String) throws {
        guard case .text(let id) = stored.values[0] else { return }
        try upsertRecord.write(stored.values.dropLast() + [.text(eventId)])
        try impacts.replace(parent: id, rows: stored.impacts.map { $0 + [.text(eventId)] })
    }
}
