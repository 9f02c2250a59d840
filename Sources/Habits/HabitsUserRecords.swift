import Store
import Time

/// One user's records, reduced to what the analysis reads: small structs, held for one user at a
/// time and reused for the next (the arrays keep their capacity).
struct HabitsUserRecords {
    struct Task {
        var date: Day
        var done: Bool
        var completedAt: Int64?
    }

    struct Flow {
        var id: String
        var date: Day
        var done: Bool
        var stepsTotal: Int64
        var stepsDone: Int64
        var estimatedMinutes: Double
        var realisedMinutes: Double
        var streakDay: Int64?
        var completedAt: Int64?
        /// The `contexte` entries, read for `termine` flows only (categories).
        var contexts: [String]
    }

    struct Session {
        var id: String
        var startedAt: Int64
        var totalSeconds: Int64
        var remainingSeconds: Int64
        var endedAt: Int64?

        /// totalSeconds − remainingSeconds: the focus the session counts.
        var focusedSeconds: Int64 { totalSeconds - remainingSeconds }
    }

    struct Mood {
        var date: Day
        var mood: Int
    }

    var userId = ""
    /// Whether a `users` record exists for this id.
    var isKnown = false
    /// The `users.timezone` as stored (nil: absent or no record).
    var timezone: String?
    var tasks: [Task] = []
    var flows: [Flow] = []
    /// In order of `startedAt`, then id.
    var sessions: [Session] = []
    var logins: [Int64] = []
    var moods: [Mood] = []

    var recordCount: Int { tasks.count + flows.count + sessions.count + logins.count + moods.count }
}

/// Reads the whole histories of a batch of users (`HabitsAnalysis.batchSize`) with six prepared
/// statements reused for every batch.
///
/// Each query takes a range of `user_id`s, served by the tables' `(user_id, …)` indexes, and
/// gives its rows by user, so memory holds one batch's records, never the whole database, and a
/// server is asked six times a batch rather than six times a user. Dates are read as `Day`s
/// straight from the column's bytes (`Statement.day`: the importers store only valid
/// `YYYY-MM-DD` dates), which spares a string per row and, on PostgreSQL, a cast to
/// `date` per row on the server (`unixepoch(date)` cost 2–3 µs a row there).
final class HabitsRecordReader {
    private let database: Database
    /// The reads of a range of users (`?1`…`?2` in byte order).
    private let statements: HabitsBatchStatements

    /// A range of users' flows with the contexts of the done ones: on Citus, a join of two tables
    /// colocated by user, run whole on each worker (`HabitsCitusPlanTests`). The range is said of
    /// the contexts too (a condition of an outer join's `ON` does not pass from one side to the
    /// other by itself), so PostgreSQL searches the contexts' key, led by `user_id` (habits step
    /// 7), for the range instead of reading them all; SQLite still probes `(flow_id, position)`.
    static let flowsSQL = """
        SELECT f.user_id, f.id, f.date, f.etat = 'termine', f.steps_total, f.steps_done,
               f.temps_estime, f.temps_realise, f.streak_day, f.completed_at_us, c.context
        FROM flows f
        LEFT JOIN flow_contexts c ON c.user_id = f.user_id AND c.flow_id = f.id AND f.etat = 'termine'
            AND c.user_id BETWEEN ?1 AND ?2
        WHERE f.user_id BETWEEN ?1 AND ?2 ORDER BY f.user_id, f.id, c.position
        """

    /// Whether one user has anything (`--user`): on Citus, a router query (the worker of that
    /// user's shard only).
    static let hasAnythingSQL = """
        SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1) OR EXISTS (SELECT 1 FROM tasks WHERE user_id = ?1)
            OR EXISTS (SELECT 1 FROM flows WHERE user_id = ?1)
            OR EXISTS (SELECT 1 FROM focus_sessions WHERE user_id = ?1)
            OR EXISTS (SELECT 1 FROM logins WHERE user_id = ?1) OR EXISTS (SELECT 1 FROM moods WHERE user_id = ?1)
        """

    /// The reads of one user (`?1`), made when first needed.
    private var single: HabitsBatchStatements?

    init(database: Database) throws {
        self.database = database
        statements = try Self.statements(database, range: Self.idRange)
    }

    /// A range of ids, the first and the last (`?1`, `?2`); one id (`?1`).
    static let idRange = "BETWEEN ?1 AND ?2", oneUser = "= ?1"

    /// The six reads of the users whose id is `range` (`BETWEEN ?1 AND ?2`, or `= ?1`).
    private static func statements(_ database: Database, range: String) throws -> HabitsBatchStatements {
        let sql = Self.sql(range: range)
        return HabitsBatchStatements(
            users: try database.prepare(sql[0]), tasks: try database.prepare(sql[1]),
            flows: try database.prepare(sql[2]), sessions: try database.prepare(sql[3]),
            logins: try database.prepare(sql[4]), moods: try database.prepare(sql[5]))
    }

    /// The SQL of the six reads (users, tasks, flows, sessions, logins, moods) of the users whose
    /// id is `range`.
    static func sql(range: String) -> [String] {
        [
            "SELECT id, timezone FROM users WHERE id \(range) ORDER BY id",
            """
            SELECT user_id, date, state = 'terminee', completed_at_us FROM tasks WHERE user_id \(range)
            ORDER BY user_id
            """,
            Self.flowsSQL.replacingOccurrences(of: Self.idRange, with: range),
            """
            SELECT user_id, id, started_at_us, total_seconds, remaining_seconds, ended_at_us
            FROM focus_sessions WHERE user_id \(range) ORDER BY user_id, started_at_us, id
            """,
            "SELECT user_id, at_us FROM logins WHERE user_id \(range) ORDER BY user_id, at_us",
            "SELECT user_id, date, mood FROM moods WHERE user_id \(range) ORDER BY user_id",
        ]
    }

    /// Every user id with at least one record of activity, or `only` when given; byte order.
    ///
    /// Read from `habits_record_users` (habits step 8), which the importers keep: one read of a
    /// row a user, where seeking each activity table's `(user_id, …)` index from one id to the
    /// next cost a probe per user and table. It may name a user whose records all moved to
    /// another: read, they have nothing, and appear nowhere. Ids are distinct by their bytes
    /// (the key), in byte order (`ORDER BY` of a `C` or binary collation) as the batches need.
    /// Needs none of a reader's statements: a report lists its users before it makes its readers.
    static func userIds(_ database: Database, only: String?) throws -> [String] {
        if let only { return try hasAnything(database, only) ? [only] : [] }
        let statement = try database.prepare("SELECT user_id FROM habits_record_users ORDER BY user_id")
        var ids: [String] = []
        while try statement.step() { ids.append(statement.string(0)) }
        return ids
    }

    /// Whether the id has a `users` record or any activity record (for `--user`).
    static func hasAnything(_ database: Database, _ userId: String) throws -> Bool {
        let statement = try database.prepare(Self.hasAnythingSQL)
        try statement.bind([.text(userId)])
        return try statement.step() && statement.int64(0) != 0
    }

    /// Replaces `records[i]` with the records of `userIds[i]` for every `i` in `wanted`, in six
    /// queries over the range of those ids (rows of other ids in the range are passed over).
    /// `userIds` must be in byte order, as `userIds(_:only:)` gives them.
    func read(batch userIds: [String], wanted: [Int], into records: inout [HabitsUserRecords]) throws {
        guard let batch = HabitsBatch(ids: userIds, wanted: wanted, resetting: &records) else { return }
        // One user (in a resumed report, most of the few read whole: a session open since before
        // the window, or no `users` record) is an equality, which Citus routes to the user's shard:
        // a range, even of one id, went to all eight (about 1.2 s of the day report at scale 1).
        var reads = statements
        var range = batch.range
        if wanted.count == 1 {
            if single == nil { single = try Self.statements(database, range: Self.oneUser) }
            reads = single ?? statements
            range = [.text(userIds[wanted[0]])]
        }
        try reads.read(
            batch, into: &records, users: range, tasks: range, flows: range, sessions: range, logins: range,
            moods: range)
    }
}

extension HabitsUserRecords {
    /// Empties the five lists, keeping their capacity.
    mutating func clearLists() {
        tasks.removeAll(keepingCapacity: true)
        flows.removeAll(keepingCapacity: true)
        sessions.removeAll(keepingCapacity: true)
        logins.removeAll(keepingCapacity: true)
        moods.removeAll(keepingCapacity: true)
    }

    /// The row's task, its columns from `column` on: date, done, completed at.
    mutating func appendTask(_ row: Statement, from column: Int) {
        tasks.append(
            .init(
                date: row.day(column) ?? Day(ordinal: 0), done: row.int64(column + 1) != 0,
                completedAt: row.int64OrNil(column + 2)))
    }

    /// The row's flow, or one more context of the flow before it (rows come by flow id, then
    /// context position).
    mutating func appendFlowRow(_ row: Statement, from column: Int) {
        let id = row.string(column)
        let context = row.stringOrNil(column + 9)
        if let last = flows.indices.last, flows[last].id == id {
            if let context { flows[last].contexts.append(context) }
            return
        }
        flows.append(
            .init(
                id: id, date: row.day(column + 1) ?? Day(ordinal: 0), done: row.int64(column + 2) != 0,
                stepsTotal: row.int64(column + 3), stepsDone: row.int64(column + 4),
                estimatedMinutes: row.doubleOrNil(column + 5) ?? 0, realisedMinutes: row.doubleOrNil(column + 6) ?? 0,
                streakDay: row.int64OrNil(column + 7), completedAt: row.int64OrNil(column + 8),
                contexts: context.map { [$0] } ?? []))
    }

    mutating func appendSession(_ row: Statement, from column: Int) {
        sessions.append(
            .init(
                id: row.string(column), startedAt: row.int64(column + 1), totalSeconds: row.int64(column + 2),
                remainingSeconds: row.int64(column + 3), endedAt: row.int64OrNil(column + 4)))
    }

    mutating func appendMood(_ row: Statement, from column: Int) {
        moods.append(.init(date: row.day(column) ?? Day(ordinal: 0), mood: Int(row.int64(column + 1))))
    }
}

/// Some users of a batch (`wanted`, indices into `ids`, in byte order) read with range queries:
/// `?1`…`?2` the first and last wanted id, each row led by its `user_id` and ordered by it (an
/// `ORDER BY` every query needs: SQLite happened to give the users in key order without one,
/// PostgreSQL gives them in the order they lie in the table), rows of ids in the range that are
/// not wanted passed over.
struct HabitsBatch {
    let ids: [String]
    private var isWanted: [Bool]
    let first: Int
    let last: Int

    /// Nil when nothing is wanted; else each wanted record reset to its id and no records.
    init?(ids: [String], wanted: [Int], resetting records: inout [HabitsUserRecords]) {
        guard let first = wanted.first, let last = wanted.last else { return nil }
        self.ids = ids
        self.first = first
        self.last = last
        isWanted = [Bool](repeating: false, count: ids.count)
        for index in wanted {
            isWanted[index] = true
            records[index].userId = ids[index]
            records[index].isKnown = false
            records[index].timezone = nil
            records[index].clearLists()
        }
    }

    var range: [SQLValue] { [.text(ids[first]), .text(ids[last])] }

    /// Runs `statement` with `parameters` and calls `body` with the index of each row's user.
    func rows(_ statement: Statement, _ parameters: [SQLValue], _ body: (Int) throws -> Void) throws {
        try statement.bind(parameters)
        var cursor = first
        var lastId = ""
        var lastIndex: Int?
        while try statement.step() {
            let id = statement.string(0)
            if !id.utf8.elementsEqual(lastId.utf8) {
                lastId = id
                // Ids and rows both in byte order: walk the ids in step with the rows.
                while cursor < ids.count, ids[cursor].utf8.lexicographicallyPrecedes(id.utf8) { cursor += 1 }
                lastIndex =
                    cursor < ids.count && ids[cursor].utf8.elementsEqual(id.utf8) && isWanted[cursor] ? cursor : nil
            }
            if let index = lastIndex { try body(index) }
        }
        statement.reset()
    }
}

/// The six reads of a batch, each row led by its `user_id` and ordered by it, the other columns
/// in the layouts `HabitsUserRecords.append…` read: the whole-history reader and the window
/// reader differ in their SQL and parameters only.
struct HabitsBatchStatements {
    /// `id, timezone` of the users.
    let users: Statement
    let tasks: Statement
    let flows: Statement
    let sessions: Statement
    let logins: Statement
    let moods: Statement

    /// Runs each statement with its parameters and files its rows under their users.
    func read(
        _ batch: HabitsBatch, into records: inout [HabitsUserRecords], users userParameters: [SQLValue],
        tasks taskParameters: [SQLValue], flows flowParameters: [SQLValue], sessions sessionParameters: [SQLValue],
        logins loginParameters: [SQLValue], moods moodParameters: [SQLValue]
    ) throws {
        try batch.rows(users, userParameters) { index in
            records[index].isKnown = true
            records[index].timezone = users.stringOrNil(1)
        }
        try batch.rows(tasks, taskParameters) { records[$0].appendTask(tasks, from: 1) }
        try batch.rows(flows, flowParameters) { records[$0].appendFlowRow(flows, from: 1) }
        try batch.rows(sessions, sessionParameters) { records[$0].appendSession(sessions, from: 1) }
        try batch.rows(logins, loginParameters) { records[$0].logins.append(logins.int64(1)) }
        try batch.rows(moods, moodParameters) { records[$0].appendMood(moods, from: 1) }
    }
}
