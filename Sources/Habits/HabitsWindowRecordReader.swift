import Store
import Time

/// Reads the records of one user that can land on the days after a cached state
/// (`HabitsWalkState.throughDay`) through the period's last day: the few days a report resumed
/// from `habits_streak_state` walks, instead of the user's whole history.
///
/// What "can land" means: a record's day is its `date`, or the day of an instant in the user's
/// zone with the day start, which is between the instant's UTC day − 2 and + 1. So the window
/// takes dates from the first day after the state through the last, and instants from UTC
/// midnight of `throughDay − 2` (`HabitsWindow.startMicroseconds`) to UTC midnight three days after
/// the last. Records outside the window land on days the walk skips or never reaches; records
/// inside it but on skipped days are read and ignored. Done tasks and flows are found by their
/// completion instant too (partial indexes of schema step 2): one dated long ago can be completed
/// in the window. Orders are those of `HabitsRecordReader` (flows by id, sessions by start then
/// id), so sums come out in the same order as the full read.
final class HabitsWindowRecordReader {
    private let user: Statement
    private let tasks: Statement
    private let flows: Statement
    private let sessions: Statement
    private let logins: Statement
    private let moods: Statement

    init(database: Database) throws {
        user = try database.prepare("SELECT timezone FROM users WHERE id = ?")
        tasks = try database.prepare(
            """
            SELECT date, state = 'terminee', completed_at_us FROM tasks
            WHERE user_id = ?1 AND date BETWEEN ?2 AND ?3
            UNION ALL
            SELECT date, state = 'terminee', completed_at_us FROM tasks
            WHERE user_id = ?1 AND state = 'terminee' AND completed_at_us IS NOT NULL
              AND completed_at_us >= ?4 AND completed_at_us < ?5 AND date NOT BETWEEN ?2 AND ?3
            """)
        flows = try database.prepare(
            """
            SELECT f.id, f.date, f.etat = 'termine', f.steps_total, f.steps_done,
                   f.temps_estime, f.temps_realise, f.streak_day, f.completed_at_us, c.context
            FROM flows f LEFT JOIN flow_contexts c ON c.flow_id = f.id AND f.etat = 'termine'
            WHERE f.id IN (
                SELECT id FROM flows WHERE user_id = ?1 AND date BETWEEN ?2 AND ?3
                UNION
                SELECT id FROM flows WHERE user_id = ?1 AND etat = 'termine' AND completed_at_us IS NOT NULL
                  AND completed_at_us >= ?4 AND completed_at_us < ?5)
            ORDER BY f.id, c.position
            """)
        sessions = try database.prepare(
            """
            SELECT id, started_at_us, total_seconds, remaining_seconds, ended_at_us FROM focus_sessions
            WHERE user_id = ?1 AND started_at_us >= ?2 AND started_at_us < ?3 ORDER BY started_at_us, id
            """)
        logins = try database.prepare(
            """
            SELECT at_us FROM logins WHERE user_id = ?1 AND at_us >= ?2 AND at_us < ?3 ORDER BY at_us
            """)
        moods = try database.prepare(
            """
            SELECT date, mood FROM moods WHERE user_id = ?1 AND date BETWEEN ?2 AND ?3
            """)
    }

    /// Replaces `records` with the records of `userId` in the window after `state` through `last`.
    /// Returns false, reading nothing more, when the window cannot give the full read's figures:
    /// a user without a `users` record (`unknown_user` counts their whole history) or one whose
    /// sessions before the window may still be open in it (the overlap check needs them).
    func read(
        _ userId: String, after state: HabitsCachedState, through last: Day,
        into records: inout HabitsUserRecords
    ) throws -> Bool {
        let window = HabitsWindow(after: state.walk.throughDay ?? 0, through: last)
        if let end = state.latestSessionEnd, end > window.startMicroseconds { return false }
        let key = SQLValue.text(userId)
        try user.bind([key])
        records.isKnown = try user.step()
        records.timezone = records.isKnown ? user.stringOrNil(0) : nil
        user.reset()
        guard records.isKnown else { return false }
        records.userId = userId

        let dates: [SQLValue] = [.day(Day(ordinal: window.firstDay)), .day(last)]
        let instants: [SQLValue] = [.integer(window.startMicroseconds), .integer(window.endMicroseconds)]
        try tasks.bind([key] + dates + instants)
        try flows.bind([key] + dates + instants)
        try sessions.bind([key] + instants)
        try logins.bind([key] + instants)
        try moods.bind([key] + dates)
        try records.collect(tasks: tasks, flows: flows, sessions: sessions, logins: logins, moods: moods)
        return true
    }
}

/// The days and instants a resumed walk reads (see `HabitsWindowRecordReader`).
struct HabitsWindow {
    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The first day the walk needs: the one after the state.
    let firstDay: Int
    /// UTC midnight of the state's day − 2: every instant on a later day in any zone is at or after it.
    let startMicroseconds: Int64
    /// UTC midnight three days after `last` (exclusive).
    let endMicroseconds: Int64

    init(after throughDay: Int, through last: Day) {
        firstDay = throughDay + 1
        startMicroseconds = Self.start(after: throughDay)
        endMicroseconds = Int64(last.ordinal + 3) * Self.microsecondsPerDay
    }

    /// Sessions started before this instant are summarised in the state (`latestSessionEnd`).
    static func start(after throughDay: Int) -> Int64 { Int64(throughDay - 2) * microsecondsPerDay }
}
