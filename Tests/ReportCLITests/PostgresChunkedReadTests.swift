import Foundation
import ReportTestSupport
import XCTest

@testable import Store

/// In a reading transaction (a report's snapshot) PostgreSQL queries read through a cursor, a
/// chunk at a time (issue 32 item 1): these tests set chunks of 1,000 rows and read results of
/// many chunks whole and in order, two side by side, one reset and run again mid-way, one failing
/// mid-way, and check that a statement never holds more than its chunk and the one after.
/// Runs against the throwaway test server on every pass of `make test`.
final class PostgresChunkedReadTests: XCTestCase {
    static let chunk = 1_000

    /// A database whose queries read in chunks of `chunk` rows.
    private func chunkedDatabase(
        _ prefix: String, bytes: Int = 8 << 20, firstRows: Int = PostgresChunkedReadTests.chunk
    ) throws -> Database {
        let database = try Database(path: try PostgresTestServer.shared().freshDatabase(prefix: prefix))
        let connection = try XCTUnwrap(database.connection as? PostgresConnection)
        connection.readChunk = PostgresReadChunk(rows: Self.chunk, bytes: bytes, firstRows: firstRows)
        return database
    }

    private func backend(_ statement: Statement) throws -> PostgresStatement {
        try XCTUnwrap(statement.backend as? PostgresStatement)
    }

    /// The cursors open in this session, but for the one this question is read through.
    private func openCursors(_ database: Database) throws -> Int64? {
        try database.scalarInt("SELECT count(*) FROM pg_cursors WHERE statement NOT LIKE '%pg_cursors%'")
    }

    /// Every cursor is read to its end, so the session plans cursors for all their rows
    /// (`cursor_tuple_fraction` 1, not PostgreSQL's 0.1, whose plans are fast to the first tenth:
    /// the habits day report's flows read took 15 ms a window with it instead of 2.8 ms).
    func testTheSessionPlansCursorsForAllTheirRows() throws {
        let database = try Database(path: try PostgresTestServer.shared().freshDatabase(prefix: "fraction"))
        XCTAssertEqual(try database.rows("SHOW cursor_tuple_fraction"), [["1"]])
    }

    func testAResultOfManyChunksArrivesWholeAndInOrderHoldingOneChunk() throws {
        let database = try chunkedDatabase("chunks")
        let statement = try database.prepare(
            "SELECT g, repeat('x', g % 50) FROM generate_series(1, CAST(?1 AS INTEGER)) g ORDER BY g")
        var expected: Int64 = 1
        try database.transaction(immediate: false) {
            try statement.bind([.integer(25_000)])
            while try statement.step() {
                XCTAssertTrue(try backend(statement).readsThroughCursor)
                XCTAssertEqual(statement.int64(0), expected, "rows in order, none skipped")
                XCTAssertEqual(statement.string(1).utf8.count, Int(expected % 50))
                // Nothing else runs: the next chunk stays on the wire, the statement holds one.
                XCTAssertLessThanOrEqual(try backend(statement).heldRows, Self.chunk)
                expected += 1
            }
            XCTAssertEqual(try openCursors(database), 0, "the finished cursor was closed")
        }
        XCTAssertEqual(expected - 1, 25_000)
    }

    func testWideRowsComeInSmallerChunks() throws {
        // 10 kB rows and 200 kB a chunk: after the first chunk (100 rows), about 20 rows a chunk.
        let database = try chunkedDatabase("wide", bytes: 200_000, firstRows: 100)
        let statement = try database.prepare("SELECT g, repeat('y', 10000) FROM generate_series(1, 3000) g ORDER BY g")
        var count = 0
        var largestAfterFirst = 0
        try database.transaction(immediate: false) {
            while try statement.step() {
                count += 1
                XCTAssertEqual(statement.int64(0), Int64(count))
                let held = try backend(statement).heldRows
                if count > 100 { largestAfterFirst = max(largestAfterFirst, held) }
            }
        }
        XCTAssertEqual(count, 3_000)
        XCTAssertGreaterThan(largestAfterFirst, 0)
        XCTAssertLessThanOrEqual(largestAfterFirst, 25, "a chunk bounded by its bytes, not only its rows")
    }

    func testTwoStatementsReadSideBySideEachLargerThanAChunk() throws {
        let database = try chunkedDatabase("sidebyside")
        let first = try database.prepare("SELECT g FROM generate_series(1, 5500) g ORDER BY g")
        let second = try database.prepare("SELECT g * 2 FROM generate_series(1, 7300) g ORDER BY g")
        var firstRows: [Int64] = []
        var secondRows: [Int64] = []
        try database.transaction(immediate: false) {
            var firstDone = false
            var secondDone = false
            while !firstDone || !secondDone {
                if !firstDone {
                    if try first.step() { firstRows.append(first.int64(0)) } else { firstDone = true }
                }
                if !secondDone {
                    if try second.step() { secondRows.append(second.int64(0)) } else { secondDone = true }
                }
                // Each holds its chunk and at most the next one, read ahead for the other.
                XCTAssertLessThanOrEqual(try backend(first).heldRows, 2 * Self.chunk)
                XCTAssertLessThanOrEqual(try backend(second).heldRows, 2 * Self.chunk)
            }
        }
        XCTAssertEqual(firstRows, Array(1...5500))
        XCTAssertEqual(secondRows, (1...7300).map { Int64($0) * 2 })
    }

    func testAStatementResetMidwayRunsAgainFromItsFirstRowWithNewValues() throws {
        let database = try chunkedDatabase("reset")
        let statement = try database.prepare(
            "SELECT g FROM generate_series(CAST(?1 AS BIGINT), CAST(?2 AS BIGINT)) g ORDER BY g")
        try database.transaction(immediate: false) {
            try statement.bind([.integer(1), .integer(25_000)])
            for expected in 1...2_500 {
                XCTAssertTrue(try statement.step())
                XCTAssertEqual(statement.int64(0), Int64(expected))
            }
            // Bound again (a reset) mid-way, through its third chunk.
            try statement.bind([.integer(100_001), .integer(103_500)])
            var rows: [Int64] = []
            while try statement.step() { rows.append(statement.int64(0)) }
            XCTAssertEqual(rows, Array(100_001...103_500))
            // Reset mid-way, then stepped: the same values again, from the first row.
            try statement.bind([.integer(7), .integer(4_006)])
            for _ in 0..<1_500 { XCTAssertTrue(try statement.step()) }
            statement.reset()
            try statement.bind([.integer(7), .integer(4_006)])
            rows = []
            while try statement.step() { rows.append(statement.int64(0)) }
            XCTAssertEqual(rows, Array(7...4_006))
            XCTAssertEqual(try openCursors(database), 0, "no cursor left open by a reset")
            XCTAssertEqual(try database.scalarInt("SELECT 6 * 7"), 42)
        }
    }

    func testAnErrorMidwayIsThrownOnceWithItsSQLAndTheTransactionRollsBack() throws {
        let database = try chunkedDatabase("midwayerror")
        // Row 15,000 divides by zero: the chunks before it arrive, then the error.
        let sql = "SELECT g, 1 / (15000 - g) FROM generate_series(1, 30000) g"
        let statement = try database.prepare(sql)
        var rows = 0
        var errors: [String] = []
        do {
            try database.transaction(immediate: false) {
                try database.execute("CREATE TEMP TABLE chunk_probe (g BIGINT)")
                while try statement.step() {
                    rows += 1
                    XCTAssertEqual(statement.int64(0), Int64(rows))
                }
            }
        } catch { errors.append("\(error)") }
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first?.contains("division by zero") ?? false, "\(errors)")
        XCTAssertTrue(errors.first?.contains(sql) ?? false, "the error names the query: \(errors)")
        XCTAssertGreaterThanOrEqual(rows, Self.chunk, "the chunks before the failure were handed out")
        XCTAssertLessThan(rows, 15_000)
        XCTAssertFalse(database.isInTransaction)
        XCTAssertEqual(
            try database.scalarInt("SELECT count(*) FROM pg_tables WHERE tablename = 'chunk_probe'"), 0,
            "rolled back")
        XCTAssertEqual(try database.scalarInt("SELECT 6 * 7"), 42, "the error is not thrown again")
        // The statement runs again, and fails again at the same row.
        XCTAssertThrowsError(try database.transaction(immediate: false) { while try statement.step() {} })
        XCTAssertEqual(try database.scalarInt("SELECT 6 * 7"), 42)
    }

    func testRowsLeftWhenTheTransactionCommitsAreStillHandedOut() throws {
        let database = try chunkedDatabase("commit")
        let statement = try database.prepare("SELECT g FROM generate_series(1, 5000) g ORDER BY g")
        var rows: [Int64] = []
        try database.transaction(immediate: false) {
            for _ in 0..<1_500 {
                XCTAssertTrue(try statement.step())
                rows.append(statement.int64(0))
            }
        }
        XCTAssertFalse(database.isInTransaction)
        while try statement.step() { rows.append(statement.int64(0)) }
        XCTAssertEqual(rows, Array(1...5000))
    }

    func testQueriesOutsideAReadingTransactionStreamRowByRow() throws {
        let database = try chunkedDatabase("singlerow")
        try database.execute("CREATE TABLE seen (g BIGINT NOT NULL)")
        let statement = try database.prepare("SELECT g FROM generate_series(1, 3000) g ORDER BY g")
        XCTAssertTrue(try statement.step())
        XCTAssertFalse(try backend(statement).readsThroughCursor, "no transaction: single-row mode")
        statement.reset()
        try database.transaction {
            XCTAssertTrue(try statement.step())
            XCTAssertFalse(try backend(statement).readsThroughCursor, "a writing transaction: single-row mode")
            statement.reset()
        }
        try database.transaction(immediate: false) {
            XCTAssertTrue(try statement.step())
            XCTAssertTrue(try backend(statement).readsThroughCursor, "a reading transaction: a cursor")
            statement.reset()
        }
    }

    /// A query prepared to be read whole (the habits window reads: a few days of 128 users, run
    /// once a list) takes no cursor, not even in a reading transaction: its rows come in one
    /// result, more than a chunk of them, and from its second run on it runs a plan prepared on
    /// the server. A cursor read side by side is not disturbed.
    func testAQueryReadWholeComesInOneResultAndRunsPreparedFromItsSecondRun() throws {
        let database = try chunkedDatabase("whole")
        let whole = try database.prepare(
            readingWhole: "SELECT g FROM generate_series(1, CAST(?1 AS INTEGER)) g ORDER BY g")
        let chunked = try database.prepare("SELECT g FROM generate_series(1, 2500) g ORDER BY g")
        let prepared = "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%generate_series(1, CAST%'"
        var read: [Int64] = []
        try database.transaction(immediate: false) {
            XCTAssertTrue(try chunked.step())
            XCTAssertTrue(try backend(chunked).readsThroughCursor)
            for (run, count) in [2_500, 3, 1_200].enumerated() {
                try whole.bind([.integer(Int64(count))])
                var rows: [Int64] = []
                while try whole.step() {
                    XCTAssertFalse(try backend(whole).readsThroughCursor)
                    XCTAssertEqual(try backend(whole).heldRows, count, "the whole result at once")
                    rows.append(whole.int64(0))
                }
                XCTAssertEqual(rows, Array(1...Int64(count)), "run \(run + 1)")
                XCTAssertEqual(
                    try database.scalarInt(prepared), run == 0 ? 0 : 1, "prepared on the server from the second run")
                XCTAssertTrue(try chunked.step())
            }
            read.append(chunked.int64(0))
            while try chunked.step() { read.append(chunked.int64(0)) }
        }
        XCTAssertEqual(read, Array(4...2500), "the cursor read side by side lost nothing")
    }
}
