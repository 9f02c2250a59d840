import Foundation
import XCTest
import Store
import Import
@testable import Store

final class StoreTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String = "t.sqlite") -> String { directory.appendingPathComponent(name).path }

    func testBoundParametersRoundTripAnyText() throws {
        let database = try Database(path: path())
        try database.execute("CREATE TABLE t (a TEXT, b INTEGER, c REAL)")
        let hostile = "'; DROP TABLE t; --\u{0}é😀"
        try database.run("INSERT INTO t VALUES (?, ?, ?)", [.text(hostile), .integer(Int64.min), .real(2.5)])
        let rows = try database.rows("SELECT a, b, c FROM t")
        XCTAssertEqual(rows, [[.text(hostile), .integer(Int64.min), .real(2.5)]])
    }

    /// The upsert writer binds texts without copying them (`SQLITE_STATIC`): every text of a row,
    /// short (stored inline in the `String`), long, empty, bridged from Foundation or holding a NUL,
    /// arrives whole, and none is read after its row is gone (each row is built, written and
    /// dropped before the next, which reuses the memory).
    func testTextsBoundWithoutACopyArriveWhole() throws {
        let database = try Database(path: path())
        try database.execute("CREATE TABLE t (k TEXT PRIMARY KEY, a TEXT, n INTEGER, b TEXT, c TEXT) STRICT")
        let writer = try database.upsertWriter(table: "t", columns: ["k", "a", "n", "b", "c"], key: ["k"])
        func texts(_ index: Int) -> (String, String, String) {
            let long = String(repeating: "é\(index)x", count: 1 + index * 997 % 5000)
            let bridged = NSString(string: "bridgé \(index) " + String(repeating: "y", count: index % 40)) as String
            return (index % 3 == 0 ? "" : "a\u{0}b\(index)", long, bridged)
        }
        try database.transaction {
            for index in 0..<300 {
                let (a, b, c) = texts(index)
                try writer.write([.text("k\(index % 150)"), .text(a), .integer(Int64(index)), .text(b), .text(c)])
            }
        }
        let rows = try database.rows("SELECT k, a, n, b, c FROM t ORDER BY n")
        XCTAssertEqual(rows.count, 150)
        for (offset, row) in rows.enumerated() {
            let index = 150 + offset
            let (a, b, c) = texts(index)
            XCTAssertEqual(row, [.text("k\(offset)"), .text(a), .integer(Int64(index)), .text(b), .text(c)])
        }
    }

    /// Inside a transaction SQLite's upsert writer writes `sqliteRows` rows a statement: the
    /// table ends exactly as row by row (a key repeated within a batch or across batches keeps its
    /// last row), a read in the transaction sees the rows held back, a rollback drops them, a row
    /// written outside a transaction is seen at once by another connection, and a row the table
    /// refuses in the middle of a batch fails the transaction with nothing of it stored.
    func testRowsWrittenInBatchesEndAsRowByRow() throws {
        let schema = "CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT, n INTEGER NOT NULL CHECK (n >= 0)) STRICT"
        let rows: [[SQLValue]] = (0..<1_003).map { index in
            [.text("k\(index * 7 % 211)"), index % 5 == 0 ? .null : .text("v\(index)"), .integer(Int64(index))]
        }
        var results: [[[SQLValue]]] = []
        for perStatement in [1, 4, 32] {
            let database = try Database(path: path("batch-\(perStatement).sqlite"))
            database.bulkWriteLimits.sqliteRows = perStatement
            try database.execute(schema)
            let writer = try database.upsertWriter(table: "t", columns: ["k", "v", "n"], key: ["k"])
            try database.transaction {
                for (index, row) in rows.enumerated() {
                    try writer.write(row)
                    if index == 501 {
                        XCTAssertEqual(try database.scalarInt("SELECT MAX(n) FROM t"), 501, "a read sees every row")
                    }
                }
            }
            results.append(try database.rows("SELECT k, v, n FROM t ORDER BY k"))
            XCTAssertThrowsError(
                try database.transaction {
                    for index in 0..<10 { try writer.write([.text("new\(index)"), .null, .integer(1)]) }
                    throw StoreError("rolled back")
                })
            XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM t WHERE k LIKE 'new%'"), 0)
            XCTAssertThrowsError(
                try database.transaction {
                    for index in 0..<10 {
                        try writer.write([.text("bad\(index)"), .null, .integer(index == 2 ? -1 : 1)])
                    }
                }
            ) { error in
                XCTAssertTrue("\(error)".contains("CHECK constraint failed"), "\(error)")
            }
            XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM t WHERE k LIKE 'bad%'"), 0)
            try writer.write([.text("alone"), .text("at once"), .integer(7)])
            let other = try Database(path: path("batch-\(perStatement).sqlite"))
            XCTAssertEqual(try other.rows("SELECT v FROM t WHERE k = 'alone'"), [["at once"]])
        }
        XCTAssertEqual(results[0].count, 211)
        XCTAssertEqual(results[1], results[0])
        XCTAssertEqual(results[2], results[0])
    }

    /// Lists of child rows replaced in batches of `sqliteRows` parents end exactly as replaced one
    /// by one: a parent replaced twice within a batch or across batches keeps its last list (an
    /// empty one leaves none), its earlier rows from before the transaction are gone, a read in the
    /// transaction sees the lists held back, and a rollback drops them.
    func testChildListsReplacedInBatchesEndAsOneByOne() throws {
        var results: [[[SQLValue]]] = []
        for perStatement in [1, 3, 32] {
            let database = try Database(path: path("children-\(perStatement).sqlite"))
            database.bulkWriteLimits.sqliteRows = perStatement
            try database.execute(
                "CREATE TABLE c (p TEXT NOT NULL, position INTEGER NOT NULL, x TEXT, y REAL, PRIMARY KEY (p, position))"
            )
            try database.run(
                "INSERT INTO c VALUES ('p1', 0, 'before', 0), ('p1', 7, 'before', 0), ('zz', 0, 'kept', 1)")
            let children = try ChildRows(database: database, table: "c", parentColumn: "p", columns: ["x", "y"])
            try database.transaction {
                for index in 0..<500 {
                    let list: [[SQLValue]] = (0..<(index * 13 % 6)).map {
                        [.text("x\(index)-\($0)"), .real(Double($0))]
                    }
                    try children.replace(parent: "p\(index * 11 % 97)", rows: list)
                    if index == 250 {
                        let parent = "p\(index * 11 % 97)"
                        XCTAssertEqual(
                            try database.scalarInt("SELECT COUNT(*) FROM c WHERE p = ?", [.text(parent)]),
                            Int64(index * 13 % 6), "a read sees the last list")
                    }
                }
            }
            XCTAssertThrowsError(
                try database.transaction {
                    try children.replace(parent: "zz", rows: [])
                    try children.replace(parent: "new", rows: [[.text("dropped"), .null]])
                    throw StoreError("rolled back")
                })
            results.append(try database.rows("SELECT p, position, x, y FROM c ORDER BY p, position"))
        }
        XCTAssertTrue(results[0].contains([.text("zz"), 0, .text("kept"), .real(1)]))
        XCTAssertFalse(results[0].contains { $0[2] == .text("before") })
        XCTAssertGreaterThan(results[0].count, 100)
        XCTAssertEqual(results[1], results[0])
        XCTAssertEqual(results[2], results[0])
    }

    func testTransactionRollsBackOnThrow() throws {
        struct Boom: Error {}
        let database = try Database(path: path())
        try database.execute("CREATE TABLE t (a INTEGER)")
        XCTAssertThrowsError(
            try database.transaction {
                try database.run("INSERT INTO t VALUES (1)")
                throw Boom()
            })
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM t"), 0)
        try database.transaction { try database.run("INSERT INTO t VALUES (2)") }
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM t"), 1)
    }

    func testNestedTransactionsAreSavepoints() throws {
        struct Boom: Error {}
        let database = try Database(path: path())
        try database.execute("CREATE TABLE t (a INTEGER)")
        try database.transaction {
            try database.run("INSERT INTO t VALUES (1)")
            XCTAssertThrowsError(
                try database.transaction {
                    try database.run("INSERT INTO t VALUES (2)")
                    throw Boom()
                })
            try database.transaction { try database.run("INSERT INTO t VALUES (3)") }
        }
        XCTAssertEqual(try database.rows("SELECT a FROM t ORDER BY a"), [[1], [3]])
        XCTAssertFalse(database.isInTransaction)
    }

    func testErrorsCarryCodeMessageAndSQL() throws {
        let database = try Database(path: path())
        try database.execute("CREATE TABLE t (a INTEGER NOT NULL)")
        XCTAssertThrowsError(try database.run("INSERT INTO t VALUES (?)", [.null])) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error.map { $0.code.primary }, .constraint)
            XCTAssertEqual(
                error?.description,
                "SQLite error 1299: NOT NULL constraint failed: t.a - while executing `INSERT INTO t VALUES (?)`")
        }
    }

    func testWALModeIsOn() throws {
        let database = try Database(path: path())
        XCTAssertEqual(try database.rows("PRAGMA journal_mode").first?.first, .text("wal"))
    }

    /// Switching a new file to WAL takes a lock SQLite's busy handler does not wait for: two
    /// imports creating one database at once made one of them fail at once with SQLITE_BUSY.
    func testConnectionsOpeningOneNewDatabaseAtOnceAllSucceed() throws {
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var messages: [String] = []
            func add(_ text: String) { lock.lock(); messages.append(text); lock.unlock() }
        }
        let failures = Failures()
        for round in 0..<150 {
            let file = path("new-\(round).sqlite")
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let database = try Database(path: file, busyTimeoutMilliseconds: 5000)
                    try Schema.migrate(database, ImportLog.migrations)
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        XCTAssertEqual(failures.messages, [])
    }

    func testMigrationsApplyOnceAndRefuseANewerFile() throws {
        let first = Migration(domain: "demo", version: 1, sql: "CREATE TABLE demo (a INTEGER)")
        let second = Migration(domain: "demo", version: 2, sql: "ALTER TABLE demo ADD COLUMN b TEXT")
        do {
            let database = try Database(path: path())
            try Schema.migrate(database, ImportLog.migrations + [first])
            try Schema.migrate(database, ImportLog.migrations + [first])  // idempotent
            try database.run("INSERT INTO demo (a) VALUES (1)")
        }
        do {
            // A later release adds a step: the existing file is migrated, its data kept.
            let database = try Database(path: path())
            try Schema.migrate(database, ImportLog.migrations + [first, second])
            XCTAssertEqual(try database.rows("SELECT a, b FROM demo"), [[.integer(1), .null]])
        }
        // This release (which knows only version 1) refuses a file made by the later one.
        let database = try Database(path: path())
        XCTAssertThrowsError(try Schema.migrate(database, ImportLog.migrations + [first])) { error in
            XCTAssertTrue("\(error)".contains("newer release of report"), "\(error)")
        }
    }

    func testAFileThatIsNotADatabaseIsAClearError() throws {
        let file = path("garbage.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try Database(path: file)) { error in
            XCTAssertTrue("\(error)".contains("file is not a database"), "\(error)")
        }
    }
}
