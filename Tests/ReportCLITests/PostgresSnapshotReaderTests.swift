import Foundation
import ReportTestSupport
import XCTest

@testable import Store

/// `Database.withSnapshotReader`: a second connection that reads the snapshot of a reading
/// transaction (the habits report reads every other batch of users on it), and nil, with the
/// reads left on the one connection, wherever there is none to share. Runs against the
/// throwaway test server (a Citus coordinator on the Citus pass).
final class PostgresSnapshotReaderTests: XCTestCase {
    private func count(_ database: Database) throws -> Int64? { try database.scalarInt("SELECT count(*) FROM t") }

    func testTheSecondConnectionSeesTheTransactionsSnapshotNotALaterCommit() throws {
        let url = try PostgresTestServer.shared().freshDatabase(prefix: "snapshot")
        let database = try Database(path: url)
        let writer = try Database(path: url)
        try database.execute("CREATE TABLE t (n integer PRIMARY KEY)")
        try database.execute("INSERT INTO t VALUES (1)")
        try database.transaction(immediate: false) {
            XCTAssertEqual(try count(database), 1)
            try writer.execute("INSERT INTO t VALUES (2)")
            // Nested, as a report reads in a savepoint of its command's transaction, just after a
            // read through a cursor (whose CLOSE is sent without waiting for its answer).
            try database.transaction(immediate: false) {
                XCTAssertEqual(try database.rows("SELECT n FROM t"), [[.integer(1)]])
                try database.withSnapshotReader { beside in
                    let beside = try XCTUnwrap(beside, "a server offers a second connection")
                    XCTAssertEqual(try count(beside), 1, "the snapshot, not the commit after it")
                    XCTAssertEqual(
                        try beside.scalarInt("SELECT count(*) FROM pg_stat_activity WHERE pid = pg_backend_pid()"), 1)
                    XCTAssertNotEqual(
                        try beside.scalarInt("SELECT pg_backend_pid()"),
                        try database.scalarInt("SELECT pg_backend_pid()"),
                        "another session")
                    XCTAssertThrowsError(try beside.execute("INSERT INTO t VALUES (3)"), "it only reads")
                }
            }
            XCTAssertEqual(try count(database), 1)
        }
        XCTAssertEqual(try count(database), 2)
        // The client closes its connection without waiting for the server (libpq's `PQfinish` sends
        // Terminate and returns), so the backend leaves `pg_stat_activity` a moment later: on a
        // busy machine the count once read 3 right after the block.
        var sessions: Int64 = 0
        for _ in 0..<100 {
            sessions =
                try writer.scalarInt(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()") ?? -1
            if sessions == 2 { break }
            usleep(50_000)
        }
        XCTAssertEqual(sessions, 2, "the second connection ended with the block (within 5 s)")
    }

    func testNoSecondConnectionOutsideAReadingTransaction() throws {
        let database = try Database(path: try PostgresTestServer.shared().freshDatabase(prefix: "snapshot_none"))
        try database.withSnapshotReader { XCTAssertNil($0, "no transaction") }
        try database.transaction(immediate: true) {
            try database.withSnapshotReader { XCTAssertNil($0, "a writing transaction exports no snapshot") }
        }
    }

    /// A role allowed one connection: the report's second is refused, and its reads stay on the
    /// first, in the same transaction, which goes on.
    func testARefusedSecondConnectionLeavesTheReadsOnTheFirst() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.freshDatabase(prefix: "snapshot_limit")
        let owner = try Database(path: url)
        try owner.execute(
            """
            DROP ROLE IF EXISTS report_one_connection; CREATE ROLE report_one_connection LOGIN CONNECTION LIMIT 1;
            CREATE TABLE t (n integer PRIMARY KEY); INSERT INTO t VALUES (1), (2);
            GRANT SELECT ON t TO report_one_connection
            """)
        let limited = try Database(path: url.replacingOccurrences(of: "postgres@", with: "report_one_connection@"))
        try limited.transaction(immediate: false) {
            try limited.withSnapshotReader { XCTAssertNil($0, "the role's one connection is in use") }
            XCTAssertEqual(try count(limited), 2)
        }
    }

    /// A server that refuses to export the snapshot (here: a role that may not run
    /// `pg_export_snapshot`; a standby may refuse too): the reading transaction begins again
    /// without one, and reads on, alone.
    func testARefusedExportLeavesTheTransactionReadingAlone() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.freshDatabase(prefix: "snapshot_refused")
        let owner = try Database(path: url)
        try owner.execute(
            """
            DROP ROLE IF EXISTS report_no_export; CREATE ROLE report_no_export LOGIN;
            REVOKE EXECUTE ON FUNCTION pg_export_snapshot() FROM PUBLIC;
            CREATE TABLE t (n integer PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3);
            GRANT SELECT ON t TO report_no_export
            """)
        let refused = try Database(path: url.replacingOccurrences(of: "postgres@", with: "report_no_export@"))
        XCTAssertThrowsError(try refused.scalarInt("SELECT count(*) FROM (SELECT pg_export_snapshot()) s"))
        try refused.transaction(immediate: false) {
            try refused.withSnapshotReader { XCTAssertNil($0, "nothing exported to share") }
            XCTAssertEqual(try count(refused), 3)
            XCTAssertEqual(try refused.rows("SHOW transaction_isolation"), [[.text("repeatable read")]])
        }
    }

    func testSQLiteHasNoSecondConnection() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Database(path: folder.appendingPathComponent("t.sqlite").path)
        try database.transaction(immediate: false) { try database.withSnapshotReader { XCTAssertNil($0) } }
    }
}
