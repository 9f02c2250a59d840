import Foundation
import ReportTestSupport
import Store
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 29: the Citus test cluster itself (`CitusTestServer`): two active workers, a table made
/// through `report`'s store and distributed, rows written through the store's transaction and
/// writer and read back, shards on both workers, two tests' places independent, and a cluster
/// that stops. Runs in the Citus pass of `make test` (`REPORT_TEST_BACKEND=citus`); skipped in
/// the other passes, and when Citus is not installed and `../shared/citus/install.sh` is absent.
final class CitusClusterTests: XCTestCase {
    private var cluster: CitusTestServer!

    override func setUpWithError() throws {
        guard TestStore.isCitus else { throw XCTSkip("the Citus pass only (REPORT_TEST_BACKEND=citus)") }
        cluster = try CitusTestServer.shared()
    }

    func testTheCoordinatorSeesTwoActiveWorkers() throws {
        let database = try Database(path: cluster.url())
        let ports = try database.rows("SELECT node_name, node_port FROM citus_get_active_worker_nodes()")
        XCTAssertEqual(
            Set(ports.map { "\($0[0].string ?? "?"):\($0[1].int ?? 0)" }),
            Set(cluster.workers.map { "127.0.0.1:\($0.port!)" }))
        XCTAssertEqual(
            try database.scalarInt("SELECT nodeport FROM pg_dist_node WHERE groupid = 0"),
            Int64(cluster.coordinator.port!),
            "the coordinator is registered as itself")
    }

    func testADistributedTableMadeAndFilledThroughTheStore() throws {
        let url = try cluster.freshDatabase(prefix: "smoke")
        let database = try Database(path: url)
        try database.execute(
            "CREATE TABLE visits (user_id bigint NOT NULL, id bigint NOT NULL, label text, PRIMARY KEY (user_id, id))")
        try database.execute("SELECT create_distributed_table('visits', 'user_id')")
        // report's catalogue (current_schema()) sees the table of the test's schema.
        XCTAssertEqual(try database.tableNames(), ["visits"])
        XCTAssertEqual(
            try database.scalarInt("SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'visits'::regclass"), 1)

        try database.transaction {
            for user in 1...20 {
                try database.run("INSERT INTO visits VALUES (?, 1, ?)", [.integer(Int64(user)), .text("a")])
            }
        }
        // The import's path: COPY into a staging table, then delete and insert by key.
        try database.transaction {
            let writer = try database.upsertWriter(
                table: "visits", columns: ["user_id", "id", "label"], key: ["user_id", "id"])
            for user in 1...20 { try writer.write([.integer(Int64(user)), .integer(2), .text("b")]) }
            try writer.write([.integer(1), .integer(1), .text("again")])
        }
        let rows = try database.rows("SELECT user_id, id, label FROM visits ORDER BY user_id, id")
        XCTAssertEqual(rows.count, 40)
        XCTAssertEqual(rows.first?.compactMap(\.string), ["again"])
        XCTAssertEqual(rows.last.map { [$0[0].int, $0[1].int] }, [20, 2])

        // Two shards on each worker, and rows in each worker's shards.
        let placements = try database.rows(
            """
            SELECT p.nodeport, count(*) FROM pg_dist_placement pl JOIN pg_dist_shard s USING (shardid)
            JOIN pg_dist_node p USING (groupid) WHERE s.logicalrelid = 'visits'::regclass GROUP BY 1 ORDER BY 1
            """)
        XCTAssertEqual(Set(placements.compactMap { $0[0].int }), Set(cluster.workers.map { Int64($0.port!) }))
        XCTAssertEqual(placements.compactMap { $0[1].int }, [2, 2])
        let counts = try database.rows(
            "SELECT nodeport, result::bigint FROM run_command_on_placements('visits', 'SELECT count(*) FROM %s')")
        var byPort: [Int64: Int64] = [:]
        for row in counts { byPort[row[0].int ?? 0, default: 0] += row[1].int ?? 0 }
        XCTAssertEqual(byPort.values.reduce(0, +), 40)
        XCTAssertTrue(byPort.values.allSatisfy { $0 > 0 }, "rows on both workers: \(byPort)")
    }

    /// report's own schema steps work in a test's schema and its catalogue reads them there.
    func testTheStoreMigratesInItsSchema() throws {
        let database = try Database(path: try cluster.freshDatabase())
        XCTAssertTrue(try database.isEmpty())
        try Schema.migrate(
            database, [Migration(domain: "smoke", version: 1, sql: "CREATE TABLE things (id text PRIMARY KEY)")])
        XCTAssertFalse(try database.isEmpty())
        XCTAssertTrue(try database.tableExists("things"))
        XCTAssertTrue(try database.tableNames().contains("schema_migrations"))
    }

    func testTwoFreshDatabasesAreIndependent() throws {
        let first = try Database(path: try cluster.freshDatabase())
        let second = try Database(path: try cluster.freshDatabase())
        for (database, rows) in [(first, 1), (second, 3)] {
            try database.execute("CREATE TABLE notes (id bigint PRIMARY KEY)")
            try database.execute("SELECT create_distributed_table('notes', 'id')")
            try database.transaction {
                for id in 1...rows { try database.run("INSERT INTO notes VALUES (?)", [.integer(Int64(id))]) }
            }
        }
        XCTAssertEqual(try first.scalarInt("SELECT count(*) FROM notes"), 1)
        XCTAssertEqual(try second.scalarInt("SELECT count(*) FROM notes"), 3)
        try first.execute("DROP TABLE notes")
        XCTAssertEqual(try first.tableNames(), [])
        XCTAssertEqual(try second.tableNames(), ["notes"])
    }

    /// A cluster of its own (one worker: what stops is the same), stopped: no server process is
    /// left and the folders are gone. The shared cluster is stopped the same way at exit.
    func testStoppingAClusterEndsItsServers() throws {
        let own = try CitusTestServer(name: "stopping", workerCount: 1)
        let pids = own.nodes.compactMap(\.pid)
        XCTAssertEqual(pids.count, 2)
        XCTAssertEqual(
            try Database(path: own.url()).scalarInt("SELECT count(*) FROM citus_get_active_worker_nodes()"), 1)
        own.stop()
        for pid in pids { XCTAssertFalse(Self.isRunning(pid), "server \(pid) still runs") }
        for node in own.nodes { XCTAssertFalse(FileManager.default.fileExists(atPath: node.folder.path)) }
    }

    /// Whether `pid` is a live process (a zombie waiting for its parent is not).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
