import Foundation
import Store
import Time

/// One check-out or check-in as attached to its assignment: the latest record of its kind made
/// no later than as-of, by (recorded_at, import order, id).
struct AttachedRecord: Sendable {
    let id: String
    /// Microseconds since the epoch.
    let recordedAt: Int64
    let mileage: Double?
    /// Levels are 0–4 (the schema's CHECK): a byte each keeps 300,000 rows compact.
    let oilLevel: UInt8
    let interiorCleanliness: UInt8
    let exteriorCleanliness: UInt8
    let signaturePresent: Bool
    let signatureOutOfBox: Bool
}

/// An assignment of the event with its attached records.
struct AssignmentRow: Sendable {
    let id: String
    let plate: String
    let brand: String
    let model: String?
    let groupId: String?
    let driverId: String?
    let plannedOut: Int64
    let plannedIn: Int64
    let importSequence: Int64
    let cancelled: Bool
    var checkOut: AttachedRecord?
    var checkIn: AttachedRecord?
}

/// A loan record whose assignment no file has brought.
struct UnknownAssignmentRecord: Sendable {
    let id: String
    let assignmentId: String
    let kind: String
}

/// A damage mark; its index in the record's list is its place in the array that holds it.
struct Impact: Sendable, Equatable {
    let type: ImpactType
    let x: Double
    let y: Double
}

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

    static func records(_ scope: Scope) -> String {
        scope == .wholeTables
            ? records : records + " WHERE assignment_id IN (SELECT id FROM assignments WHERE event_id = ?)"
    }

    static func impacts(_ scope: Scope) -> String {
        scope == .wholeTables
            ? impacts
            : impacts.replacingOccurrences(
                of: "FROM loan_impacts ORDER BY",
                with: """
                    FROM loan_impacts WHERE record_id IN (SELECT r.id FROM loan_records r JOIN assignments a
                        ON a.id = r.assignment_id WHERE a.event_id = ?) ORDER BY
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

/// The event's assignments with their attached records, and the order the analysis reads them in.
///
/// The order is (plate, check-out time — none last, planned_time_out, id), texts compared by
/// their bytes (as SQLite's BINARY and PostgreSQL's `COLLATE "C"` do), so that one pass meets
/// each vehicle's loans together and in check-out order (which the interval union and the
/// between-loans comparison need).
struct FleetRows {
    /// An assignment as held while the analysis runs: the texts that repeat (plate, brand, model,
    /// group, driver) are numbers into `texts`, so that 300,000 rows take some 40 MB.
    struct Stored {
        let id: String
        let plate: Int32
        let brand: Int32
        let model: Int32
        let group: Int32
        let driver: Int32
        let plannedOut: Int64
        let plannedIn: Int64
        let importSequence: Int64
        let cancelled: Bool
        var checkOut: AttachedRecord?
        var checkIn: AttachedRecord?
    }

    /// In the order the assignments table gave them; `order` puts them in analysis order.
    private(set) var stored: [Stored] = []
    /// Indices into `stored`, in analysis order.
    private(set) var order: [Int32] = []
    /// The impacts of the attached records.
    private(set) var impacts = AttachedImpacts()
    /// The loan records of no assignment, by id; nil when the database holds other events, whose
    /// records the scan cannot tell from them.
    private(set) var recordsOfUnknownAssignments: [UnknownAssignmentRecord]?
    private var texts = TextTable()
    /// Every assignment of the database, the event's and others'.
    private var databaseAssignments = 0
    /// The `texts` numbers that are driver ids.
    private var driverNumbers = Set<Int32>()

    var count: Int { stored.count }

    /// The driver ids the assignments name (cancelled ones included).
    var driverIds: Set<ByteIdentifier> { Set(driverNumbers.map { ByteIdentifier(texts.text($0) ?? "") }) }

    /// The assignment at `index` of `stored`, its texts looked up.
    func row(at index: Int) -> AssignmentRow {
        let row = stored[index]
        return AssignmentRow(
            id: row.id, plate: texts.text(row.plate) ?? "", brand: texts.text(row.brand) ?? "",
            model: texts.text(row.model), groupId: texts.text(row.group), driverId: texts.text(row.driver),
            plannedOut: row.plannedOut, plannedIn: row.plannedIn, importSequence: row.importSequence,
            cancelled: row.cancelled, checkOut: row.checkOut, checkIn: row.checkIn)
    }

    /// - Parameter scope: nil chooses by the event's share of the assignments (tests force each).
    static func load(
        _ database: Database, eventId: String, asOf: Timestamp, scope: FleetQueries.Scope? = nil
    ) throws -> FleetRows {
        var loaded = FleetRows()
        let eventCount = try database.scalarInt(FleetQueries.assignmentCount, [.text(eventId)]) ?? 0
        let scope =
            try scope
            ?? FleetQueries.Scope.choose(
                eventAssignments: eventCount,
                allAssignments: database.scalarInt(FleetQueries.allAssignmentCount) ?? 0)
        loaded.stored.reserveCapacity(Int(eventCount))
        do {
            let positions = try loaded.readAssignments(database, eventId: eventId, scope: scope)
            try loaded.attachRecords(database, eventId: eventId, asOf: asOf, positions: positions, scope: scope)
        }
        try loaded.readImpacts(database, eventId: eventId, scope: scope)
        loaded.sort()
        return loaded
    }

    /// Reads the event's assignments; returns each one's index by id.
    private mutating func readAssignments(
        _ database: Database, eventId: String, scope: FleetQueries.Scope
    ) throws -> (table: IdentifierTable, ids: [String]) {
        let statement = try database.prepare(FleetQueries.assignments(scope))
        if scope == .event { try statement.bind([.text(eventId)]) }
        var positions = IdentifierTable(capacity: stored.capacity)
        var ids: [String] = []
        ids.reserveCapacity(stored.capacity)
        while try statement.step() {
            databaseAssignments += 1
            guard IdentifierTable.sameBytes(statement.string(10), eventId) else { continue }
            let id = statement.string(0)
            let driver = texts.number(statement.stringOrNil(5), column: 4)
            if driver != Interned.none { driverNumbers.insert(driver) }
            stored.append(
                Stored(
                    id: id, plate: texts.number(statement.string(1), column: 0),
                    brand: texts.number(statement.string(2), column: 1),
                    model: texts.number(statement.stringOrNil(3), column: 2),
                    group: texts.number(statement.stringOrNil(4), column: 3), driver: driver,
                    plannedOut: statement.int64(6), plannedIn: statement.int64(7), importSequence: statement.int64(9),
                    cancelled: statement.int64(8) != 0, checkOut: nil, checkIn: nil))
            ids.append(id)
            positions.insert(id, number: Int32(ids.count - 1)) { ids[Int($0)] }
        }
        return (positions, ids)
    }

    /// Gives each non-cancelled assignment its latest check-out and check-in made by as-of, by
    /// (recorded_at, import order, id; ids by their bytes, as the databases order them).
    ///
    /// When the event holds every assignment of the database, the records of no assignment
    /// pass by here too, and are kept as `recordsOfUnknownAssignments` (their own query would
    /// look up an assignment per record again).
    private mutating func attachRecords(
        _ database: Database, eventId: String, asOf: Timestamp, positions: (table: IdentifierTable, ids: [String]),
        scope: FleetQueries.Scope
    ) throws {
        let eventHoldsAll = scope == .wholeTables && databaseAssignments == stored.count
        var unknown: [UnknownAssignmentRecord] = []
        /// The import order of each attached record, by slot.
        var sequences = [Int64](repeating: 0, count: stored.count * 2)
        let statement = try database.prepare(FleetQueries.records(scope))
        if scope == .event { try statement.bind([.text(eventId)]) }
        var assignmentId: ByteIdentifier?
        var position: Int32?
        while try statement.step() {
            let nextId = ByteIdentifier(statement.string(0))
            if nextId != assignmentId {
                assignmentId = nextId
                position = positions.table.number(of: nextId.text) { positions.ids[Int($0)] }
            }
            guard let index = position.map(Int.init) else {
                if eventHoldsAll {
                    unknown.append(
                        UnknownAssignmentRecord(
                            id: statement.string(2), assignmentId: nextId.text, kind: statement.string(1)))
                }
                continue
            }
            let recordedAt = statement.int64(3)
            guard !stored[index].cancelled, recordedAt <= asOf.microseconds else { continue }
            let side: LoanRecord.Kind = statement.string(1) == LoanRecord.Kind.checkOut.rawValue ? .checkOut : .checkIn
            let slot = Int(AttachedImpacts.slot(index, side))
            let sequence = statement.int64(4)
            let id = statement.string(2)
            if let attached = side == .checkOut ? stored[index].checkOut : stored[index].checkIn {
                let order = (attached.recordedAt, sequences[slot])
                guard
                    order < (recordedAt, sequence)
                        || (order == (recordedAt, sequence) && attached.id.utf8.lexicographicallyPrecedes(id.utf8))
                else { continue }
            }
            sequences[slot] = sequence
            let record = AttachedRecord(
                id: id, recordedAt: recordedAt, mileage: statement.doubleOrNil(5),
                oilLevel: UInt8(clamping: statement.int64(6)), interiorCleanliness: UInt8(clamping: statement.int64(7)),
                exteriorCleanliness: UInt8(clamping: statement.int64(8)), signaturePresent: statement.int64(9) != 0,
                signatureOutOfBox: statement.int64(10) != 0)
            if side == .checkOut {
                stored[index].checkOut = record
            } else {
                stored[index].checkIn = record
            }
        }
        if eventHoldsAll {
            recordsOfUnknownAssignments = unknown.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        }
    }

    /// Keeps the impacts of the attached records, found by record id.
    private mutating func readImpacts(_ database: Database, eventId: String, scope: FleetQueries.Scope) throws {
        var slots = IdentifierTable(capacity: stored.count * 2)
        // The ids by slot, side by side, for the table's comparisons (a row is 144 bytes to copy).
        var slotIds = [String](repeating: "", count: stored.count * 2)
        for (index, row) in stored.enumerated() {
            if let checkOut = row.checkOut {
                let slot = AttachedImpacts.slot(index, .checkOut)
                slotIds[Int(slot)] = checkOut.id
                slots.insert(checkOut.id, number: slot) { slotIds[Int($0)] }
            }
            if let checkIn = row.checkIn {
                let slot = AttachedImpacts.slot(index, .checkIn)
                slotIds[Int(slot)] = checkIn.id
                slots.insert(checkIn.id, number: slot) { slotIds[Int($0)] }
            }
        }
        impacts = AttachedImpacts(slots: stored.count * 2)
        let statement = try database.prepare(FleetQueries.impacts(scope))
        try statement.bind(ImpactType.allCases.map { .text($0.name) } + (scope == .event ? [.text(eventId)] : []))
        var currentId: ByteIdentifier?
        var slot: Int32?
        var previousPosition: Int64 = -2
        while try statement.step() {
            // A record's impacts have the positions 0…n−1 (LoanRecordStore writes them so): a row
            // whose position follows the previous row's is of the same record, and its id (a
            // string to make) is read only on the others, three quarters of the rows fewer.
            let position = statement.int64(0)
            if position != previousPosition + 1 {
                let nextId = ByteIdentifier(statement.string(1))
                if nextId != currentId {
                    currentId = nextId
                    slot = slots.number(of: nextId.text) { slotIds[Int($0)] }
                    if let slot { impacts.start(slot) }
                }
            }
            previousPosition = position
            // The schema's CHECK admits the four types only; an unknown one is passed over, not fatal.
            guard let slot, let type = statement.int64OrNil(2).flatMap({ ImpactType(rawValue: Int($0)) }) else {
                continue
            }
            impacts.append(type, x: statement.double(3), y: statement.double(4), to: slot)
        }
    }

    /// Puts `order` in analysis order; plates are ranked once, so most comparisons are of integers.
    private mutating func sort() {
        let plates = Set(stored.map(\.plate)).sorted {
            (texts.text($0) ?? "").utf8.lexicographicallyPrecedes((texts.text($1) ?? "").utf8)
        }
        var plateRanks = [Int32: Int32]()
        for (rank, plate) in plates.enumerated() { plateRanks[plate] = Int32(rank) }
        let keys = stored.map { row in
            SortKey(
                plate: plateRanks[row.plate] ?? 0, checkedOut: row.checkOut != nil,
                checkOut: row.checkOut?.recordedAt ?? 0, plannedOut: row.plannedOut)
        }
        order = Array(0..<Int32(stored.count))
        order.sort { left, right in
            let leftKey = keys[Int(left)], rightKey = keys[Int(right)]
            if leftKey != rightKey { return leftKey.precedes(rightKey) }
            return stored[Int(left)].id.utf8.lexicographicallyPrecedes(stored[Int(right)].id.utf8)
        }
    }

    private struct SortKey: Equatable {
        let plate: Int32
        let checkedOut: Bool
        let checkOut: Int64
        let plannedOut: Int64

        func precedes(_ other: SortKey) -> Bool {
            if plate != other.plate { return plate < other.plate }
            if checkedOut != other.checkedOut { return checkedOut }
            if checkOut != other.checkOut { return checkOut < other.checkOut }
            return plannedOut < other.plannedOut
        }
    }
}

/// The impacts of the attached records, in flat arrays (a record's impacts side by side, in their
/// order in it): millions of them fit in 17 bytes each (an `ImpactType` is one byte), without an
/// array per record.
struct AttachedImpacts {
    private var types: [ImpactType] = []
    private var xs: [Double] = []
    private var ys: [Double] = []
    /// Per slot (assignment index × 2 + side): the first impact and how many.
    private var firsts: [Int32] = []
    private var counts: [Int32] = []

    init() {}

    init(slots: Int) {
        firsts = [Int32](repeating: 0, count: slots)
        counts = [Int32](repeating: 0, count: slots)
    }

    static func slot(_ index: Int, _ side: LoanRecord.Kind) -> Int32 {
        Int32(index * 2 + (side == .checkOut ? 0 : 1))
    }

    mutating func start(_ slot: Int32) { firsts[Int(slot)] = Int32(types.count) }

    mutating func append(_ type: ImpactType, x: Double, y: Double, to slot: Int32) {
        types.append(type)
        xs.append(x)
        ys.append(y)
        counts[Int(slot)] += 1
    }

    /// The impacts of one side of the assignment at `index` of the rows, in their order.
    func impacts(of index: Int, _ side: LoanRecord.Kind) -> [Impact] {
        let slot = Int(Self.slot(index, side))
        guard slot < counts.count, counts[slot] > 0 else { return [] }
        let first = Int(firsts[slot])
        return (first..<first + Int(counts[slot])).map { position in
            Impact(type: types[position], x: xs[position], y: ys[position])
        }
    }
}

/// An id compared and hashed by its UTF-8 bytes, as the databases compare text (SQLite's BINARY,
/// PostgreSQL's `COLLATE "C"`), where `String` equality would take two canonically equivalent
/// ids (`é` composed or not) for one.
struct ByteIdentifier: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (left: ByteIdentifier, right: ByteIdentifier) -> Bool {
        var left = left.text, right = right.text
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                leftBytes.count == rightBytes.count
                    && (leftBytes.isEmpty
                        || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// Texts that repeat from row to row, each held once and named by a number (`Interned.none` for
/// no text). Rows come by plate, so a column's text is most often the one of the row before:
/// that is checked first, without hashing.
struct TextTable {
    private var texts: [String] = []
    private var numbers = IdentifierTable(capacity: 1024)
    /// The last text and number of each column.
    private var previous: [(text: String, number: Int32)?] = Array(repeating: nil, count: 5)

    mutating func number(_ text: String?, column: Int) -> Int32 {
        guard let text else { return Interned.none }
        if let last = previous[column], IdentifierTable.sameBytes(last.text, text) { return last.number }
        let number: Int32
        if let known = numbers.number(of: text, key: { texts[Int($0)] }) {
            number = known
        } else {
            number = Int32(texts.count)
            texts.append(text)
            numbers.insert(text, number: number) { texts[Int($0)] }
        }
        previous[column] = (text, number)
        return number
    }

    func text(_ number: Int32) -> String? { number == Interned.none ? nil : texts[Int(number)] }
}
