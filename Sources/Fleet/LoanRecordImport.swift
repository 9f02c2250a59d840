import Import
import Store

/// Imports `loan_records`: check-outs and check-ins exported on their own, each naming its
/// assignment and its kind. The assignment need not be known yet (files arrive in any order);
/// the report lists records of unknown assignments as data-quality issues. A record takes its
/// assignment's event, or the unknown bucket until the assignment arrives (`AssignmentEvents`).
public final class LoanRecordImporter: KindImporter {
    private let loanRecords: LoanRecordStore
    private let events: AssignmentEvents

    public init(database: Database) throws {
        loanRecords = try LoanRecordStore(database: database)
        events = try AssignmentEvents(database: database, holdsUnknownRecords: false)
    }

    /// A validated `loan_records` record: the record and where it belongs.
    public struct Fields: Sendable {
        let record: LoanRecord
        let assignmentId: String
        let kind: LoanRecord.Kind
    }

    public static func validate(_ reader: RecordReader) throws(FieldError) -> Fields {
        let loanRecord = try LoanRecord(reading: reader)
        let assignmentId = try reader.id("assignment_id")
        let kindName = try reader.enumeration("kind", LoanRecord.Kind.allCases.map(\.rawValue))
        guard let kind = LoanRecord.Kind(rawValue: kindName) else {
            throw reader.fail("kind", .string(kindName), "must be one of check_out, check_in")
        }
        return Fields(record: loanRecord, assignmentId: assignmentId, kind: kind)
    }

    public func store(_ fields: Fields, sequence: Int64) throws {
        let eventId = try events.event(of: fields.assignmentId) ?? AssignmentEvents.unknown
        try loanRecords.write(
            fields.record, assignmentId: fields.assignmentId, kind: fields.kind, eventId: eventId, sequence: sequence)
    }
}
