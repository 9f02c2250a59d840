/// The queries of the analysis: three plain scans, none of which sorts, joins or runs per
/// assignment.
///
/// When the event holds most of the database's assignments (a database of one show, the
/// benchmark's), the assignments and loan records (in table order) and the impacts (in
/// primary-key order) are read whole, and those of other events (or of superseded records) are
/// passed over in Swift: a filter by event would cost a lookup per row, where the scans cost about
/// what reading the rows does. When it holds less (a database of many shows), the same queries
/// are filtered by the event through the indexes (`Scope.event`), so that a report's cost follows
/// its event's size, not the history's. (The former
/// single ordered query — correlated "latest record" subqueries, two joins and a `row_number()`
/// sort into a temp table, then two joins of it to the impacts — took 4 of the 7.7 CPU seconds
/// of the 300,000-assignment profile; see docs/BENCHMARKS.md.)
enum FleetQueries {
    /// Whole tables, or the event's rows through the indexes (`?` the event id, last parameter).
    enum Scope: Sendable {
        case wholeTables, event

        /// Whole tables when the event holds at least half of the database's assignments.
        static func choose(eventAssignments: Int64, allAssignments: Int64) -> Scope {
            eventAssignments * 2 >= allAssignments ? .wholeTables : .event
        }
    }

    static let allAssignmentCount = "SELECT count(*) FROM assignments"

    static func assignments(_ scope: Scope) -> String {
        scope == .wholeTables ? assignments : assignments + " WHERE event_id = ?"
    }

    /// The event's records are those that carry its id (fleet schema step 2: a record carries its
    /// assignment's event), read through `loan_records_event_assignment`: on a distributed
    /// database, one shard.
    static func records(_ scope: Scope) -> String {
        scope == .wholeTables ? records : records + " WHERE event_id = ?"
    }

    /// The event's impacts (`?` the event id, twice), those of its records, found through the
    /// primary key (record, position) in that order; both tables filtered by the event, so that on
    /// a distributed database the query stays on the event's shard.
    static func impacts(_ scope: Scope) -> String {
        scope == .wholeTables
            ? impacts
            : impacts.replacingOccurrences(
                of: "FROM loan_impacts ORDER BY",
                with: """
                    FROM loan_impacts WHERE event_id = ?
                        AND record_id IN (SELECT id FROM loan_records WHERE event_id = ?) ORDER BY
                    """)
    }

    /// `?1` event id: how many rows `assignments` will give, so that they are stored without regrowing.
    static let assignmentCount = "SELECT count(*) FROM assignments WHERE event_id = ?"

    /// Every assignment, in table order; the event's are kept by their `event_id` (last column).
    /// (Reading the event's through the index `assignments_event_plate` makes a table lookup per
    /// row, in plate order: twice the cost of the scan on the profile. A database of many events
    /// is read whole, as it is by the record and impact scans.)
    static let assignments = """
        SELECT id, plate, brand_name, model_name, group_id, driver_id, planned_time_out_us, planned_time_in_us,
               cancelled, import_seq, event_id
        FROM assignments
        """

    /// Every loan record, in no order: the latest of an (assignment, kind) by (recorded_at,
    /// import order, id) is picked in Swift. (Reading them in the order of the index
    /// `loan_records_assignment` would make one table lookup per record: three times the cost
    /// of the scan on the profile.) Records made after as-of come too (they are passed over), so
    /// that the same scan finds the records of unknown assignments, which are listed whenever
    /// they were made.
    static let records = """
        SELECT assignment_id, kind, id, recorded_at_us, import_seq, mileage_km, oil_level, interior_cleanliness,
               exterior_cleanliness, signature_present, signature_out_of_box
        FROM loan_records
        """

    /// In the order of the primary key (record, position): a record's impacts come together, in
    /// their order in the record. The type comes as its `ImpactType` raw value (the names are
    /// bound, `?1`… in `ImpactType.allCases` order), which spares a string per impact.
    static let impacts = """
        SELECT position, record_id, CASE type \(
            ImpactType.allCases.map { "WHEN ? THEN \($0.rawValue)" }.joined(separator: " ")) END, x, y
        FROM loan_impacts ORDER BY record_id, position
        """
}
