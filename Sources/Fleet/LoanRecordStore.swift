import Store

/// Writes validated loan records into `loan_records` and `loan_impacts`.
///
/// Shared by the `assignments` importer (embedded records) and the `loan_records` importer, so a
/// record imported both ways is one row: the later import replaces it whole, its impacts included
/// (they are deleted and inserted again), and takes its assignment and kind from where it sits.
final class LoanRecordStore {
    private let upsertRecord: UpsertWriter
    private let impacts: ChildRows

    static let columns = [
        "id", "assignment_id", "kind", "recorded_at_us", "recorded_at_offset", "mileage_km",
        "oil_level", "interior_cleanliness", "exterior_cleanliness",
        "signature_present", "signature_out_of_box", "photo_count", "comment", "import_seq",
    ]

    init(database: Database) throws {
        upsertRecord = try database.upsertWriter(table: "loan_records", columns: LoanRecordStore.columns)
        impacts = try ChildRows(
            database: database, table: "loan_impacts", parentColumn: "record_id", columns: ["type", "x", "y"])
    }

    func write(_ record: LoanRecord, assignmentId: String, kind: LoanRecord.Kind, sequence: Int64) throws {
        try upsertRecord.write([
            .text(record.id), .text(assignmentId), .text(kind.rawValue),
            .integer(record.recordedAt.microseconds), .integer(Int64(record.recordedAt.offsetSeconds)),
            .optional(record.mileageKilometres),
            .integer(record.oilLevel), .integer(record.interiorCleanliness), .integer(record.exteriorCleanliness),
            .flag(record.signature.isPresent), .flag(record.signature.isOutOfBox),
            .integer(Int64(record.photoCount)), .optional(record.comment), .integer(sequence),
        ])
        try impacts.replace(
            parent: record.id, rows: record.impacts.map { [.text($0.type), .real($0.x), .real($0.y)] })
    }
}
