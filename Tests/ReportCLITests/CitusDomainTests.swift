import DomainInterface
import Foundation
@testable import Import
import ReportTestSupport
import Store
import XCTest

/// Issue 29 items 2 to 4 through the command line, on the Citus test cluster: the first import
/// lays every domain out as its module says (and `report distribute` then changes nothing), a
/// database filled before Citus is laid out by `report distribute` with every row kept, and a
/// record that moves to another user or customer between two imports is stored once. Only in
/// the Citus pass (`REPORT_TEST_BACKEND=citus`).
final class CitusDomainTests: CLITestCase {
    static let sampleData = SampleReportsTests.root.appendingPathComponent("SampleData")

    override func setUpWithError() throws {
        try super.setUpWithError()
        try CitusPlan.requireCitus()
    }

    private var plan: [TableDistribution] { registeredModules.flatMap(\.distribution) }

    /// How Citus holds each table it knows: `reference`, or `by COLUMN in group N`.
    private func layout() throws -> [String: String] {
        let rows = try database().rows(
            """
            SELECT logicalrelid::regclass::text, partmethod::text,
                   coalesce(column_to_column_name(logicalrelid, partkey), ''), colocationid
            FROM pg_dist_partition WHERE logicalrelid::regclass::text NOT LIKE '%.%'
            """)
        var result: [String: String] = [:]
        for row in rows {
            guard let table = row[0].string else { continue }
            result[table] =
                row[1].string == "n" ? "reference" : "by \(row[2].string ?? "?") in group \(row[3].int ?? -1)"
        }
        return result
    }

    /// What the layout must be: the reference tables, and each distributed table by its column in
    /// the group of the table it is colocated with.
    private func assertLaidOutAsPlanned(_ layout: [String: String], file: StaticString = #filePath, line: UInt = #line)
    {
        for entry in plan {
            switch entry {
            case .reference(let table):
                XCTAssertEqual(layout[table], "reference", table, file: file, line: line)
            case .distributed(let table, let column, let colocatedWith):
                XCTAssertTrue(
                    layout[table]?.hasPrefix("by \(column) in group ") == true, "\(table): \(layout[table] ?? "local")",
                    file: file, line: line)
                if let colocatedWith {
                    XCTAssertEqual(
                        layout[table]?.split(separator: " ").last, layout[colocatedWith]?.split(separator: " ").last,
                        "\(table) with \(colocatedWith)", file: file, line: line)
                }
            }
        }
        for bookkeeping in ["import_log", "import_rejects", "schema_migrations", "store_changes"] {
            XCTAssertNil(layout[bookkeeping], "\(bookkeeping) stays on the coordinator", file: file, line: line)
        }
    }

    func testTheFirstImportLaysOutEveryDomainAndDistributeThenChangesNothing() throws {
        XCTAssertGreaterThanOrEqual(plan.count, 13, "habits, bookings and fleet each lay tables out")
        let imported = report(["import", "--db", databasePath, "-q", Self.sampleData.path])
        XCTAssertEqual(imported.code, .success, imported.err)
        let first = try layout()
        assertLaidOutAsPlanned(first)
        // Habits and bookings are two groups: a user's shard is not a customer's.
        XCTAssertNotEqual(first["tasks"]?.split(separator: " ").last, first["bookings"]?.split(separator: " ").last)

        let again = report(["distribute", "--db", databasePath])
        XCTAssertEqual(again.code, .success, again.err)
        let stepLines = again.outLines.filter { $0.contains(": ") }
        XCTAssertEqual(stepLines.count, plan.count, again.out)
        XCTAssertTrue(stepLines.allSatisfy { $0.contains(": already ") }, again.out)
        XCTAssertEqual(try layout(), first)
    }

    func testDistributeLaysOutADatabaseFilledBeforeCitusKeepingEveryRow() throws {
        try fillWithoutLayout()
        XCTAssertEqual(try layout(), [:], "filled as on a single PostgreSQL server")
        let before = try counts()
        XCTAssertGreaterThan(before["tasks"] ?? 0, 0)

        let run = report(["distribute", "--db", databasePath])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.outLines.contains("tasks: distributed by user_id"), run.out)
        XCTAssertTrue(run.outLines.contains("services: reference table"), run.out)
        assertLaidOutAsPlanned(try layout())
        XCTAssertEqual(try counts(), before)
        // Rows sit on both workers' shards.
        let perWorker = try database().rows(
            """
            SELECT nodeport, sum(result::bigint) FROM run_command_on_placements('tasks', 'SELECT count(*) FROM %s')
            GROUP BY nodeport
            """)
        XCTAssertEqual(perWorker.count, 2)
        XCTAssertTrue(perWorker.allSatisfy { ($0[1].int ?? 0) > 0 }, "\(perWorker)")
    }

    func testARecordMovingToAnotherUserOrCustomerIsStoredOnce() throws {
        let task = { (user: String) in
            #"[{"id": "t1", "userId": "\#(user)", "date": "2026-11-28", "libelle": "Lire", "state": "terminee"}]"#
        }
        let booking = { (customer: String) in
            #"""
            [{"id": "b1", "customer_id": "\#(customer)", "starts_at": "2026-11-03T10:00:00+01:00",
              "created_at": "2026-11-01T10:00:00+01:00", "status": "paid", "amount_cents": 4500,
              "services": [{"service_id": "s1", "price_cents": 4500}, {"service_id": "s2", "price_cents": 0}]}]
            """#
        }
        for (user, customer) in [("u1", "c1"), ("u2", "c2")] {
            let files = [
                try write("\(user)/tasks.json", task(user)), try write("\(user)/bookings.json", booking(customer)),
            ]
            let run = report(["import", "--db", databasePath, "-q"] + files)
            XCTAssertEqual(run.code, .success, run.err)
        }
        let database = try database()
        XCTAssertEqual(try database.rows("SELECT user_id FROM tasks WHERE id = 't1'"), [["u2"]])
        XCTAssertEqual(try database.rows("SELECT customer_id FROM bookings WHERE id = 'b1'"), [["c2"]])
        XCTAssertEqual(
            try database.rows("SELECT customer_id, count(*) FROM booking_lines WHERE booking_id = 'b1' GROUP BY 1"),
            [["c2", 2]])
    }

    /// The columns of a table's primary key, in order.
    private func primaryKey(_ table: String) throws -> [String] {
        try database().rows(TestStore.primaryKeySQL, [.text(table)]).compactMap { $0[0].string }
    }

    /// Whether an index of that name is in this test's schema (the other tests' schemas hold
    /// indexes of the same names).
    private func indexExists(_ index: String) throws -> Bool {
        try database().scalarInt(
            "SELECT count(*) FROM pg_catalog.pg_indexes WHERE schemaname = current_schema() AND indexname = ?",
            [.text(index)]) == 1
    }

    /// A distributed table's primary key is its own key with the distribution column after it,
    /// one B-tree that is both: no index on the old key beside it (one B-tree less for every row a
    /// worker stores). A table whose key holds the column already keeps its key.
    func testAWidenedPrimaryKeyIsTheTablesKeyWithTheDistributionColumnLast() throws {
        let imported = report(["import", "--db", databasePath, "-q", Self.sampleData.path])
        XCTAssertEqual(imported.code, .success, imported.err)
        let widened: [String: [String]] = [
            "tasks": ["id", "user_id"], "flows": ["id", "user_id"], "focus_sessions": ["id", "user_id"],
            "bookings": ["id", "customer_id"], "booking_lines": ["booking_id", "position", "customer_id"],
            "assignments": ["id", "event_id"], "loan_records": ["id", "event_id"],
            "loan_impacts": ["record_id", "position", "event_id"],
            // Keys that held the column already.
            "users": ["id"], "logins": ["user_id", "at_us"], "flow_contexts": ["user_id", "flow_id", "position"],
        ]
        for (table, key) in widened {
            XCTAssertEqual(try primaryKey(table), key, table)
        }
        for index in ["tasks_id_key", "bookings_id_key", "assignments_id_key", "loan_impacts_record_id_position_key"] {
            XCTAssertFalse(try indexExists(index), index)
        }
        XCTAssertEqual(
            try database().secondaryIndexes(of: "tasks").map(\.name), ["tasks_user_completed", "tasks_user_date"])
    }

    /// A big file (loaded without its tables' secondary indexes) into distributed tables that hold
    /// rows: every key of such a file counts as known, and the merge's delete finds the stored
    /// rows by the key that leads the primary key (without an index led by the key, every flush
    /// scanned the table: 384 s for one flush of a fleet file imported again). The file's rows
    /// replace the stored ones by key, and the secondary indexes are built again.
    func testABigFileIntoFilledDistributedTablesReplacesRowsByKey() throws {
        let imported = report(["import", "--db", databasePath, "-q", Self.sampleData.path])
        XCTAssertEqual(imported.code, .success, imported.err)
        try assertABigTasksFileReplacesAStoredTask()
        XCTAssertEqual(try primaryKey("tasks"), ["id", "user_id"])
    }

    /// A table laid out before the key took the distribution column last (primary key `(user_id,
    /// id)`, an index on `(id)` beside it) keeps that index through a big file: it is the key's
    /// index, not one of the secondary indexes dropped for the load.
    func testABigFileIntoATableOfTheEarlierLayoutKeepsTheIndexOfItsKey() throws {
        let imported = report(["import", "--db", databasePath, "-q", Self.sampleData.path])
        XCTAssertEqual(imported.code, .success, imported.err)
        let database = try database()
        let constraint = try XCTUnwrap(
            try database.rows(
                "SELECT conname::text FROM pg_catalog.pg_constraint WHERE conrelid = to_regclass('tasks') "
                    + "AND contype = 'p'"
            ).first?[0].string)
        try database.execute("CREATE INDEX tasks_id_key ON tasks (id)")
        // Citus takes a key's change on a distributed table one subcommand at a time.
        try database.execute("ALTER TABLE tasks DROP CONSTRAINT \(constraint)")
        try database.execute("ALTER TABLE tasks ADD PRIMARY KEY (user_id, id)")
        XCTAssertEqual(try primaryKey("tasks"), ["user_id", "id"])
        XCTAssertFalse(try database.secondaryIndexes(of: "tasks").map(\.name).contains("tasks_id_key"))
        try assertABigTasksFileReplacesAStoredTask()
        XCTAssertTrue(try indexExists("tasks_id_key"))
        XCTAssertEqual(try primaryKey("tasks"), ["user_id", "id"])
    }

    /// Imports, as a big file (`bulkIndexBytes` 0), a tasks file of one stored task with a new
    /// label: the task is replaced, not added, and the secondary indexes of `tasks` are there before
    /// and after.
    private func assertABigTasksFileReplacesAStoredTask(file: StaticString = #filePath, line: UInt = #line) throws {
        let database = try database()
        let secondaryIndexes = ["tasks_user_completed", "tasks_user_date"]
        XCTAssertEqual(try database.secondaryIndexes(of: "tasks").map(\.name), secondaryIndexes, file: file, line: line)
        let before = try count("tasks")
        XCTAssertGreaterThan(before, 0, file: file, line: line)
        let stored = try XCTUnwrap(try database.rows("SELECT id, user_id FROM tasks ORDER BY id LIMIT 1").first)
        let tasks = try write(
            "big/tasks.json",
            #"[{"id": "\#(stored[0].string ?? "")", "userId": "\#(stored[1].string ?? "")", "date": "2026-11-28", "#
                + #""libelle": "Remplacée", "state": "a_faire"}]"#)
        var options = Importer.Options()
        options.bulkIndexBytes = 0
        let importer = try Importer(database: database, modules: registeredModules.map(\.imports), options: options)
        XCTAssertEqual(
            importer.importFile(ImportFiles.Entry(path: tasks, displayName: tasks)).status, .imported, file: file,
            line: line)
        XCTAssertEqual(try count("tasks"), before, "the task replaced, not added", file: file, line: line)
        XCTAssertEqual(
            try database.rows("SELECT libelle FROM tasks WHERE id = ?", [stored[0]]), [["Remplacée"]], file: file,
            line: line)
        XCTAssertEqual(try database.secondaryIndexes(of: "tasks").map(\.name), secondaryIndexes, file: file, line: line)
    }

    /// A later file into a reference table (copied to every node) replaces its rows by key, though
    /// Citus refuses a modification of a reference table that reads the coordinator's staging
    /// table: the keys go to the server as a bound array.
    func testALaterFileIntoAReferenceTableReplacesItsRows() throws {
        let service = { (price: Int) in
            #"[{"id": "s1", "name": "Coupe", "category": "Coupe", "price_cents": \#(price), "duration_minutes": 45}]"#
        }
        for price in [4500, 5000] {
            let file = try write("\(price)/services.json", service(price))
            let run = report(["import", "--db", databasePath, "-q", file])
            XCTAssertEqual(run.code, .success, run.err)
        }
        XCTAssertEqual(try layout()["services"], "reference")
        XCTAssertEqual(try database().rows("SELECT id, price_cents FROM services"), [["s1", 5000]])
    }

    /// The sample data imported with the importer alone (no layout): a database of a single server.
    private func fillWithoutLayout() throws {
        let importer = try Importer(
            database: try database(), modules: registeredModules.map(\.imports), options: Importer.Options())
        for name in ["habits/users.json", "habits/tasks.json", "bookings/services.json", "bookings/bookings.json"] {
            let path = Self.sampleData.appendingPathComponent(name).path
            XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: path, displayName: name)).status, .imported)
        }
    }

    private func counts() throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for table in ["users", "tasks", "services", "bookings", "booking_lines"] { result[table] = try count(table) }
        return result
    }
}

/// `report distribute` where there is nothing to distribute over: one line saying why and what
/// it needs, exit 1, the database unchanged. In the SQLite and PostgreSQL passes.
final class DistributeCommandTests: CLITestCase {
    func testDistributeRefusesInOneLineWithoutCitus() throws {
        guard !TestStore.isCitus else { throw XCTSkip("a Citus coordinator distributes (CitusDomainTests)") }
        let tasks = try write(
            "tasks.json",
            #"[{"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "Lire", "state": "a_faire"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, "-q", tasks]).code, .success)
        let before = try snapshot()
        let run = report(["distribute", "--db", databasePath])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(run.errLines.count, 1, run.err)
        XCTAssertTrue(
            run.err.contains(
                TestStore.backend == .sqlite
                    ? "is a SQLite file, which lives on one machine; distributing tables needs a Citus coordinator"
                    : "is a PostgreSQL database without Citus; distributing tables needs a Citus coordinator"),
            run.err)
        XCTAssertEqual(run.out, "")
        XCTAssertEqual(try snapshot(), before)
    }
}
