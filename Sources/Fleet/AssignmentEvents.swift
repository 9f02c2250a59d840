import Store

/// The event of each assignment, as the fleet importers need it to keep `loan_records.event_id`
/// and `loan_impacts.event_id` right (fleet schema step 2): a record takes its assignment's event
/// when it is written, and an assignment that arrives after its records, or changes event, takes
/// them along (`AssignmentImporter`).
///
/// Inside a transaction (a file's import), the events are read once, at the first question, with
/// the records of the unknown bucket: from then on the importer asks no query per record, only
/// per record that moves; no other connection writes meanwhile (the import holds the write lock),
/// a file's transaction holds one kind's importer (so the bucket grows only outside an
/// assignments file's), and the importer tells of the assignments it writes (`assign`). The cost is one read of
/// `assignments` (id, event) per file, and memory for one entry per assignment (event ids
/// interned) and for the records whose assignment is unknown. Outside a transaction (a record
/// imported on its own) every question is a query, so nothing learned can go stale; the cache is
/// also forgotten when the transaction ends.
final class AssignmentEvents {
    /// The event of a record whose assignment no file has brought yet: no event id is empty.
    static let unknown = ""

    /// A loan record as stored (`LoanRecordStore.columns`) with its impacts (type, x, y), read
    /// back to be written again in another event.
    struct StoredRecord {
        var values: [SQLValue]
        var impacts: [[SQLValue]]
    }

    private struct Snapshot {
        var events: [String] = []
        var eventNumbers: [String: Int32] = [:]
        var byAssignment: [String: Int32] = [:]
        /// The unknown bucket's records, by assignment id; taken out as their assignment arrives.
        var unknownRecords: [String: [StoredRecord]] = [:]

        func event(of assignmentId: String) -> String? { byAssignment[assignmentId].map { events[Int($0)] } }

        mutating func number(of event: String) -> Int32 {
            if let number = eventNumbers[event] { return number }
            let number = Int32(events.count)
            events.append(event)
            eventNumbers[event] = number
            return number
        }
    }

    private let database: Database
    /// Whether the snapshot holds the unknown bucket's records (the assignments importer's, which
    /// moves them; the loan records importer only asks for events).
    private let holdsUnknownRecords: Bool
    private let lookUp: Statement
    private let readRecords: Statement
    private let readImpacts: Statement
    private var snapshot: Snapshot?

    init(database: Database, holdsUnknownRecords: Bool) throws {
        self.database = database
        self.holdsUnknownRecords = holdsUnknownRecords
        lookUp = try database.prepare("SELECT event_id FROM assignments WHERE id = ?")
        readRecords = try database.prepare(
            "SELECT \(LoanRecordStore.columns.joined(separator: ", ")) FROM loan_records "
                + "WHERE event_id = ? AND assignment_id = ? ORDER BY id")
        readImpacts = try database.prepare(
            """
            SELECT i.record_id, i.type, i.x, i.y FROM loan_impacts i
            WHERE i.event_id = ? AND i.record_id IN (SELECT r.id FROM loan_records r
                WHERE r.event_id = ? AND r.assignment_id = ?)
            ORDER BY i.record_id, i.position
            """)
    }

    /// The assignment's event as stored, or nil when no assignments file has brought it.
    func event(of assignmentId: String) throws -> String? {
        if try cached() { return snapshot!.event(of: assignmentId) }
        try lookUp.bind([.text(assignmentId)])
        defer { lookUp.reset() }
        return try lookUp.step() ? lookUp.string(0) : nil
    }

    /// Notes that the assignment now belongs to `event` (its row is being written), and returns
    /// its loan records stored under another event (its former event, or the unknown bucket), to
    /// be written again under `event`: a record stays one row, its import order kept.
    func assign(_ assignmentId: String, to event: String) throws -> [StoredRecord] {
        guard try cached() else {
            let former = try self.event(of: assignmentId) ?? AssignmentEvents.unknown
            return former == event ? [] : try records(of: assignmentId, in: former)
        }
        let former = snapshot!.event(of: assignmentId) ?? AssignmentEvents.unknown
        snapshot!.byAssignment[assignmentId] = snapshot!.number(of: event)
        if former == event { return [] }
        if former == AssignmentEvents.unknown {
            return snapshot!.unknownRecords.removeValue(forKey: assignmentId) ?? []
        }
        return try records(of: assignmentId, in: former)
    }

    /// Whether the snapshot is the one to ask, taking it at the first question of a transaction.
    private func cached() throws -> Bool {
        guard database.isInTransaction else {
            snapshot = nil
            return false
        }
        if snapshot != nil { return true }
        var taken = Snapshot()
        let assignments = try database.prepare("SELECT id, event_id FROM assignments")
        while try assignments.step() {
            taken.byAssignment[assignments.string(0)] = taken.number(of: assignments.string(1))
        }
        if holdsUnknownRecords { taken.unknownRecords = try unknownBucket() }
        snapshot = taken
        database.whenOutsideTransaction { [weak self] in self?.snapshot = nil }
        return true
    }

    /// The records of the unknown bucket with their impacts, by assignment: two reads of the
    /// bucket, whatever the number of assignments (an assignments file loaded in bulk has no
    /// secondary index on `loan_records` to look one up by).
    private func unknownBucket() throws -> [String: [StoredRecord]] {
        let assignmentColumn = LoanRecordStore.columns.firstIndex(of: "assignment_id")!
        let records = try database.prepare(
            "SELECT \(LoanRecordStore.columns.joined(separator: ", ")) FROM loan_records WHERE event_id = ?")
        try records.bind([.text(AssignmentEvents.unknown)])
        var byRecord: [String: (assignment: String, position: Int)] = [:]
        var bucket: [String: [StoredRecord]] = [:]
        while try records.step() {
            let assignment = records.string(assignmentColumn)
            byRecord[records.string(0)] = (assignment, bucket[assignment, default: []].count)
            bucket[assignment, default: []].append(
                StoredRecord(values: (0..<records.columnCount).map { records.value($0) }, impacts: []))
        }
        if bucket.isEmpty { return [:] }
        let impacts = try database.prepare(
            "SELECT record_id, type, x, y FROM loan_impacts WHERE event_id = ? ORDER BY record_id, position")
        try impacts.bind([.text(AssignmentEvents.unknown)])
        while try impacts.step() {
            guard let (assignment, position) = byRecord[impacts.string(0)] else { continue }
            bucket[assignment]![position].impacts.append([impacts.value(1), impacts.value(2), impacts.value(3)])
        }
        return bucket
    }

    /// The assignment's records stored under `event`, with their impacts.
    private func records(of assignmentId: String, in event: String) throws -> [StoredRecord] {
        try readRecords.bind([.text(event), .text(assignmentId)])
        defer { readRecords.reset() }
        var found: [StoredRecord] = []
        var positions: [String: Int] = [:]
        while try readRecords.step() {
            positions[readRecords.string(0)] = found.count
            found.append(
                StoredRecord(values: (0..<readRecords.columnCount).map { readRecords.value($0) }, impacts: []))
        }
        if found.isEmpty { return [] }
        try readImpacts.bind([.text(event), .text(event), .text(assignmentId)])
        defer { readImpacts.reset() }
        while try readImpacts.step() {
            guard let position = positions[readImpacts.string(0)] else { continue }
            found[position].impacts.append([readImpacts.value(1), readImpacts.value(2), readImpacts.value(3)])
        }
        return found
    }
}
