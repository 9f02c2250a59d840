import Foundation
import ReportTestSupport
import Store
import XCTest

/// Queries on PostgreSQL stream their rows (single-row mode): a report over millions of rows holds
/// one at a time, and a statement run while another's rows are still being read gets the
/// connection after those rows are read ahead, with nothing lost or reordered. Runs against the
/// throwaway test server on both passes of `make test`.
final class PostgresStreamingTests: XCTestCase {
    static let rowCount = 200_000
    let query = "SELECT g, repeat('x', 100) FROM generate_series(1, \(PostgresStreamingTests.rowCount)) g ORDER BY g"

    /// What the server says the query's session is doing, asked from another connection.
    private func serverState(of url: String) throws -> String? {
        let observer = try Database(path: url)
        return try observer.rows(
            "SELECT state FROM pg_stat_activity WHERE query LIKE '%generate_series(1, %' AND pid <> pg_backend_pid()"
        ).first?.first?.string
    }

    func testRowsArriveWhileTheServerIsStillSending() throws {
        let url = try PostgresTestServer.shared().freshDatabase(prefix: "stream")
        let database = try Database(path: url)
        let statement = try database.prepare(query)
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.int64(0), 1)
        // 20 MB of rows cannot sit in the socket's buffers: the server is still sending them.
        // Before streaming, the whole result was read by the first step and the session idle.
        XCTAssertEqual(try serverState(of: url), "active", "the first row came before the last was sent")
        var count = 1
        var sum = Int64(1)
        while try statement.step() {
            count += 1
            sum += statement.int64(0)
            XCTAssertEqual(statement.string(1).utf8.count, 100)
        }
        XCTAssertEqual(count, Self.rowCount)
        XCTAssertEqual(sum, Int64(Self.rowCount) * Int64(Self.rowCount + 1) / 2)
        XCTAssertEqual(try serverState(of: url), "idle")
        // Stepped again after its end, a statement runs again, as on SQLite.
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.int64(0), 1)
        statement.reset()
        XCTAssertEqual(try database.scalarInt("SELECT 6 * 7"), 42, "a reset mid-stream frees the connection")
    }

    func testAnotherStatementMidStreamGetsTheConnectionAndNoRowIsLost() throws {
        let url = try PostgresTestServer.shared().freshDatabase(prefix: "interleave")
        let database = try Database(path: url)
        try database.execute("CREATE TABLE seen (g BIGINT NOT NULL)")
        let statement = try database.prepare(query)
        let insert = try database.prepare("INSERT INTO seen (g) VALUES (?)")
        var expected = Int64(1)
        try database.transaction {
            while try statement.step() {
                XCTAssertEqual(statement.int64(0), expected, "rows in order, none skipped")
                if expected % 50_000 == 1 {
                    // A write on the same connection while the query's rows are still coming.
                    try insert.bind([.integer(expected)])
                    try insert.run()
                }
                expected += 1
            }
        }
        XCTAssertEqual(expected - 1, Int64(Self.rowCount))
        XCTAssertEqual(try database.rows("SELECT g FROM seen ORDER BY g"), [[1], [50_001], [100_001], [150_001]])
    }

    func testAnErrorInTheMiddleOfAStreamIsThrownAndTheConnectionStaysUsable() throws {
        let database = try Database(path: try PostgresTestServer.shared().freshDatabase(prefix: "streamerror"))
        // Row 100,000 divides by zero: the server fails after sending the rows before it.
        let statement = try database.prepare(
            "SELECT 1 / (100000 - g) FROM generate_series(1, 200000) g")
        var rows = 0
        XCTAssertThrowsError(try { while try statement.step() { rows += 1 } }()) { error in
            XCTAssertTrue("\(error)".contains("division by zero"), "\(error)")
        }
        XCTAssertGreaterThan(rows, 0, "rows before the failure arrived first")
        XCTAssertLessThan(rows, 100_000)
        XCTAssertEqual(try database.scalarInt("SELECT 6 * 7"), 42)
    }
}
