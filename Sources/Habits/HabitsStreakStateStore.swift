import Store
import Time

/// A user's cached walk state and what the overlap check needs from the sessions before it.
struct HabitsCachedState: Sendable, Equatable {
    var walk: HabitsWalkState
    /// The latest interval end (`HabitsQuality.intervalEnd`) of the user's non-empty sessions
    /// started before `HabitsWindow.start(after: walk.throughDay)`; nil: none.
    var latestSessionEnd: Int64?
}

/// Reads and writes `habits_streak_state` (schema step 2) for one `--day-start`.
///
/// Loading takes, per user, the cached state if it is before the period (a report resumes only
/// from a day before its first). Saving happens after the report's read transaction, in a write
/// transaction of its own, and only if no other connection committed a write since before the
/// read began and none is writing now (`Database.transaction(ifUnchangedSince:)`): otherwise the
/// states could describe data an import has changed since, after its triggers ran. Once the save
/// holds the write lock, a writer waits for it, so its triggers run after the saved states exist
/// and invalidate them. The cache is an optimisation, so a database that cannot be written
/// (read-only, locked) only costs the next report a longer read; the report still succeeds.
struct HabitsStreakStateStore {
    /// How many days before the period's last day a report saves its checkpoint. An import of
    /// the next night's files invalidates states from a few days before their records' days
    /// (three, see `HabitsStreakStateSchema`); a week keeps the checkpoint clear of that and of
    /// files that arrive a few days late, so the next night's report resumes from it and reads
    /// about eight days per user.
    static let checkpointLag = 7

    let database: Database
    let dayStartMinutes: Int
    /// The store's commits when the report began reading.
    private let readToken: ChangeToken

    init(database: Database, dayStartMinutes: Int) throws {
        self.database = database
        self.dayStartMinutes = dayStartMinutes
        readToken = try database.changeToken()
    }

    /// The states before `first`, by the bytes of the user id (inside the report's read
    /// transaction): a String key would take an NFC and an NFD spelling of a name for one user.
    func load(before first: Day) throws -> [[UInt8]: HabitsCachedState] {
        let statement = try database.prepare(
            """
            SELECT user_id, through_day, last_record_day, consistency, last_active_day, run, best_streak,
                   best_start, best_end, latest_session_end_us
            FROM habits_streak_state WHERE day_start = ?1 AND through_day < ?2
            """)
        try statement.bind([.integer(Int64(dayStartMinutes)), .integer(Int64(first.ordinal))])
        var states: [[UInt8]: HabitsCachedState] = [:]
        while try statement.step() {
            let walk = HabitsWalkState(
                throughDay: Int(statement.int64(1)), lastRecordDay: statement.int64OrNil(2).map { Int($0) },
                consistency: statement.double(3), lastActiveDay: statement.int64OrNil(4).map { Int($0) },
                run: Int(statement.int64(5)), bestStreak: Int(statement.int64(6)),
                bestStart: statement.int64OrNil(7).map { Day(ordinal: Int($0)) },
                bestEnd: statement.int64OrNil(8).map { Day(ordinal: Int($0)) })
            states[Array(statement.string(0).utf8)] = HabitsCachedState(
                walk: walk, latestSessionEnd: statement.int64OrNil(9))
        }
        return states
    }

    /// Saves the checkpoints, each replacing an older state of its user; skipped when another
    /// connection wrote since `init` or the database cannot be written now.
    func save(_ checkpoints: [(userId: String, state: HabitsCachedState)]) {
        guard !checkpoints.isEmpty else { return }
        _ = try? database.transaction(ifUnchangedSince: readToken) {
            // Many states a statement: a round trip each is what a server charges for ten thousand.
            let rows = checkpoints.compactMap { userId, cached -> [SQLValue]? in
                let walk = cached.walk
                guard let throughDay = walk.throughDay else { return nil }
                return [
                    .text(userId), .integer(Int64(dayStartMinutes)), .integer(Int64(throughDay)),
                    Self.optional(walk.lastRecordDay), .real(walk.consistency), Self.optional(walk.lastActiveDay),
                    .integer(Int64(walk.run)), .integer(Int64(walk.bestStreak)),
                    Self.optional(walk.bestStart?.ordinal), Self.optional(walk.bestEnd?.ordinal),
                    cached.latestSessionEnd.map(SQLValue.integer) ?? .null,
                ]
            }
            var statements: [Int: Statement] = [:]
            for start in stride(from: 0, to: rows.count, by: Self.rowsPerStatement) {
                let chunk = rows[start..<min(start + Self.rowsPerStatement, rows.count)]
                if statements[chunk.count] == nil {
                    statements[chunk.count] = try database.prepare(Self.upsert(rows: chunk.count))
                }
                let upsert = statements[chunk.count]!
                try upsert.bind(chunk.flatMap { $0 })
                try upsert.run()
            }
        }
    }

    static let rowsPerStatement = 64

    /// The upsert of `rows` states (11 values each), a state replacing only an older one of its user.
    private static func upsert(rows: Int) -> String {
        let values = (0..<rows).map { row in
            "(" + (1...11).map { "?\(row * 11 + $0)" }.joined(separator: ", ") + ")"
        }
        return """
            INSERT INTO habits_streak_state (user_id, day_start, through_day, last_record_day, consistency,
                last_active_day, run, best_streak, best_start, best_end, latest_session_end_us)
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (user_id, day_start) DO UPDATE SET through_day = excluded.through_day,
                last_record_day = excluded.last_record_day, consistency = excluded.consistency,
                last_active_day = excluded.last_active_day, run = excluded.run,
                best_streak = excluded.best_streak, best_start = excluded.best_start,
                best_end = excluded.best_end, latest_session_end_us = excluded.latest_session_end_us
            WHERE excluded.through_day > habits_streak_state.through_day
            """
    }

    private static func optional(_ number: Int?) -> SQLValue { number.map { .integer(Int64($0)) } ?? .null }
}
