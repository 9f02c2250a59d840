import Store
import Time

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

/// A damage mark; its index in the record's list is its place in the array that holds it.
struct Impact: Sendable, Equatable {
    let type: ImpactType
    let x: Double
    let y: Double
}

/// The queries of the analysis: every assignment of the event joined to its attached records,
/// put in one order once, then read in that order together with the impacts of its records.
///
/// The order is (plate, check-out time — none last, planned_time_out, id), so that one pass meets
/// each vehicle's loans together and in check-out order (which the interval union and the
/// between-loans comparison need). The rows go to a TEMP table whose INTEGER PRIMARY KEY is their
/// rank in that order: reading it back needs no sort, and the impacts of check-outs and of
/// check-ins are read in two queries that walk it by rank and `loan_impacts` by its primary key
/// (record, position), so that millions of impacts arrive in order without being sorted, and no
/// query runs per loan. Temp tables live beside the database, so a read-only connection works.
enum FleetQueries {
    /// Unqualified: a temporary table is found first on both backends (SQLite's `temp`, PostgreSQL's `pg_temp`).
    static let table = "fleet_analysis_rows"
    static let recordColumns = [
        "recorded_at_us", "mileage_km", "oil_level", "interior_cleanliness", "exterior_cleanliness",
        "signature_present", "signature_out_of_box",
    ]
    /// Their types, spelled so that both backends read them as 64-bit (SQLite: INTEGER and REAL affinity).
    static let recordTypes = ["BIGINT", "DOUBLE PRECISION", "BIGINT", "BIGINT", "BIGINT", "BIGINT", "BIGINT"]

    static func recordColumnDefinitions(prefix: String) -> String {
        zip(recordColumns, recordTypes).map { "\(prefix)\($0) \($1)" }.joined(separator: ", ")
    }

    static let drop = "DROP TABLE IF EXISTS \(table)"

    static let create = """
        CREATE TEMP TABLE fleet_analysis_rows (
            rank INTEGER PRIMARY KEY, id TEXT, plate TEXT, brand_name TEXT, model_name TEXT, group_id TEXT,
            driver_id TEXT, planned_time_out_us BIGINT, planned_time_in_us BIGINT, cancelled BIGINT, import_seq BIGINT,
            out_id TEXT, \(recordColumnDefinitions(prefix: "out_")),
            in_id TEXT, \(recordColumnDefinitions(prefix: "in_"))
        )
        """

    /// `?1` event id, `?2` as-of in microseconds. A record attached is the latest of its kind by
    /// (recorded_at, import order, id) made no later than as-of: later ones did not exist yet.
    static let fill = """
        INSERT INTO \(table)
        WITH attached AS MATERIALIZED (
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
        SELECT row_number() OVER (
                   ORDER BY t.plate, co.recorded_at_us IS NULL, co.recorded_at_us, t.planned_time_out_us, t.id),
               t.id, t.plate, t.brand_name, t.model_name, t.group_id, t.driver_id,
               t.planned_time_out_us, t.planned_time_in_us, t.cancelled, t.import_seq,
               t.out_id, \(recordColumns.map { "co." + $0 }.joined(separator: ", ")),
               t.in_id, \(recordColumns.map { "ci." + $0 }.joined(separator: ", "))
        FROM attached t
        LEFT JOIN loan_records co ON co.id = t.out_id
        LEFT JOIN loan_records ci ON ci.id = t.in_id
        """

    static let assignments = "SELECT * FROM \(table) ORDER BY rank"

    /// The impacts of the check-outs (`out_id`) or of the check-ins (`in_id`) of loans, by rank.
    static func impacts(recordColumn: String) -> String {
        """
        SELECT r.rank, li.type, li.x, li.y
        FROM \(table) r JOIN loan_impacts li ON li.record_id = r.\(recordColumn)
        WHERE r.out_id IS NOT NULL
        ORDER BY r.rank, li.position
        """
    }

    /// Puts the event's assignments in order in the temp table; `drop` removes it.
    static func prepare(_ database: Database, eventId: String, asOf: Timestamp) throws {
        try database.execute(drop)
        try database.execute(create)
        try database.run(fill, [.text(eventId), .integer(asOf.microseconds)])
    }
}

/// Reads the ordered assignments row by row.
final class AssignmentStream {
    private let statement: Statement

    init(database: Database) throws {
        statement = try database.prepare(FleetQueries.assignments)
    }

    func next() throws -> (rank: Int64, row: AssignmentRow)? {
        guard try statement.step() else { return nil }
        return (
            statement.int64(0),
            AssignmentRow(
                id: statement.string(1), plate: statement.string(2), brand: statement.string(3),
                model: statement.stringOrNil(4), groupId: statement.stringOrNil(5), driverId: statement.stringOrNil(6),
                plannedOut: statement.int64(7), plannedIn: statement.int64(8), cancelled: statement.int64(9) != 0,
                importSequence: statement.int64(10), checkOut: record(at: 11), checkIn: record(at: 19))
        )
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

/// Reads the impacts of one side of the loans alongside the assignments, by rank.
final class ImpactStream {
    private let statement: Statement
    /// The row read but not yet handed out: it belongs to a later loan.
    private var pending: (rank: Int64, impact: Impact?)?
    private var exhausted = false

    init(database: Database, side: LoanRecord.Kind) throws {
        statement = try database.prepare(FleetQueries.impacts(recordColumn: side == .checkOut ? "out_id" : "in_id"))
    }

    /// The impacts of the loan of rank `rank`, in their order in the record. Ranks are asked in
    /// increasing order; rows of lower ranks (none: only loans have rows) are passed over.
    func impacts(ofRank rank: Int64) throws -> [Impact] {
        var impacts: [Impact] = []
        while let row = try peek(), row.rank <= rank {
            if row.rank == rank, let impact = row.impact { impacts.append(impact) }
            pending = nil
        }
        return impacts
    }

    private func peek() throws -> (rank: Int64, impact: Impact?)? {
        if let pending { return pending }
        guard !exhausted else { return nil }
        guard try statement.step() else {
            exhausted = true
            return nil
        }
        // The schema's CHECK admits the four types only; an unknown one is passed over, not fatal.
        let impact = ImpactType(name: statement.string(1)).map {
            Impact(type: $0, x: statement.double(2), y: statement.double(3))
        }
        pending = (statement.int64(0), impact)
        return pending
    }
}
