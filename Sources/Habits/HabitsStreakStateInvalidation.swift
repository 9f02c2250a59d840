import Store
import Time

/// Keeps the streak cache (`habits_streak_state`) honest from the importers, where schema step 2
/// had triggers: a distributed database (Citus) refuses a table with triggers, and the importers
/// know what they write (habits step 6 drops the triggers).
///
/// The rule is the triggers' (`HabitsStreakStateSchema`): a record written deletes the states of
/// its user from the earliest day it can belong to, and the states of the user of the row it
/// replaces from the earliest day that row could belong to, unless the columns the state depends
/// on (the record's *fingerprint*) are the same in both. A user written deletes all the user's
/// states when new or when their time zone changed.
///
/// How, at the cost of one query per batch: while the cache holds states (asked once per
/// transaction), the importer hands each record here with its write; the records are held back
/// (`Database.holdBack`, so they are written before anything could read their table and before
/// the commit) and, per batch, the rows they replace are read by id in one query, the states
/// deleted, then the records written. A transaction that writes more than `clearAfter` records
/// is a bulk load: it empties the cache instead and writes the rest straight through (the next
/// report rebuilds the cache from the whole history, as after a first import). While the cache
/// is empty, records go straight to the writer: a bulk import into a new database pays nothing.
///
/// No report can save states in the middle: a save runs only in a writing transaction of its own
/// and only if nothing was committed since its read (`HabitsStreakStateStore`), and the import's
/// transaction holds the writer lock from its start.
final class HabitsStreakStateInvalidation: BufferingWriter {
    /// What a table's records are to the cache.
    struct Kind: Sendable {
        let table: String
        /// The columns the state depends on; the first is the user's id.
        let fingerprint: [String]
        /// The earliest day ordinal a record with this fingerprint can belong to; nil: every day.
        let earliestDay: @Sendable ([SQLValue]) -> Int64?
    }

    static let batchSize = 500
    static let clearAfter = 20_000

    private let database: Database
    private let kind: Kind
    private var held: [(id: String, fingerprint: [SQLValue], write: () throws -> Void)] = []
    /// Whether the cache holds states, asked once in the current transaction; nil outside one.
    private var cacheHolds: Bool?
    /// Records handed here in the current transaction.
    private var seen = 0
    /// Per user, the earliest day from which the current transaction deleted their states.
    private var deletedFrom: [String: Int64] = [:]

    init(database: Database, kind: Kind) {
        self.database = database
        self.kind = kind
    }

    var tables: [String] { [kind.table] }

    /// Whether a record must go through `hold` (the cache holds states in this transaction, or
    /// there is no transaction); false: write it straight away. Asked once per transaction.
    func mustHold() throws -> Bool {
        guard database.isInTransaction else { return true }
        if cacheHolds == nil {
            cacheHolds =
                try database.scalarInt("SELECT count(*) FROM (SELECT 1 FROM habits_streak_state LIMIT 1) AS s") == 1
            database.whenOutsideTransaction { [weak self] in self?.forgetTransaction() }
        }
        return cacheHolds == true
    }

    /// Writes a record (`write`) keeping the cache right: held back with the others of its batch
    /// while the cache holds states, at once otherwise.
    func hold(id: String, fingerprint: [SQLValue], _ write: @escaping () throws -> Void) throws {
        guard database.isInTransaction else {
            // A record written on its own (tests): its own transaction, so that the read of the
            // row it replaces, the write and the deletion are one.
            try database.transaction {
                try self.hold(id: id, fingerprint: fingerprint, write)
                try self.flushBuffered()
            }
            return
        }
        guard try mustHold() else { return try write() }
        seen += 1
        if seen > Self.clearAfter {
            try flushBuffered()
            try database.execute("DELETE FROM habits_streak_state")
            cacheHolds = false
            return try write()
        }
        held.append((id, fingerprint, write))
        if held.count == 1 { database.holdBack(self) }
        if held.count >= Self.batchSize { try flushBuffered() }
    }

    func flushBuffered() throws {
        guard !held.isEmpty else { return }
        let batch = held
        held.removeAll(keepingCapacity: true)
        let replaced = try rowsReplaced(ids: Array(Set(batch.map(\.id))))
        var earliest: [String: Int64] = [:]
        func invalidate(_ fingerprint: [SQLValue]) {
            guard case .text(let user) = fingerprint[0] else { return }
            let day = kind.earliestDay(fingerprint) ?? Int64.min
            earliest[user] = min(earliest[user] ?? day, day)
        }
        for record in batch {
            if let old = replaced[record.id] {
                if old == record.fingerprint { continue }
                invalidate(old)
            }
            invalidate(record.fingerprint)
        }
        let delete = try database.prepare("DELETE FROM habits_streak_state WHERE user_id = ? AND through_day >= ?")
        for (user, day) in earliest where day < deletedFrom[user] ?? Int64.max {
            try delete.bind([.text(user), .integer(day)])
            try delete.run()
            deletedFrom[user] = day
        }
        for record in batch { try record.write() }
    }

    func discardBuffered() { held.removeAll(keepingCapacity: true) }

    /// The fingerprints of the stored rows with these ids, by id.
    private func rowsReplaced(ids: [String]) throws -> [String: [SQLValue]] {
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let statement = try database.prepare(
            "SELECT id, \(kind.fingerprint.joined(separator: ", ")) FROM \(kind.table) WHERE id IN (\(placeholders))")
        try statement.bind(ids.map(SQLValue.text))
        var rows: [String: [SQLValue]] = [:]
        while try statement.step() {
            rows[statement.string(0)] = (1...kind.fingerprint.count).map { statement.value($0) }
        }
        return rows
    }

    private func forgetTransaction() {
        cacheHolds = nil
        seen = 0
        deletedFrom.removeAll()
        held.removeAll()
    }
}

extension HabitsStreakStateInvalidation.Kind {
    /// Days since 1970-01-01 of the UTC day of an instant in microseconds, minus 3: zones are at
    /// most 12 h behind UTC and a day start subtracts less than 24 h.
    static func earliestDay(ofInstant micros: Int64) -> Int64 { micros / 86_400_000_000 - 3 }

    /// A task or a flow: its date, or earlier if it was completed on an earlier instant.
    static func dated(_ table: String, state: String) -> Self {
        Self(table: table, fingerprint: ["user_id", "date", state, "completed_at_us"]) { values in
            guard case .text(let text) = values[1], let date = Day(text) else { return nil }
            var day = Int64(date.ordinal)
            if case .integer(let completed) = values[3] { day = min(day, earliestDay(ofInstant: completed)) }
            return day
        }
    }

    static let tasks = dated("tasks", state: "state")
    static let flows = dated("flows", state: "etat")
    /// The state keeps the latest end of earlier sessions for the overlap check.
    static let focusSessions = Self(
        table: "focus_sessions",
        fingerprint: ["user_id", "started_at_us", "total_seconds", "remaining_seconds", "ended_at_us"]
    ) { values in
        guard case .integer(let started) = values[1] else { return nil }
        return earliestDay(ofInstant: started)
    }
    /// A user's time zone moves every day: all of that user's states go.
    static let users = Self(table: "users", fingerprint: ["id", "timezone"]) { _ in nil }
}
