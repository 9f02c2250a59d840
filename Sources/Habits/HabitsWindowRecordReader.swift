import Store
import Time

/// Reads the records of users that can land on the days after their cached state
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
/// id), so sums come out in the same order as the full read. Users are read in batches
/// (`read(batch:)`): those whose states end on the same day share a window and six queries.
final class HabitsWindowRecordReader {
    /// The reads of a list of users sharing one window (`idsPerQuery` ids, then the window's
    /// dates and instants).
    private let statements: HabitsBatchStatements

    /// How a window query names its users: a list of ids on SQLite, one array on PostgreSQL.
    let naming: HabitsIdNaming

    /// How many users a window query names at most (`HabitsBatching.idsPerWindowQuery`). A list,
    /// not a range, so that each user's rows are found by a seek of the `(user_id, date)` and
    /// `(user_id, completed_at_us)` indexes; a range of ids would read every completed task of
    /// those users to find the window's few.
    let idsPerQuery: Int

    // Tasks and flows take the dates then the instants after the ids; sessions and logins the
    // instants, moods the dates (every placeholder is used: PostgreSQL types each by its use).

    /// A window's tasks (the ids, then the first and last date, then the first and end instant):
    /// those dated in it, or done in it. One disjunction, each side naming the ids, rather than a
    /// union of two selects: SQLite reads it as the union of two index searches (`MULTI-INDEX OR`
    /// of `tasks_user_date` and `tasks_user_completed`), PostgreSQL as a `BitmapOr` of the same
    /// indexes, and Citus runs it whole on the workers of the ids' shards, where a union was two
    /// distributed subplans gathered on the coordinator first (about 80 ms a list of 64 ids on the
    /// test cluster; `HabitsCitusPlanTests`). Rows by user (the order of a user's tasks does not
    /// matter: they are counted).
    static func tasksSQL(_ naming: HabitsIdNaming) -> String {
        let ids = naming.condition("user_id"), n = naming.placeholders
        return """
            SELECT user_id, date, state = 'terminee', completed_at_us FROM tasks
            WHERE (\(ids) AND date BETWEEN ?\(n + 1) AND ?\(n + 2))
               OR (\(ids) AND state = 'terminee' AND completed_at_us IS NOT NULL
                   AND completed_at_us >= ?\(n + 3) AND completed_at_us < ?\(n + 4))
            ORDER BY 1
            """
    }

    /// A window's flows with their contexts, as `tasksSQL` (a disjunction, not `id IN (a union)`,
    /// which Citus planned as three subplans: about 115 ms a list of 64 ids), by user, flow id and
    /// context position. Unlike `HabitsRecordReader.flowsSQL` (whole histories, a range of users)
    /// the contexts are not also asked by the list of ids: a window's few flows find theirs by a
    /// probe each of `(flow_id, position)` (a nested loop), where with the list a Citus worker
    /// read every context of the 128 users (about 20,000 rows) into a hash join, 12-20 ms a list
    /// at scale 1 against 5-6 ms (still a router query: Citus places both tables by `user_id`).
    static func flowsSQL(_ naming: HabitsIdNaming) -> String {
        let ids = naming.condition("f.user_id"), n = naming.placeholders
        return """
            SELECT f.user_id, f.id, f.date, f.etat = 'termine', f.steps_total, f.steps_done,
                   f.temps_estime, f.temps_realise, f.streak_day, f.completed_at_us, c.context
            FROM flows f LEFT JOIN flow_contexts c ON c.user_id = f.user_id AND c.flow_id = f.id AND f.etat = 'termine'
            WHERE (\(ids) AND f.date BETWEEN ?\(n + 1) AND ?\(n + 2))
               OR (\(ids) AND f.etat = 'termine' AND f.completed_at_us IS NOT NULL
                   AND f.completed_at_us >= ?\(n + 3) AND f.completed_at_us < ?\(n + 4))
            ORDER BY f.user_id, f.id, c.position
            """
    }

    init(database: Database, ids n: Int) throws {
        idsPerQuery = n
        naming = HabitsIdNaming(database.kind, ids: n)
        let ids = naming.condition("user_id"), k = naming.placeholders
        let firstDate = "?\(k + 1)", lastDate = "?\(k + 2)", onlyStart = "?\(k + 1)", onlyEnd = "?\(k + 2)"
        let users = try database.prepare(
            readingWhole: "SELECT id, timezone FROM users WHERE \(naming.condition("id")) ORDER BY id")
        let tasks = try database.prepare(readingWhole: Self.tasksSQL(naming))
        let flows = try database.prepare(readingWhole: Self.flowsSQL(naming))
        let sessions = try database.prepare(
            readingWhole:
                """
                SELECT user_id, id, started_at_us, total_seconds, remaining_seconds, ended_at_us FROM focus_sessions
                WHERE \(ids) AND started_at_us >= \(onlyStart) AND started_at_us < \(onlyEnd)
                ORDER BY user_id, started_at_us, id
                """)
        let logins = try database.prepare(
            readingWhole:
                """
                SELECT user_id, at_us FROM logins WHERE \(ids) AND at_us >= \(onlyStart) AND at_us < \(onlyEnd)
                ORDER BY user_id, at_us
                """)
        let moods = try database.prepare(
            readingWhole:
                """
                SELECT user_id, date, mood FROM moods WHERE \(ids) AND date BETWEEN \(firstDate) AND \(lastDate)
                ORDER BY user_id
                """)
        statements = HabitsBatchStatements(
            users: users, tasks: tasks, flows: flows, sessions: sessions, logins: logins, moods: moods)
    }
}

/// How a window query names its users (`HabitsWindowRecordReader`).
///
/// On SQLite a list of `n` placeholders, `user_id IN (?1, …?n)`, the ids padded with the last one
/// (one prepared statement for every list). On PostgreSQL and Citus one parameter, an array of the
/// ids, `user_id = ANY(?1)`: the server infers `text[]` from the column, and neither it nor a Citus
/// worker parses, types and plans a hundred literals each time (on the Citus lab cluster, a flows
/// query of 66 users padded to 128: 3.3 ms against 4.4 ms, `pgbench`; the list was named twice).
/// Citus still routes it to the shard of its users: each execution is planned with the array's
/// value (`HabitsCitusPlanTests`).
enum HabitsIdNaming: Equatable {
    case list(Int)
    case array

    init(_ kind: StoreKind, ids n: Int) {
        switch kind {
        case .sqlite: self = .list(n)
        case .postgresql: self = .array
        }
    }

    /// The placeholders the ids take (the window's dates and instants follow).
    var placeholders: Int {
        switch self {
        case .list(let n): n
        case .array: 1
        }
    }

    /// `column IN (?1, …?n)` or `column = ANY(?1)`.
    func condition(_ column: String) -> String {
        switch self {
        case .list(let n): "\(column) IN (" + (1...n).map { "?\($0)" }.joined(separator: ", ") + ")"
        case .array: "\(column) = ANY(?1)"
        }
    }

    /// The parameters naming `ids` (at least one, at most the list's length).
    func parameters(_ ids: [String]) -> [SQLValue] {
        switch self {
        case .list(let n):
            let listed = ids.map { SQLValue.text($0) }
            return listed + Array(repeating: listed[listed.count - 1], count: n - listed.count)
        case .array:
            return [.postgresTextArray(ids)]
        }
    }
}

extension HabitsWindowRecordReader {
    /// Fills `records[i]` with the window of `ids[i]` (in byte order) after `states[i]` through
    /// `last`, for the users whose windows can give the full read's figures; returns their indices.
    /// The others need their whole history: no state, a session open since before the window
    /// (the overlap check needs it), or no `users` record (`unknown_user` counts their whole
    /// history). `shards[i]` is the shard of `ids[i]` where the tables are distributed
    /// (`Database.shards`), nil elsewhere (`lists`).
    func read(
        batch ids: [String], states: [HabitsCachedState?], shards: [Int64]? = nil, through last: Day,
        into records: inout [HabitsUserRecords]
    ) throws -> Set<Int> {
        let days = states.map { state -> Int? in
            guard let state else { return nil }
            let throughDay = state.walk.throughDay ?? 0
            if let end = state.latestSessionEnd, end > HabitsWindow.start(after: throughDay) { return nil }
            return throughDay
        }
        var read = Set<Int>()
        for (throughDay, members) in Self.lists(days: days, shards: shards, idsPerQuery: idsPerQuery) {
            guard let batch = HabitsBatch(ids: ids, wanted: members, resetting: &records) else { continue }
            let window = HabitsWindow(after: throughDay, through: last)
            let list = naming.parameters(members.map { ids[$0] })
            let dates: [SQLValue] = [.day(Day(ordinal: window.firstDay)), .day(last)]
            let instants: [SQLValue] = [.integer(window.startMicroseconds), .integer(window.endMicroseconds)]
            try statements.read(
                batch, into: &records, users: list, tasks: list + dates + instants, flows: list + dates + instants,
                sessions: list + instants, logins: list + instants, moods: list + dates)
            for index in members where records[index].isKnown { read.insert(index) }
        }
        return read
    }

    /// The lists of users a window's queries name, in order: users of one state day (`days[i]`, nil
    /// for a user that needs the whole history) and, where the tables are distributed, of one
    /// shard (`shards[i]`), at most `idsPerQuery` each, of even lengths (130 users: 65 and 65, not
    /// 128 and 2), each in the order of `ids`.
    ///
    /// One shard a list makes each query one Citus routes to the worker holding it. A list spread
    /// over every shard was planned on each shard with the whole list: 50 ms a list of 128 ids on
    /// the test cluster, 80% of the nightly's day report at scale 1.
    static func lists(days: [Int?], shards: [Int64]?, idsPerQuery: Int) -> [(day: Int, members: [Int])] {
        struct Group: Hashable, Comparable {
            let day: Int
            let shard: Int64
            static func < (a: Group, b: Group) -> Bool { (a.day, a.shard) < (b.day, b.shard) }
        }
        var groups: [Group: [Int]] = [:]
        for (index, day) in days.enumerated() {
            guard let day else { continue }
            groups[Group(day: day, shard: shards?[index] ?? 0), default: []].append(index)
        }
        var lists: [(day: Int, members: [Int])] = []
        for (key, group) in groups.sorted(by: { $0.key < $1.key }) {
            let count = (group.count + idsPerQuery - 1) / idsPerQuery
            for part in 0..<count {
                lists.append((key.day, Array(group[(part * group.count / count)..<((part + 1) * group.count / count)])))
            }
        }
        return lists
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
