import Foundation
import Store
import Time

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
            guard statement.withText(10, { IdentifierTable.matches($0, eventId) }) else { continue }
            let id = statement.string(0)
            let driver = texts.number(statement, column: 5, slot: 4)
            if driver != Interned.none { driverNumbers.insert(driver) }
            stored.append(
                Stored(
                    id: id, plate: texts.number(statement, column: 1, slot: 0),
                    brand: texts.number(statement, column: 2, slot: 1),
                    model: texts.number(statement, column: 3, slot: 2),
                    group: texts.number(statement, column: 4, slot: 3), driver: driver,
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
            let side: LoanRecord.Kind =
                statement.withText(1) { IdentifierTable.matches($0, LoanRecord.Kind.checkOut.rawValue) }
                ? .checkOut : .checkIn
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
        try statement.bind(
            ImpactType.allCases.map { .text($0.name) } + (scope == .event ? [.text(eventId), .text(eventId)] : []))
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
