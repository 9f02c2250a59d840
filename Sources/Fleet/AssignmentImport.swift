import Import
import Store
import Time

/// Imports `assignments`: one car given to one driver for a planned time, with the check-out and
/// check-in records the agents made, when the export embeds them.
///
/// The assignment and its embedded records are validated together before anything is written: an
/// invalid embedded record makes the whole assignment invalid (SPEC §1.3). Embedded records go to
/// `loan_records` with this assignment's id and the kind of the field they sit in, and the same
/// import sequence as the assignment. Re-importing an assignment replaces its row and upserts the
/// records it embeds now; records of other ids that an earlier version embedded are kept, since a
/// loan record has a life of its own (it may also come from a `loan_records` file). Every record of
/// the assignment carries its event (`loan_records.event_id`): the ones that came first, from a
/// `loan_records` file, and those of an earlier version in another event move with it
/// (`AssignmentEvents`).
public final class AssignmentImporter: KindImporter {
    /// The validated record, built on the reader thread.
    public struct Fields: Sendable {
        let id: String
        let eventId: String
        let groupId: String?
        let driverId: String?
        let brandName: String
        let modelName: String?
        let licensePlateNumber: String
        let plate: String
        let plannedTimeOut: Timestamp
        let plannedTimeIn: Timestamp
        let cancelled: Bool
        let checkOutRecord: LoanRecord?
        let checkInRecord: LoanRecord?

        init(_ reader: RecordReader) throws(FieldError) {
            let id = try reader.id("id")
            let eventId = try reader.id("event_id")
            let groupId = try reader.optionalId("group_id")
            let driverId = try reader.optionalId("driver_id")
            let brandName = try reader.string("brand_name")
            let modelName = try reader.optionalString("model_name")
            let licensePlateNumber = try reader.string("license_plate_number")
            let plate = Plate.normalized(licensePlateNumber)
            if plate.isEmpty {
                throw reader.fail(
                    "license_plate_number", try reader.required("license_plate_number"),
                    "must hold a plate (empty without spaces and dashes)")
            }
            let plannedTimeOut = try reader.timestamp("planned_time_out")
            let plannedTimeIn = try reader.timestamp("planned_time_in")
            let cancelled = try reader.optionalBool("cancelled") ?? false
            let checkOutRecord = try reader.optionalObject("check_out_record").map { (nested) throws(FieldError) in
                try LoanRecord(reading: nested)
            }
            let checkInRecord = try reader.optionalObject("check_in_record").map { (nested) throws(FieldError) in
                try LoanRecord(reading: nested)
            }
            // One id cannot be both sides of a loan: stored as one row, one side would vanish.
            if let checkOutRecord, let checkInRecord, checkOutRecord.id == checkInRecord.id {
                throw reader.fail(
                    "check_in_record.id", .string(checkInRecord.id), "must differ from check_out_record.id")
            }
            self.id = id
            self.eventId = eventId
            self.groupId = groupId
            self.driverId = driverId
            self.brandName = brandName
            self.modelName = modelName
            self.licensePlateNumber = licensePlateNumber
            self.plate = plate
            self.plannedTimeOut = plannedTimeOut
            self.plannedTimeIn = plannedTimeIn
            self.cancelled = cancelled
            self.checkOutRecord = checkOutRecord
            self.checkInRecord = checkInRecord
        }
    }

    private let upsert: UpsertWriter
    private let loanRecords: LoanRecordStore
    private let events: AssignmentEvents

    public init(database: Database) throws {
        upsert = try database.upsertWriter(
            table: "assignments",
            columns: [
                "id", "event_id", "group_id", "driver_id", "brand_name", "model_name", "license_plate_number", "plate",
                "planned_time_out_us", "planned_time_out_offset", "planned_time_in_us", "planned_time_in_offset",
                "cancelled", "import_seq",
            ])
        loanRecords = try LoanRecordStore(database: database)
        events = try AssignmentEvents(database: database, holdsUnknownRecords: true)
    }

    public static func validate(_ reader: RecordReader) throws(FieldError) -> Fields {
        try Fields(reader)
    }

    /// Writes the assignment and its embedded records under its event, and moves to that event
    /// its other records: those that arrived before it (the unknown bucket) or that an earlier
    /// version of it in another event holds. The moved records are written before the embedded
    /// ones, which replace them when they share an id (the later import wins).
    public func store(_ assignment: Fields, sequence: Int64) throws {
        for stored in try events.assign(assignment.id, to: assignment.eventId) {
            try loanRecords.move(stored, to: assignment.eventId)
        }
        try upsert.write([
            .text(assignment.id), .text(assignment.eventId), .optional(assignment.groupId),
            .optional(assignment.driverId),
            .text(assignment.brandName), .optional(assignment.modelName),
            .text(assignment.licensePlateNumber), .text(assignment.plate),
            .integer(assignment.plannedTimeOut.microseconds), .integer(Int64(assignment.plannedTimeOut.offsetSeconds)),
            .integer(assignment.plannedTimeIn.microseconds), .integer(Int64(assignment.plannedTimeIn.offsetSeconds)),
            .flag(assignment.cancelled), .integer(sequence),
        ])
        if let checkOut = assignment.checkOutRecord {
            try loanRecords.write(
                checkOut, assignmentId: assignment.id, kind: .checkOut, eventId: assignment.eventId, sequence: sequence)
        }
        if let checkIn = assignment.checkInRecord {
            try loanRecords.write(
                checkIn, assignmentId: assignment.id, kind: .checkIn, eventId: assignment.eventId, sequence: sequence)
        }
    }
}
