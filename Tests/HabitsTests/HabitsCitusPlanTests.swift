import ReportTestSupport
@testable import Store
import XCTest

@testable import Habits

/// Issue 29 item 5, habits: on a Citus cluster (tables laid out as `report distribute` does), the
/// question "has this user anything" (`--user`) goes to the one worker of that user's shard, and
/// the read of a range of users' flows with their contexts, a join of two tables colocated by
/// user, runs whole on each worker, as do the reads of a window of the days after a cached state
/// (the nightly's day report). Only in the Citus pass.
final class HabitsCitusPlanTests: XCTestCase {
    func testOneUsersQueryIsARouterQueryAndTheFlowsJoinRunsOnTheWorkers() throws {
        try CitusPlan.requireCitus()
        let store = try HabitsTestStore()
        try store.user("u1", timezone: "Europe/Paris")
        try store.task("t1", date: "2026-11-01")
        try store.flow("f1", date: "2026-11-01", steps: [true])

        let one = try CitusPlan.explain(store.database, HabitsRecordReader.hasAnythingSQL, [.text("u1")])
        XCTAssertEqual(CitusPlan.taskCount(one), 1, one)
        XCTAssertTrue(CitusPlan.isPushedDownWhole(one), one)

        let flows = try CitusPlan.explain(store.database, HabitsRecordReader.flowsSQL, [.text("a"), .text("z")])
        XCTAssertTrue(CitusPlan.isPushedDownWhole(flows), flows)
        // The join is in each worker's plan: it names the shards of both tables.
        XCTAssertTrue(flows.contains(" flows_") && flows.contains(" flow_contexts_"), flows)
    }

    /// The whole history of one user (in a resumed report, most of the few read whole) is read
    /// with an equality, which Citus routes to one worker; a range, even of one id, goes to every
    /// shard.
    func testOneUsersWholeHistoryIsARouterQuery() throws {
        try CitusPlan.requireCitus()
        let store = try HabitsTestStore()
        try store.user("u1", timezone: "Europe/Paris")
        try store.task("t1", date: "2026-11-01")
        for sql in HabitsRecordReader.sql(range: HabitsRecordReader.oneUser) {
            let plan = try CitusPlan.explain(store.database, sql, [.text("u1")])
            XCTAssertEqual(CitusPlan.taskCount(plan), 1, plan)
        }
        for sql in HabitsRecordReader.sql(range: HabitsRecordReader.idRange) {
            let plan = try CitusPlan.explain(store.database, sql, [.text("u1"), .text("u1")])
            XCTAssertGreaterThan(CitusPlan.taskCount(plan) ?? 0, 1, plan)
        }
    }

    /// The window reads of a batch of users (`HabitsWindowRecordReader`): tasks and flows dated
    /// or done in the window, each one query the workers of the ids' shards answer whole (as a
    /// union they were distributed subplans gathered on the coordinator first).
    func testAWindowsTasksAndFlowsRunWholeOnTheWorkers() throws {
        try CitusPlan.requireCitus()
        let store = try HabitsTestStore()
        try store.user("u1", timezone: "Europe/Paris")
        try store.task("t1", date: "2026-11-01")
        try store.flow("f1", date: "2026-11-01", steps: [true])

        let n = HabitsBatching.standard.idsPerWindowQuery
        let ids = HabitsIdNaming.array.parameters((1...n).map { "u\($0)" })
        let window: [SQLValue] = [
            .text("2026-11-01"), .text("2026-11-02"), .integer(1_761_868_800_000_000), .integer(1_762_300_800_000_000),
        ]
        for sql in [HabitsWindowRecordReader.tasksSQL(.array), HabitsWindowRecordReader.flowsSQL(.array)] {
            let plan = try CitusPlan.explain(store.database, sql, ids + window)
            XCTAssertTrue(CitusPlan.isPushedDownWhole(plan), plan)
        }
    }

    /// A window list names users of one shard (`Database.shards`): Citus routes its query to the
    /// one worker holding them, where a list spread over the shards was planned and run on every
    /// shard with the whole list. On SQLite and single PostgreSQL there are no shards (nil).
    func testAWindowListOfOneShardsUsersIsARouterQuery() throws {
        let store = try HabitsTestStore()
        try store.user("u1", timezone: "Europe/Paris")
        try store.flow("f1", date: "2026-11-01", steps: [true])
        let ids = (1...400).map { "u\($0)" }
        guard TestStore.isCitus else { return XCTAssertNil(try store.database.shards(of: ids, in: "users")) }
        let shards = try XCTUnwrap(try store.database.shards(of: ids, in: "users"))
        XCTAssertEqual(shards.count, ids.count)
        XCTAssertEqual(try store.database.shards(of: [], in: "users"), [])
        let byShard = Dictionary(grouping: ids.indices, by: { shards[$0] })
        XCTAssertGreaterThan(byShard.count, 1, "400 users in one shard")
        // The shard named is the one Citus itself routes a user's row to.
        let placed = try store.database.rows(
            "SELECT get_shard_id_for_distribution_column('users', 'u1')"
        ).first?.first?.int
        XCTAssertEqual(shards[0], placed)
        // Ids with quotes, backslashes and control characters are bound as they are.
        let odd = ["a\"b", "c\\d", "e\nf\u{1}", "é😀"]
        let expected = try odd.map { id in
            try store.database.rows("SELECT get_shard_id_for_distribution_column('users', ?::text)", [.text(id)])
                .first?.first?.int
        }
        XCTAssertEqual(try store.database.shards(of: odd, in: "users"), expected.compactMap { $0 })
        XCTAssertEqual(expected.compactMap { $0 }.count, odd.count)

        let n = HabitsBatching.standard.idsPerWindowQuery
        let window: [SQLValue] = [
            .text("2026-11-01"), .text("2026-11-02"), .integer(1_761_868_800_000_000), .integer(1_762_300_800_000_000),
        ]
        let oneShard = byShard.values.max(by: { $0.count < $1.count })!.prefix(n).map { ids[$0] }
        let spread = Array(ids.prefix(n))
        for sql in [HabitsWindowRecordReader.tasksSQL(.array), HabitsWindowRecordReader.flowsSQL(.array)] {
            let routed = try CitusPlan.explain(store.database, sql, HabitsIdNaming.array.parameters(oneShard) + window)
            XCTAssertEqual(CitusPlan.taskCount(routed), 1, routed)
            let everywhere = try CitusPlan.explain(
                store.database, sql, HabitsIdNaming.array.parameters(spread) + window)
            XCTAssertEqual(CitusPlan.taskCount(everywhere), byShard.count, everywhere)
        }
        // The reader's statements are prepared once and run for every list: each run is planned
        // with its array (a generic plan could not know the shard), and routed. The first run is not
        // prepared on the server (`PostgresStatement`), the seven after it are.
        let tasks = try store.database.prepare(readingWhole: HabitsWindowRecordReader.tasksSQL(.array))
        for _ in 1...8 {
            try tasks.bind(HabitsIdNaming.array.parameters(oneShard) + window)
            try tasks.run()
        }
        let plans = try store.database.rows(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%FROM tasks%'")
        XCTAssertEqual(plans.first?.map(\.int), [0, 7], "\(plans)")
    }

    /// On PostgreSQL a window query names its users by one array (`HabitsIdNaming`), in the text
    /// form the server reads, on SQLite by a list: any id, however odd, names that user and no other.
    func testAWindowsArrayOfIdsNamesEachUserAsItIs() throws {
        XCTAssertEqual(SQLValue.postgresTextArray([]), .text("{}"))
        XCTAssertEqual(SQLValue.postgresTextArray(["a", "b c"]), .text(#"{"a","b c"}"#))
        XCTAssertEqual(SQLValue.postgresTextArray(["a\"b", "c\\d"]), .text(#"{"a\"b","c\\d"}"#))
        XCTAssertEqual(
            HabitsIdNaming.list(4).parameters(["a", "b"]), [.text("a"), .text("b"), .text("b"), .text("b")])
        XCTAssertEqual(HabitsIdNaming(.sqlite, ids: 3), .list(3))
        XCTAssertEqual(HabitsIdNaming(.postgresql, ids: 3), .array)
        XCTAssertEqual(HabitsIdNaming.list(2).condition("id"), "id IN (?1, ?2)")

        let store = try HabitsTestStore()
        let odd = ["a\"b", "c\\d", "e,f", "{g}", "NULL", " h ", "i\nj\u{1}", "é😀", "k'l", "m\\"]
        for id in odd + ["other", "NUL", "null"] { try store.user(id) }
        // On SQLite the same ids as a list.
        let naming = HabitsIdNaming(store.database.kind, ids: odd.count + 1)
        let named = try store.database.rows(
            "SELECT id FROM users WHERE \(naming.condition("id")) ORDER BY id", naming.parameters(odd + ["absent"])
        ).compactMap { $0.first?.string }
        XCTAssertEqual(named, odd.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// The lists a window's queries name (`HabitsWindowRecordReader.lists`), on every backend:
    /// each list one state day and one shard, at most `idsPerQuery` users, of even lengths, in
    /// the batch's order; every resumable user in exactly one list, the others in none.
    func testAWindowsListsAreOfOneDayAndOneShardEach() {
        let days: [Int?] = (0..<300).map { $0 % 50 == 7 ? nil : 20_000 + ($0 % 2) }
        let shards: [Int64] = (0..<300).map { Int64(102_008 + ($0 * 7) % 3) }
        let lists = HabitsWindowRecordReader.lists(days: days, shards: shards, idsPerQuery: 32)
        XCTAssertEqual(lists.flatMap(\.members).sorted(), days.indices.filter { days[$0] != nil })
        for list in lists {
            XCTAssertLessThanOrEqual(list.members.count, 32)
            XCTAssertEqual(list.members, list.members.sorted())
            XCTAssertEqual(Set(list.members.map { days[$0] }), [list.day])
            XCTAssertEqual(Set(list.members.map { shards[$0] }).count, 1, "\(list.members)")
        }
        // 2 days × 3 shards, about 49 users each: two lists of 24 or 25 each, never 32 and 17.
        XCTAssertEqual(lists.count, 12)
        XCTAssertEqual(Set(lists.map(\.members.count)), [24, 25])

        let unsharded = HabitsWindowRecordReader.lists(days: days, shards: nil, idsPerQuery: 128)
        XCTAssertEqual(unsharded.map(\.day), [20_000, 20_000, 20_001, 20_001])
        // 150 users of the first day, 144 of the second (the six without a window are odd).
        XCTAssertEqual(unsharded.map(\.members.count), [75, 75, 72, 72])
    }

    /// A store whose `logins` hold 2,000 rows of 100 users (`u000` to `u099`).
    private static func storeWithLogins() throws -> HabitsTestStore {
        let store = try HabitsTestStore()
        try store.database.execute(
            "INSERT INTO logins (user_id, at_us, import_seq) "
                + "SELECT 'u' || lpad((i % 100)::text, 3, '0'), 1700000000000000 + i, 1 FROM generate_series(1, 2000) i"
        )
        return store
    }

    /// The rows each distributed scan of an `EXPLAIN ANALYZE` brought back (its `Custom Scan (Citus
    /// Adaptive)` lines).
    private static func rowsOfDistributedScans(_ plan: some Sequence<String>) -> [Int] {
        plan.filter { $0.contains("Custom Scan (Citus Adaptive)") }.compactMap { line in
            line.split(separator: "rows=").last.flatMap { Int($0.prefix { $0.isNumber }) }
        }
    }

    /// The delete of an import's merge (`stagedKeyDelete`) first asks whether the table holds a
    /// row between the staged keys' bounds. Citus runs that question as a subplan whose result it
    /// ships to the workers: it must come back with one row a shard at most, not every row in the
    /// bounds (with the bounds spanning nearly every user, it shipped 942,544 logins back and forth
    /// at each flush of the habits profile at scale 1: 143 s of a 235 s import). Only in the Citus pass.
    func testAnImportsMergeAsksEachShardForOneRowOnly() throws {
        try CitusPlan.requireCitus()
        let store = try Self.storeWithLogins()
        let plan: [String] = try store.database.transaction {
            try store.database.execute(
                "CREATE TEMP TABLE report_stage_logins ON COMMIT DROP AS SELECT user_id, at_us, "
                    + "0::bigint AS report_stage_seq FROM logins WITH NO DATA; "
                    + "INSERT INTO report_stage_logins VALUES ('u000', 1, 1), ('u099', 2, 2)")
            let sql = stagedKeyDelete("logins", key: ["user_id", "at_us"], keyStaging: "report_stage_logins")
            return try store.database.rows("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql).compactMap {
                $0.first?.string
            }
        }
        // The distributed scans inside the subplans (the first line is the delete's own).
        let scanned = Self.rowsOfDistributedScans(plan.dropFirst())
        XCTAssertFalse(scanned.isEmpty, plan.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(scanned.max() ?? .max, 8, plan.joined(separator: "\n"))
        XCTAssertEqual(
            try store.database.scalarInt("SELECT count(*) FROM logins"), 2000, "no staged key was in the table")
    }

    /// An import's transaction first asks whether each table it writes holds any row
    /// (`PostgresConnection.isEmptyQuery`, whence `StagedKeys`). Citus runs that question's subquery
    /// as a subplan whose rows it brings to the coordinator: one row a shard at most, not the whole
    /// table (every row of it, at every file of every import, was 2.2 s a file for the fleet
    /// profile's 2,387,438 impacts). Only in the Citus pass.
    func testAnImportsEmptinessProbeAsksEachShardForOneRowOnly() throws {
        try CitusPlan.requireCitus()
        let store = try Self.storeWithLogins()
        let sql = PostgresConnection.isEmptyQuery("logins")
        XCTAssertEqual(try store.database.scalarInt(sql), 0, "logins holds rows")
        XCTAssertEqual(try store.database.scalarInt(PostgresConnection.isEmptyQuery("moods")), 1, "moods holds none")
        let plan = try store.database.rows("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql).compactMap {
            $0.first?.string
        }
        let scanned = Self.rowsOfDistributedScans(plan)
        XCTAssertGreaterThanOrEqual(scanned.count, 2, plan.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(scanned.max() ?? .max, 8, plan.joined(separator: "\n"))
    }

    /// On a single PostgreSQL server, a read of a range of users' flows (a batch of the year
    /// report) searches the contexts' key (led by `user_id`, habits step 7) for its users: the
    /// plan PostgreSQL costs right at any size. Without the users said of the contexts too, it had
    /// only a scan of every context or a probe per flow to choose from, and for a cursor planned
    /// for all its rows it chose the scan (0.2 s a batch of 64 users at the habits profile's scale
    /// 1, against 26 ms). A window's few flows probe their contexts one by one instead
    /// (`HabitsWindowRecordReader.flowsSQL`). On the few rows of a test the planner prefers scans
    /// whatever the indexes, so scans and nested loops are costed out here: what is left shows
    /// whether the search exists. Only in the PostgreSQL pass.
    func testOnPostgreSQLAFlowsReadSearchesTheContextsOfItsUsers() throws {
        guard TestStore.backend == .postgresql, !TestStore.isCitus else {
            throw XCTSkip("the single PostgreSQL server's pass only")
        }
        let store = try HabitsTestStore()
        try store.user("u1", timezone: "Europe/Paris")
        try store.flow("f1", date: "2026-11-01", steps: [true])
        try store.database.execute("SET enable_seqscan = off; SET enable_nestloop = off")
        let plan = try store.database.rows("EXPLAIN " + HabitsRecordReader.flowsSQL, [.text("a"), .text("z")])
            .compactMap { $0.first?.string }
        // The line after the key's scan is its condition: the users, searched for.
        let key = plan.firstIndex { $0.contains("flow_contexts_pkey") }
        let searched = key.flatMap { $0 + 1 < plan.count ? plan[$0 + 1] : nil } ?? ""
        XCTAssertTrue(searched.contains("Index Cond: ((user_id >= "), plan.joined(separator: "\n"))
    }

    /// On SQLite the same window reads are the union of two index searches (the dated rows by
    /// `(user_id, date)`, the done ones by `(user_id, completed_at_us)`), never a read of every
    /// row of the users, which a window exists to avoid. Only in the SQLite pass.
    func testOnSQLiteAWindowsReadsSearchTwoIndexes() throws {
        guard TestStore.backend == .sqlite else { throw XCTSkip("the SQLite pass only") }
        let store = try HabitsTestStore()
        try store.user("u1", timezone: "Europe/Paris")
        let n = HabitsBatching.standard.idsPerWindowQuery
        let ids = (1...n).map { SQLValue.text("u\($0)") }
        let window: [SQLValue] = [.text("2026-11-01"), .text("2026-11-02"), .integer(0), .integer(1)]
        for (sql, table) in [
            (HabitsWindowRecordReader.tasksSQL(.list(n)), "tasks"),
            (HabitsWindowRecordReader.flowsSQL(.list(n)), "flows"),
        ] {
            let plan = try store.database.rows("EXPLAIN QUERY PLAN " + sql, ids + window)
                .compactMap { $0.last?.string }.joined(separator: "\n")
            XCTAssertTrue(plan.contains("MULTI-INDEX OR"), plan)
            XCTAssertTrue(plan.contains("INDEX \(table)_user_date (user_id=? AND date>? AND date<?)"), plan)
            XCTAssertTrue(plan.contains("INDEX \(table)_user_completed (user_id=? AND completed_at_us>?"), plan)
        }
    }
}
