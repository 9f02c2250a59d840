import Import
import Store

/// The data-quality issue names of the fleet report (SPEC §5), as `quality.csv` writes them.
enum FleetIssue: String, Sendable, CaseIterable {
    case overlappingLoans = "overlapping_loans"
    case checkInWithoutCheckOut = "check_in_without_check_out"
    case unknownGroup = "unknown_group"
    case unknownDriver = "unknown_driver"
    case negativeKm = "negative_km"
    case signatureMissing = "signature_missing"
    case signatureOutOfBox = "signature_out_of_box"
    case loanRecordOfUnknownAssignment = "loan_record_of_unknown_assignment"
    case importReject = "import_reject"
    case figureOutOfRange = "figure_out_of_range"
}

/// One row of `quality.csv`, with what it is sorted by.
struct QualityIssue: Sendable {
    let issue: FleetIssue
    /// The assignment (or pair, loan record, rejected record) the issue is about.
    let record: String
    let detail: String
    /// The id the row sorts by within its issue (natural id order), then `sequence`.
    let sortId: String
    /// The order found in: stream order for loans, import order for rejects.
    let sequence: Int

    /// Rows by issue name, then by id, then as found: stable for the same data.
    static func sorted(_ issues: [QualityIssue]) -> [QualityIssue] {
        issues.sorted { left, right in
            if left.issue != right.issue { return left.issue.rawValue < right.issue.rawValue }
            if left.sortId != right.sortId { return IdentifierOrder.precedes(left.sortId, right.sortId) }
            return left.sequence < right.sequence
        }
    }
}

/// The issues found by looking at the database as a whole rather than at the event's loans.
enum FleetStoreQuality {
    /// Loan records whose assignment no file has brought (yet): the agents recorded a car that
    /// the back office does not know. They belong to no event, so every fleet report lists them.
    /// They are the unknown bucket (`event_id` empty), which the importers keep so: one shard.
    static func recordsOfUnknownAssignments(_ database: Database, firstSequence: Int) throws -> [QualityIssue] {
        let statement = try database.prepare(
            "SELECT r.id, r.assignment_id, r.kind FROM loan_records r WHERE r.event_id = ? ORDER BY r.id")
        try statement.bind([.text(AssignmentEvents.unknown)])
        var records: [UnknownAssignmentRecord] = []
        while try statement.step() {
            records.append(
                UnknownAssignmentRecord(
                    id: statement.string(0), assignmentId: statement.string(1), kind: statement.string(2)))
        }
        return issues(recordsOfUnknownAssignments: records, firstSequence: firstSequence)
    }

    /// The issues of loan records whose assignment no file has brought, in the order given.
    static func issues(
        recordsOfUnknownAssignments records: [UnknownAssignmentRecord], firstSequence: Int
    )
        -> [QualityIssue]
    {
        records.enumerated().map { offset, record in
            QualityIssue(
                issue: .loanRecordOfUnknownAssignment, record: record.id,
                detail: "\(record.kind) of assignment \"\(record.assignmentId)\", which no assignments file holds",
                sortId: record.id, sequence: firstSequence + offset)
        }
    }

    /// Every rejection of a fleet file, in import order, in the import command's words.
    static func importRejects(_ database: Database, firstSequence: Int) throws -> [QualityIssue] {
        try ImportLog.rejections(database, of: FleetModule.module.kinds).enumerated().map { offset, stored in
            let rejection = stored.rejection
            let detail = FieldError(field: rejection.field, value: rejection.value, rule: rejection.rule).description
            return QualityIssue(
                issue: .importReject, record: stored.file + " " + rejection.location, detail: detail, sortId: "",
                sequence: firstSequence + offset)
        }
    }
}

/// The order of ids in every table: ids made of digits only come first, by numeric value (`9`
/// before `10`, as a person reads them), then every other id by its bytes. This is a total order,
/// so sorting with it is stable across runs.
enum IdentifierOrder {
    static func precedes(_ left: String, _ right: String) -> Bool {
        let leftDigits = isDigits(left), rightDigits = isDigits(right)
        if leftDigits != rightDigits { return leftDigits }
        if leftDigits {
            let leftValue = left.utf8.drop { $0 == UInt8(ascii: "0") }
            let rightValue = right.utf8.drop { $0 == UInt8(ascii: "0") }
            if leftValue.count != rightValue.count { return leftValue.count < rightValue.count }
            if !leftValue.elementsEqual(rightValue) { return leftValue.lexicographicallyPrecedes(rightValue) }
        }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
