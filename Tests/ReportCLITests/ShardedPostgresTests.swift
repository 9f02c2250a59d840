import ArgumentParsing
import Foundation
import ReportTestSupport
import Store
import XCTest

/// Issue 11 item 6, on what PostgreSQL ships: three local servers, a coordinator whose habits
/// activity tables are hash partitions by `user_id` held as `postgres_fdw` foreign tables on two
/// shard servers (`scripts/postgres_fdw_habits.sql` on the coordinator: the script docs/SCALE.md
/// gives operators).
/// `report` imports and reports through the coordinator only, and its CSV and Markdown are the
/// bytes SQLite gives for the same files; each user's rows sit on one shard, and both shards hold
/// some. Runs once, in the SQLite pass (it starts its own servers and compares with SQLite).
final class ShardedPostgresTests: CLITestCase {
    static let habits = SampleReportsTests.root.appendingPathComponent("SampleData/habits")
    let asOf = "2026-11-29T06:00:00+01:00"
    let reports: [[String]] = [
        ["habits", "--date", "2026-11-28"],
        ["habits", "--from", "2026-10-01", "--to", "2026-11-28"],
    ]
    let activityTables = ["tasks", "flows", "focus_sessions", "logins", "moods"]

    /// The database name of a test server URL (`postgresql://postgres@/t_3?host=…` → `t_3`).
    private func name(of url: String) -> String {
        String(url.split(separator: "/", omittingEmptySubsequences: false)[3].split(separator: "?")[0])
    }

    /// Every file the reports write from `database`, by name.
    private func writeReports(from database: String, into folder: String) throws -> [String: Data] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for arguments in reports {
            let run = report(arguments + ["--db", database, "--as-of", asOf, "--csv", "--md", "-o", folder, "-q"])
            XCTAssertEqual(run.code, .success, "\(arguments): \(run.err)")
        }
        return try SampleReportsTests.files(below: URL(fileURLWithPath: folder))
    }

    func testImportAndHabitsReportThroughACoordinatorOfTwoShards() throws {
        // The reference: the same files in SQLite.
        let sqlite = path("reference.sqlite")
        let reference = report(["import", "--db", sqlite, "-q", Self.habits.path])
        XCTAssertEqual(reference.code, .success, reference.err)
        let expected = try writeReports(from: sqlite, into: path("sqlite-out"))
        XCTAssertGreaterThanOrEqual(expected.count, 4, "CSV tables and Markdown of both reports")

        // Three servers, each database holding report's schema (an import of an empty file).
        let servers = try ["coordinator", "shard1", "shard2"].map { try PostgresTestServer(name: $0) }
        let urls = try servers.map { try $0.freshDatabase(prefix: "sharded") }
        let empty = try write("empty/users.json", "[]")
        for url in urls {
            let migrated = report(["import", "--db", url, "-q", empty])
            XCTAssertEqual(migrated.code, .success, migrated.err)
        }
        let coordinator = try Database(path: urls[0])
        for (index, server) in servers.enumerated().dropFirst() {
            try coordinator.execute(
                """
                CREATE EXTENSION IF NOT EXISTS postgres_fdw;
                CREATE SERVER shard\(index) FOREIGN DATA WRAPPER postgres_fdw
                    OPTIONS (host '\(server.folder.path)', dbname '\(name(of: urls[index]))');
                CREATE USER MAPPING FOR CURRENT_USER SERVER shard\(index) OPTIONS (user 'postgres');
                """)
        }
        let script = SampleReportsTests.root.appendingPathComponent("scripts/postgres_fdw_habits.sql")
        try coordinator.execute(String(contentsOf: script, encoding: .utf8))
        XCTAssertEqual(
            try coordinator.scalarInt(
                "SELECT count(*) FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid"),
            Int64(activityTables.count), "the five activity tables are partitioned")

        // Import through the coordinator, twice (the second with --force replaces, never doubles).
        for force in [false, true] {
            let run = report(["import", "--db", urls[0], "-q"] + (force ? ["--force"] : []) + [Self.habits.path])
            XCTAssertEqual(run.code, .success, run.err)
        }
        let sqliteStore = try Database(path: sqlite)
        let shards = try urls.dropFirst().map { try Database(path: $0) }
        for table in activityTables {
            let counts = try shards.map { try $0.scalarInt("SELECT count(*) FROM \(table)") ?? -1 }
            XCTAssertEqual(
                counts.reduce(0, +), try sqliteStore.scalarInt("SELECT count(*) FROM \(table)"),
                "\(table): the shards hold every row once")
            XCTAssertTrue(counts.allSatisfy { $0 > 0 }, "\(table): both shards hold rows (\(counts))")
            XCTAssertEqual(
                try coordinator.scalarInt("SELECT count(*) FROM ONLY \(table)"), 0,
                "\(table): the coordinator's partitioned table holds no rows itself")
            let users = try shards.map { shard in
                Set(try shard.rows("SELECT DISTINCT user_id FROM \(table)").compactMap { $0.first?.string })
            }
            XCTAssertTrue(users[0].isDisjoint(with: users[1]), "\(table): every user on one shard")
        }

        // The reports through the coordinator: the bytes SQLite gives.
        let sharded = try writeReports(from: urls[0], into: path("sharded-out"))
        XCTAssertEqual(Set(sharded.keys), Set(expected.keys))
        for (name, data) in expected {
            XCTAssertEqual(sharded[name], data, "\(name) differs between SQLite and the sharded coordinator")
        }
    }
}
