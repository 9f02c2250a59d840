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

/// Reads one user's records with prepared statements reused for every user.
///
/// Each query is by `user_id`, served by the tables' `(user_id, …)` indexes, so users are
/// processed one after the other and memory holds one user's records, never the whole database.
/// Dates are read as `Day`s straight from the column's bytes (`Statement.day`: the importers store
/// only valid `YYYY-MM-DD` dates), which spares a string per row and, on PostgreSQL, a cast to
/// `date` per row on the server (`unixepoch(date)` cost 2–3 µs a row there).
final class HabitsRecordReader {
    private let database: Database
    private let user: Statement
    private let tasks: Statement
    private let flows: Statement
    private let sessions: Statement
    private let logins: Statement
    private let moods: Statement

    init(database: Database) throws {
        self.database = database
        user = try database.prepare("SELECT timezone FROM users WHERE id = ?")
        tasks = try database.prepare(
            """
            SELECT date, state = 'terminee', completed_at_us FROM tasks WHERE user_id = ?
            """)
        flows = try database.prepare(
            """
            SELECT f.id, f.date, f.etat = 'termine', f.steps_total, f.steps_done,
                   f.temps_estime, f.temps_realise, f.streak_day, f.completed_at_us, c.context
            FROM flows f LEFT JOIN flow_contexts c ON c.flow_id = f.id AND f.etat = 'termine'
            WHERE f.user_id = ? ORDER BY f.id, c.position
            """)
        sessions = try database.prepare(
            """
            SELECT id, started_at_us, total_seconds, remaining_seconds, ended_at_us
            FROM focus_sessions WHERE user_id = ? ORDER BY started_at_us, id
            """)
        logins = try database.prepare("SELECT at_us FROM logins WHERE user_id = ? ORDER BY at_us")
        moods = try database.prepare("SELECT date, mood FROM moods WHERE user_id = ?")
    }

    /// Every user id with at least one record of activity, or `only` when given; byte order.
    ///
    /// Found by seeking each table's `(user_id, …)` index from one id to the next instead of
    /// reading every row: ten thousand seeks rather than ten million rows.
    func userIdsBySeeking(only: String?) throws -> [String] {
        if let only { return try hasAnything(only) ? [only] : [] }
        var ids = Set<String>()
        for table in ["tasks", "flows", "focus_sessions", "logins", "moods"] {
            let statement = try database.prepare(
                """
                WITH RECURSIVE seen(id) AS (
                    SELECT min(user_id) FROM \(table)
                    UNION ALL
                    SELECT (SELECT min(user_id) FROM \(table) WHERE user_id > seen.id) FROM seen
                    WHERE seen.id IS NOT NULL)
                SELECT id FROM seen WHERE id IS NOT NULL
                """)
            while try statement.step() { ids.insert(statement.string(0)) }
        }
        return ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether the id has a `users` record or any activity record (for `--user`).
    func hasAnything(_ userId: String) throws -> Bool {
        let statement = try database.prepare(
            """
            SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1) OR EXISTS (SELECT 1 FROM tasks WHERE user_id = ?1)
                OR EXISTS (SELECT 1 FROM flows WHERE user_id = ?1)
                OR EXISTS (SELECT 1 FROM focus_sessions WHERE user_id = ?1)
                OR EXISTS (SELECT 1 FROM logins WHERE user_id = ?1) OR EXISTS (SELECT 1 FROM moods WHERE user_id = ?1)
            """)
        try statement.bind([.text(userId)])
        return try statement.step() && statement.int64(0) != 0
    }

    /// Replaces `records` with the records of `userId`.
    func read(_ userId: String, into records: inout HabitsUserRecords) throws {
        let key: [SQLValue] = [.text(userId)]
        records.userId = userId
        try user.bind(key)
        records.isKnown = try user.step()
        records.timezone = records.isKnown ? user.stringOrNil(0) : nil
        user.reset()

        try tasks.bind(key)
        try flows.bind(key)
        try sessions.bind(key)
        try logins.bind(key)
        try moods.bind(key)
        try records.collect(tasks: tasks, flows: flows, sessions: sessions, logins: logins, moods: moods)
    }
}

extension HabitsUserRecords {
    /// Reads the five record lists of one user from statements already bound to that user: the
    /// column layouts the whole-history reader and the window reader share.
    mutating func collect(
        tasks: Statement, flows: Statement, sessions: Statement, logins: Statement, moods: Statement
    ) throws {
        self.tasks.removeAll(keepingCapacity: true)
        while try tasks.step() {
            self.tasks.append(
                .init(
                    date: tasks.day(0) ?? Day(ordinal: 0), done: tasks.int64(1) != 0,
                    completedAt: tasks.int64OrNil(2)))
        }

        self.flows.removeAll(keepingCapacity: true)
        while try flows.step() {
            let id = flows.string(0)
            let context = flows.stringOrNil(9)
            if let last = self.flows.indices.last, self.flows[last].id == id {
                if let context { self.flows[last].contexts.append(context) }
                continue
            }
            self.flows.append(
                .init(
                    id: id, date: flows.day(1) ?? Day(ordinal: 0), done: flows.int64(2) != 0,
                    stepsTotal: flows.int64(3), stepsDone: flows.int64(4), estimatedMinutes: flows.doubleOrNil(5) ?? 0,
                    realisedMinutes: flows.doubleOrNil(6) ?? 0, streakDay: flows.int64OrNil(7),
                    completedAt: flows.int64OrNil(8), contexts: context.map { [$0] } ?? []))
        }

        self.sessions.removeAll(keepingCapacity: true)
        while try sessions.step() {
            self.sessions.append(
                .init(
                    id: sessions.string(0), startedAt: sessions.int64(1),
                    totalSeconds: sessions.int64(2), remainingSeconds: sessions.int64(3),
                    endedAt: sessions.int64OrNil(4)))
        }

        self.logins.removeAll(keepingCapacity: true)
        while try logins.step() { self.logins.append(logins.int64(0)) }

        self.moods.removeAll(keepingCapacity: true)
        while try moods.step() {
            self.moods.append(.init(date: moods.day(0) ?? Day(ordinal: 0), mood: Int(moods.int64(1))))
        }
    }
}
