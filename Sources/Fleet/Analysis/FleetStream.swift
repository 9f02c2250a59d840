import ReportCore

/// One check-out or check-in as attached to its assignment: the latest record of its kind made
/// no later than as-of, by (recorded_at, import order, id).
struct AttachedRecord: Sendable {
    let id: String
    /// Microseconds since the epoch.
    let recordedAt: Int64
    let mileage: Double?
    let oilLevel: Int
    let interiorCleanliness: Int
    let exteriorCleanliness: Int
    let signaturePresent: Bool
    let signatureOutOfBox: Bool
}

/// An assignment of the event with its attached records, as the main query returns it.
struct AssignmentRow: Sendable {
    let id: String
    let plate: String
    let brand: String
    let model: String?
    let groupId: String?
    let driverId: String?
    let plannedOut: Int64
    let plannedIn: Int64
    let cancelled: Bool
    let importSequence: Int64
    let checkOut: AttachedRecord?
    let checkIn: AttachedRecord?
}

/// The impact types of the car diagram, in the order reports list them.
enum ImpactType: Int, Sendable, CaseIterable {
    case sinking, impact, scratch, deepscratch

    init?(name: String) {
        switch name {
        case "sinking": self = .sinking
        case "impact": self = .impact
        case "scratch": self = .scratch
        case "deepscratch": self = .deepscratch
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .sinking: return "sinking"
        case .impact: return "impact"
        case .scratch: return "scratch"
        case .deepscratch: return "deepscratch"
        }
    }
}

/// A damage mark; its index in the record's list is its place in the array that holds it.
struct Impact: Sendable, Equatable {
    let type: ImpactType
    let x: Double
    let y: Double
}

/// The two queries of the analysis, each read once in the same order: every assignment of the
/// event joined to its attached records, and every impact of those records.
///
/// Both are ordered by (plate, check-out time — none last, planned_time_out, id), so that one
/// pass meets each vehicle's loans together and in check-out order (which the interval union and
/// the between-loans comparison need), and the impacts of each loan arrive just when its row does:
/// no query per loan, and no more than one vehicle's loans in memory at a time.
enum FleetQueries {
    /// `?1` event id, `?2` as-of in microseconds. Records after as-of did not exist yet at as-of.
    static let attached = """
        attached AS (
            SELECT a.id, a.plate, a.brand_name, a.model_name, a.group_id, a.driver_id,
                   a.planned_time_out_us, a.planned_time_in_us, a.cancelled, a.import_seq,
                   CASE WHEN a.cancelled = 0 THEN (
                       SELECT r.id FROM loan_records r
                       WHERE r.assignment_id = a.id AND r.kind = 'check_out' AND r.recorded_at_us <= ?2
                       ORDER BY r.recorded_at_us DESC, r.import_seq DESC, r.id DESC LIMIT 1) END AS out_id,
                   CASE WHEN a.cancelled = 0 THEN (
                       SELECT r.id FROM loan_records r
                       WHERE r.assignment_id = a.id AND r.kind = 'check_in' AND r.recorded_at_us <= ?2
                       ORDER BY r.recorded_at_us DESC, r.import_seq DESC, r.id DESC LIMIT 1) END AS in_id
            FROM assignments a
            WHERE a.event_id = ?1
        )
        """

    static let recordColumns = "recorded_at_us, mileage_km, oil_level, interior_cleanliness, exterior_cleanliness, signature_present, signature_out_of_box"

    static let assignments = """
        WITH \(attached)
        SELECT t.id, t.plate, t.brand_name, t.model_name, t.group_id, t.driver_id,
               t.planned_time_out_us, t.planned_time_in_us, t.cancelled, t.import_seq,
               t.out_id, \(recordColumns.split(separator: ",").map { "co." + $0.trimmed }.joined(separator: ", ")),
               t.in_id, \(recordColumns.split(separator: ",").map { "ci." + $0.trimmed }.joined(separator: ", "))
        FROM attached t
        LEFT JOIN loan_records co ON co.id = t.out_id
        LEFT JOIN loan_records ci ON ci.id = t.in_id
        ORDER BY t.plate, co.recorded_at_us IS NULL, co.recorded_at_us, t.planned_time_out_us, t.id
        """

    /// Impacts of loans only (non-cancelled, checked out): side 0 = check-out, 1 = check-in.
    static let impacts = """
        WITH \(attached),
        loans AS (
            SELECT t.id, t.plate, t.planned_time_out_us, t.out_id, t.in_id, co.recorded_at_us AS out_us
            FROM attached t JOIN loan_records co ON co.id = t.out_id
        ),
        sides AS (
            SELECT id, plate, planned_time_out_us, out_us, 0 AS side, out_id AS record_id FROM loans
            UNION ALL
            SELECT id, plate, planned_time_out_us, out_us, 1 AS side, in_id AS record_id FROM loans WHERE in_id IS NOT NULL
        )
        SELECT s.id, s.side, li.type, li.x, li.y
        FROM sides s JOIN loan_impacts li ON li.record_id = s.record_id
        ORDER BY s.plate, s.out_us, s.planned_time_out_us, s.id, s.side, li.position
        """
}

/// Reads the assignments query row by row.
final class AssignmentStream {
    private let statement: Statement

    init(database: Database, eventId: String, asOf: Timestamp) throws {
        statement = try database.prepare(FleetQueries.assignments)
        try statement.bind([.text(eventId), .integer(asOf.microseconds)])
    }

    func next() throws -> AssignmentRow? {
        guard try statement.step() else { return nil }
        return AssignmentRow(
            id: statement.string(0), plate: statement.string(1), brand: statement.string(2),
            model: statement.stringOrNil(3), groupId: statement.stringOrNil(4), driverId: statement.stringOrNil(5),
            plannedOut: statement.int64(6), plannedIn: statement.int64(7), cancelled: statement.int64(8) != 0,
            importSequence: statement.int64(9), checkOut: record(at: 10), checkIn: record(at: 18))
    }

    private func record(at column: Int) -> AttachedRecord? {
        guard let id = statement.stringOrNil(column) else { return nil }
        return AttachedRecord(
            id: id, recordedAt: statement.int64(column + 1), mileage: statement.doubleOrNil(column + 2),
            oilLevel: Int(statement.int64(column + 3)), interiorCleanliness: Int(statement.int64(column + 4)),
            exteriorCleanliness: Int(statement.int64(column + 5)),
            signaturePresent: statement.int64(column + 6) != 0, signatureOutOfBox: statement.int64(column + 7) != 0)
    }
}

/// Reads the impacts query alongside the assignments, handing each loan its impacts.
final class ImpactStream {
    private let statement: Statement
    /// The row read but not yet handed out: it belongs to a later loan.
    private var pending: (assignmentId: String, side: Int64, impact: Impact?)?
    private var exhausted = false

    init(database: Database, eventId: String, asOf: Timestamp) throws {
        statement = try database.prepare(FleetQueries.impacts)
        try statement.bind([.text(eventId), .integer(asOf.microseconds)])
    }

    /// The check-out and check-in impacts of the loan `assignmentId`, which must be the next loan
    /// in the shared order (both queries sort alike, so a loan's rows are next or absent).
    func impacts(of assignmentId: String) throws -> (checkOut: [Impact], checkIn: [Impact]) {
        var checkOut: [Impact] = []
        var checkIn: [Impact] = []
        while let row = try peek(), row.assignmentId == assignmentId {
            if let impact = row.impact {
                if row.side == 0 { checkOut.append(impact) } else { checkIn.append(impact) }
            }
            pending = nil
        }
        return (checkOut, checkIn)
    }

    private func peek() throws -> (assignmentId: String, side: Int64, impact: Impact?)? {
        if let pending { return pending }
        guard !exhausted else { return nil }
        guard try statement.step() else {
            exhausted = true
            return nil
        }
        // The schema's CHECK admits the four types only; an unknown one is skipped, not fatal.
        let impact = ImpactType(name: statement.string(2)).map { Impact(type: $0, x: statement.double(3), y: statement.double(4)) }
        pending = (statement.string(0), statement.int64(1), impact)
        return pending
    }
}

extension Substring {
    fileprivate var trimmed: String { String(drop { $0 == " " }) }
}
