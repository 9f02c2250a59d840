import XCTest
import Store
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
                    try Schema.migrate(database, Schema.core)
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
            try Schema.migrate(database, Schema.core + [first])
            try Schema.migrate(database, Schema.core + [first])  // idempotent
            try database.run("INSERT INTO demo (a) VALUES (1)")
        }
        do {
            // A later release adds a step: the existing file is migrated, its data kept.
            let database = try Database(path: path())
            try Schema.migrate(database, Schema.core + [first, second])
            XCTAssertEqual(try database.rows("SELECT a, b FROM demo"), [[.integer(1), .null]])
        }
        // This release (which knows only version 1) refuses a file made by the later one.
        let database = try Database(path: path())
        XCTAssertThrowsError(try Schema.migrate(database, Schema.core + [first])) { error in
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
