import Bookings
import Fleet
import Foundation
import Habits
import Import
import ReportTestSupport
import Store
import XCTest

/// The CHECKs that a column holds one of three values or more are equalities on SQLite (habits
/// step 9, fleet step 4, bookings step 3): SQLite evaluated an `IN` list by filling a temporary
/// B-tree for every row it checked, about 30 % of the instructions of the 1M-task import's
/// database thread (docs/BENCHMARKS.md). A database made before those steps is edited in place
/// and keeps every row; on every backend the constraints still refuse what they refused.
final class MembershipChecksTests: CLITestCase {
    static var sampleData: URL { SampleReportsTests.root.appendingPathComponent("SampleData") }
    /// The checks the three steps rewrite: table, column, a value the check refuses.
    static let rewritten = [
        ("tasks", "state", "done"), ("flows", "etat", "créé"), ("loan_impacts", "type", "dent"),
        ("bookings", "status", "canceled"),
    ]
    static let earlierSteps: [Migration] =
        ImportLog.migrations + Array(HabitsSchema.migrations.prefix(8)) + Array(FleetSchema.migrations.prefix(3))
        + Array(BookingsSchema.migrations.prefix(2))
    static var everyStep: [Migration] { ImportLog.migrations + registeredModules.flatMap(\.migrations) }

    /// The opcodes of SQLite's program for a plain insert of one row into `table`.
    func insertProgram(_ database: Database, _ table: String) throws -> [String] {
        let columns = try database.rows("SELECT name FROM pragma_table_info(?1) ORDER BY cid", [.text(table)])
            .compactMap { $0.first?.string }
        let sql =
            "EXPLAIN INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
            + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        return try database.rows(sql).compactMap { $0[1].string }
    }

    func tableNames(_ database: Database) throws -> [String] {
        try database.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).compactMap { $0.first?.string }
    }

    func testNoTableOfANewDatabaseFillsATemporaryBTreeToCheckARow() throws {
        try XCTSkipIf(TestStore.backend != .sqlite, "SQLite's programs")
        let database = try Database(path: path("new.sqlite"))
        try Schema.migrate(database, Self.everyStep)
        let tables = try tableNames(database)
        for (table, _, _) in Self.rewritten { XCTAssertTrue(tables.contains(table), table) }
        for table in tables {
            let program = try insertProgram(database, table)
            XCTAssertTrue(program.contains("Insert") || program.contains("IdxInsert"), table)
            XCTAssertFalse(program.contains("OpenEphemeral"), "\(table): \(program.joined(separator: " "))")
        }
        // The steps before these ones did (what the test would catch if a CHECK came back as IN).
        let old = try Database(path: path("old.sqlite"))
        try Schema.migrate(old, Self.earlierSteps)
        for (table, _, _) in Self.rewritten {
            XCTAssertTrue(try insertProgram(old, table).contains("OpenEphemeral"), table)
        }
    }

    func testADatabaseOfTheEarlierStepsIsEditedInPlaceKeepsItsRowsAndRefusesTheSame() throws {
        let sample = report(["import", "--db", path("sample.sqlite"), Self.sampleData.path])
        XCTAssertEqual(sample.code, .success, sample.err)
        let source = try Database(path: path("sample.sqlite"))
        let old = try Database(path: databasePath)
        try Schema.migrate(old, Self.earlierSteps)
        let tables = ["users", "tasks", "flows", "flow_contexts", "loan_records", "loan_impacts", "bookings"]
        for table in tables {
            let columns = try old.rows(TestStore.columnsSQL, [.text(table)]).compactMap { $0.first?.string }
            let list = columns.joined(separator: ", ")
            let rows = try source.rows("SELECT \(list) FROM \(table)")
            XCTAssertFalse(rows.isEmpty, table)
            try old.transaction {
                for row in rows {
                    try old.run(
                        "INSERT INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                        row)
                }
            }
        }
        let before = TestStore.backend == .sqlite ? try old.scalarInt("PRAGMA schema_version") : nil
        try Schema.migrate(old, Self.everyStep)
        XCTAssertEqual(try Schema.pendingSteps(old, Self.everyStep).count, 0)
        for table in tables {
            XCTAssertEqual(
                try TableSnapshot.of(old, tables: [table]), try TableSnapshot.of(source, tables: [table]), table)
        }
        if TestStore.backend == .sqlite {
            // One higher per step that edited the schema's text (three), so every connection reads it again.
            XCTAssertEqual(try old.scalarInt("PRAGMA schema_version"), before.map { $0 + 3 })
            XCTAssertEqual(try old.rows("PRAGMA integrity_check").first?.first?.string, "ok")
            for (table, column, _) in Self.rewritten {
                let text = try XCTUnwrap(
                    try old.rows("SELECT sql FROM sqlite_schema WHERE name = ?1", [.text(table)]).first?.first?.string)
                XCTAssertFalse(text.contains("\(column) IN ("), text)
                XCTAssertTrue(text.contains("CHECK (\(column) = '"), text)
                XCTAssertFalse(try insertProgram(old, table).contains("OpenEphemeral"), table)
            }
        }
        // Every rewritten check refuses a value outside its list and takes every value of it: the
        // rows of one value are moved through the whole list, one update a value.
        let checks =
            HabitsSchema.version9.sqliteChecks + FleetSchema.version4.sqliteChecks
            + BookingsSchema.version3.sqliteChecks
        XCTAssertEqual(checks.map(\.table), Self.rewritten.map(\.0))
        for (check, (table, column, refused)) in zip(checks, Self.rewritten) {
            var value = try XCTUnwrap(source.rows("SELECT \(column) FROM \(table) LIMIT 1").first?.first?.string)
            XCTAssertThrowsError(
                try old.run(
                    "UPDATE \(table) SET \(column) = ?1 WHERE \(column) = ?2", [.text(refused), .text(value)]),
                table
            ) { error in XCTAssertTrue("\(error)".lowercased().contains("check"), "\(error)") }
            let moved = try old.scalarInt("SELECT COUNT(*) FROM \(table) WHERE \(column) = ?1", [.text(value)]) ?? 0
            XCTAssertGreaterThan(moved, 0, table)
            for allowed in check.values {
                try old.run(
                    "UPDATE \(table) SET \(column) = ?1 WHERE \(column) = ?2", [.text(allowed), .text(value)])
                value = allowed
                let count = try old.scalarInt("SELECT COUNT(*) FROM \(table) WHERE \(column) = ?1", [.text(value)])
                XCTAssertGreaterThanOrEqual(count ?? 0, moved, "\(table).\(column) = \(value)")
            }
        }
    }

    func testATableWithoutTheCheckItRewritesIsAnErrorAndChangesNothing() throws {
        try XCTSkipIf(TestStore.backend != .sqlite, "the rewrite is SQLite's")
        let database = try Database(path: path("odd.sqlite"))
        try database.execute("CREATE TABLE things (kind TEXT NOT NULL CHECK (kind IN ('a', 'b', 'c', 'd'))) STRICT")
        let before = try database.rows("SELECT sql FROM sqlite_schema WHERE name = 'things'")
        let version = try database.scalarInt("PRAGMA schema_version")
        let step = Migration(
            domain: "odd", version: 1,
            sqliteChecks: [MembershipCheck(table: "things", column: "kind", values: ["a", "b", "c"])])
        XCTAssertThrowsError(try Schema.migrate(database, [step])) { error in
            XCTAssertEqual(
                "\(error)",
                "\(database.path): table things has no constraint `CHECK (kind IN ('a', 'b', 'c'))` to rewrite")
        }
        XCTAssertEqual(try database.rows("SELECT sql FROM sqlite_schema WHERE name = 'things'"), before)
        XCTAssertEqual(try database.scalarInt("PRAGMA schema_version"), version)
        XCTAssertFalse(try database.tableExists("schema_migrations"))
        XCTAssertThrowsError(try database.execute("INSERT INTO things (kind) VALUES ('e')"))
        try database.execute("INSERT INTO things (kind) VALUES ('d')")
    }
}
