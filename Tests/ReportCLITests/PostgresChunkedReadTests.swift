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

    /// The cursors open in this session, but for the one this question is read through (its
    /// DECLARE, and the FETCH reading it, the protocol's unnamed portal).
    private func openCursors(_ database: Database) throws -> Int64? {
        try database.scalarInt("SELECT count(*) FROM pg_cursors WHERE statement NOT LIKE '%pg_cursors%' AND name <> ''")
    }

    /// Every cursor is read to its end, so the session plans cursors for all their rows
    /// (`cursor_tuple_fraction` 1, not PostgreSQL's 0.1, whose plans are fast to the first tenth:
    /// the habits day report's flows read took 15 ms a window with it instead of 2.8 ms).
    func testTheSessionPlansCursorsForAllTheirRows() throws {
        let database = try Database(path: try PostgresTestServer.shared().freshDatabase(prefix: "fraction"))
        XCTAssertEqual(try database.rows("SHOW cursor_tuple_fraction"), [["1"]])
    }

    /// No query is compiled by the server's JIT: a report's scans cost more to compile than they
    /// save (the bookings month report's scan compiled for 236 ms to run for 140 ms), yet their
    /// estimated cost passes the default thresholds. The server's own setting is `on`.
    func testTheSessionDoesNotCompileQueries() throws {
        let server = try PostgresTestServer.shared()
        let database = try Database(path: try server.freshDatabase(prefix: "jit"))
        XCTAssertEqual(try database.rows("SHOW jit"), [["off"]])
        XCTAssertEqual(try database.rows("SELECT boot_val FROM pg_settings WHERE name = 'jit'"), [["on"]])
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

    /// Every value of every type a cursor reads in the binary format, read through a cursor (in
    /// chunks of 1,000, binary) and again outside a transaction (single-row mode, text): every
    /// accessor gives the same, but a float's spelling (Swift's digits, not the server's), whose
    /// number is the same. Extremes included: the integers' limits, −0, NaN, the infinities, the
    /// smallest subnormal, floats beyond Int64 (clamped, as SQLite does), a `real` given by its
    /// shortest digits, NULLs, UTF-8 beyond the BMP, a date in a text.
    func testAChunkOfBooleansIntegersFloatsAndTextsComesInBinaryWithTheTextsValues() throws {
        let database = try chunkedDatabase("binary")
        let values = """
            SELECT k, CAST(b AS BOOLEAN), CAST(s AS SMALLINT), CAST(i AS INTEGER), CAST(l AS BIGINT),
                   CAST(o AS OID), CAST(r AS REAL), CAST(d AS DOUBLE PRECISION), t, CAST(vc AS VARCHAR),
                   CAST(c AS CHAR(3)), CAST(n AS NAME)
            FROM generate_series(1, 300) g CROSS JOIN (VALUES
            (1, 'true', '-32768', '-2147483648', '-9223372036854775808', '4294967295', '-0', 'NaN', 'é€😀',
             'x', 'ab', 'nm'),
            (2, 'false', '32767', '2147483647', '9223372036854775807', '0', '0.1', 'Infinity', '2026-11-28',
             '', 'abc', ''),
            (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            (4, 'true', '-1', '-7', '-1', '1', '3.4e38', '-Infinity', 'a', 'b', 'c', 'd'),
            (5, 'false', '0', '0', '0', '42', '1.17549435e-38', '5e-324', '-1.5', '12', '7', '3'),
            (6, 'true', '1', '1', '1', '7', 'Infinity', '1e300', '9.3e18', 'z', 'z', 'z'),
            (7, 'false', '2', '3', '4', '5', '-2.5', '-1.5', '0.1', '2026-02-30', 'q', 'q'),
            (8, 'true', '5', '6', '7', '8', 'NaN', '-9.3e18', '-0', 'v', 'v', 'v'),
            (9, 'true', '9', '9', '9', '9', '9', '-0', 'abc', 'w', 'w', 'w'))
              AS v(k, b, s, i, l, o, r, d, t, vc, c, n)
            ORDER BY g, k
            """
        /// Each row as every accessor reads it, floats' texts as numbers.
        func read(_ statement: Statement) throws -> [String] {
            var rows: [String] = []
            while try statement.step() {
                var cells: [String] = []
                for column in 0..<statement.columnCount {
                    let float = column == 6 || column == 7
                    let text = statement.string(column)
                    let bytes = statement.withText(column) { Array($0) }
                    cells.append(
                        [
                            "\(statement.isNull(column))", "\(statement.int64(column))",
                            "\(statement.double(column).bitPattern)", "\(statement.value(column))",
                            "\(statement.day(column).map(String.init(describing:)) ?? "-")",
                            float ? "\(Double(text).map(\.bitPattern).map(String.init) ?? text)" : text,
                            float ? "\(Double(String(decoding: bytes, as: UTF8.self)) ?? .nan)" : "\(bytes)",
                        ].joined(separator: "|"))
                }
                rows.append(cells.joined(separator: " ; "))
            }
            return rows
        }
        let statement = try database.prepare(values)
        let text = try read(statement)
        XCTAssertFalse(try backend(statement).binary)
        var binary: [String] = []
        try database.transaction(immediate: false) {
            XCTAssertTrue(try statement.step())
            XCTAssertTrue(try backend(statement).readsThroughCursor)
            XCTAssertTrue(try backend(statement).binary, "booleans, integers, floats and texts: binary")
            statement.reset()
            binary = try read(statement)
        }
        XCTAssertEqual(binary.count, 2_700)
        XCTAssertEqual(binary.count, text.count)
        for (index, (left, right)) in zip(binary, text).enumerated().prefix(9) {
            XCTAssertEqual(left, right, "row \(index + 1)")
        }
        XCTAssertEqual(zip(binary, text).filter { $0 != $1 }.count, 0, "rows that differ")
        // A few values checked on their own, so that a wrong reading on both sides could not agree.
        XCTAssertTrue(text[0].contains("|-9223372036854775808|"), text[0])
        XCTAssertTrue(text[5].contains("|9223372036854775807|"), "1e300 clamped: \(text[5])")
        XCTAssertTrue(text[6].contains("|-1|"), "−1.5 truncated toward zero: \(text[6])")
    }

    /// A cursor with a column of another type (a `numeric` sum) reads every chunk as text.
    func testACursorWithANumericColumnReadsText() throws {
        let database = try chunkedDatabase("numeric")
        let statement = try database.prepare(
            "SELECT g, CAST(g AS NUMERIC) / 4, CAST(g AS NUMERIC) * 2 FROM generate_series(1, 2500) g ORDER BY g")
        var rows = 0
        try database.transaction(immediate: false) {
            while try statement.step() {
                rows += 1
                XCTAssertTrue(try backend(statement).readsThroughCursor)
                XCTAssertFalse(try backend(statement).binary)
                XCTAssertEqual(statement.int64(0), Int64(rows))
                XCTAssertEqual(statement.double(1), Double(rows) / 4)
                XCTAssertEqual(statement.value(2), .integer(Int64(rows) * 2))
            }
        }
        XCTAssertEqual(rows, 2_500)
    }
}
