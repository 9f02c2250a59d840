import Foundation
@testable import Import
import ReportTestSupport
import XCTest
@testable import Store

/// The PostgreSQL write path of imports (issue 11 item 3): rows COPY-escaped into a TEMP staging
/// table and merged at each flush. Runs against the throwaway test server on both passes of
/// `make test`, as the rest of `PostgresStoreTests` does; the writer tests that hold for any
/// backend run on a SQLite file too.
extension PostgresStoreTests {
    private static let valueTable = Migration(
        domain: "copy", version: 1,
        sql: """
            CREATE TABLE t (k TEXT NOT NULL PRIMARY KEY, a TEXT, b INTEGER, c REAL) STRICT;
            CREATE TABLE p (id TEXT NOT NULL PRIMARY KEY, v TEXT NOT NULL) STRICT;
            CREATE TABLE pc (p_id TEXT NOT NULL, position INTEGER NOT NULL, x TEXT NOT NULL,
                PRIMARY KEY (p_id, position)) STRICT;
            """)

    /// The texts COPY's format treats specially, and those it must leave alone.
    private static let hostileTexts: [String] = [
        "tab\there", "new\nline", "carriage\rreturn", "back\\slash", "\\N", "\\", "\\\\N\\", "", " ",
        "é😀 Ωmega \u{FEFF}", "\u{1}\u{7F}", "'; DROP TABLE t; --", "end\\", "\\t\\n literal", "a\t\n\r\\b",
    ]

    private func freshPostgres(_ prefix: String) throws -> Database {
        let database = try Database(path: try PostgresTestServer.shared().freshDatabase(prefix: prefix))
        try Schema.migrate(database, [Self.valueTable])
        return database
    }

    private func freshSQLite(_ name: String) throws -> Database {
        let database = try Database(path: path(name))
        try Schema.migrate(database, [Self.valueTable])
        return database
    }

    /// Writes a row of `p` and replaces its list of `pc` rows through the import's writers.
    private func parentAndChildrenWriter(_ database: Database) throws -> (String, String, [String]) throws -> Void {
        let parents = try database.upsertWriter(table: "p", columns: ["id", "v"])
        let children = try ChildRows(database: database, table: "pc", parentColumn: "p_id", columns: ["x"])
        return { id, value, list in
            try parents.write([.text(id), .text(value)])
            try children.replace(parent: id, rows: list.map { [.text($0)] })
        }
    }

    func testCopyTextEscapesTheBytesOfItsFormat() {
        func text(_ value: SQLValue) -> String {
            var buffer: [UInt8] = []
            PostgresCopyText.append(value, to: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        XCTAssertEqual(text(.text("a\tb\nc\rd\\e")), #"a\tb\nc\rd\\e"#)
        XCTAssertEqual(text(.text("\\N")), #"\\N"#)
        XCTAssertEqual(text(.null), #"\N"#)
        XCTAssertEqual(text(.text("")), "")
        XCTAssertEqual(text(.text("é😀")), "é😀")
        XCTAssertEqual(text(.text("cut\u{0}here")), "cut", "a NUL ends the text, as a bound C string does")
        XCTAssertEqual(text(.integer(Int64.min)), "-9223372036854775808")
        XCTAssertEqual(text(.integer(0)), "0")
        XCTAssertEqual(text(.real(0.1 + 0.2)), "0.30000000000000004")
        var row: [UInt8] = []
        PostgresCopyText.appendRow([.text("x"), .null, .integer(-7)], sequence: 42, to: &row)
        XCTAssertEqual(String(decoding: row, as: UTF8.self), "x\t\\N\t-7\t42\n", "a staged row")
        row.removeAll()
        PostgresCopyText.appendRow([.text("x"), .null, .integer(-7)], to: &row)
        XCTAssertEqual(String(decoding: row, as: UTF8.self), "x\t\\N\t-7\n", "a new row, for the table itself")
    }

    /// Every hostile text, NULL beside the empty string, integers at the edges and doubles that
    /// need every digit come back as they went in, through COPY and through the prepared upsert
    /// (outside a transaction), on PostgreSQL as on SQLite.
    func testValuesRoundTripThroughCopyAsThroughTheUpsert() throws {
        var rows: [[SQLValue]] = Self.hostileTexts.enumerated().map { index, text in
            [.text("k\(index) \(text)"), .text(text), .integer(Int64(index)), .real(Double(index) / 3)]
        }
        rows.append([.text("nulls"), .null, .null, .null])
        rows.append([.text("empty"), .text(""), .integer(Int64.min), .real(-1e-300)])
        rows.append([.text("max"), .text("\\N"), .integer(Int64.max), .real(0.1 + 0.2)])
        let expected = rows.sorted { $0[0].string! < $1[0].string! }
        for database in [try freshSQLite("values.sqlite"), try freshPostgres("copyvalues")] {
            let writer = try database.upsertWriter(table: "t", columns: ["k", "a", "b", "c"], key: ["k"])
            try database.transaction { for row in rows { try writer.write(row) } }
            XCTAssertEqual(try database.rows("SELECT k, a, b, c FROM t ORDER BY k"), expected, "\(database.kind)")
            try database.execute("DELETE FROM t")
            for row in rows { try writer.write(row) }
            XCTAssertEqual(try database.rows("SELECT k, a, b, c FROM t ORDER BY k"), expected, "\(database.kind)")
        }
    }

    /// A key written three times in one transaction keeps its last row, and a parent's last list of
    /// children replaces every earlier one (an empty last list leaves none), whether the rows met
    /// in one flush or across several; a read in the transaction sees what was written.
    func testTheLastRowOfAKeyWinsWithItsChildRows() throws {
        for limits in [BulkWriteLimits(), BulkWriteLimits(rows: 3, bytes: 1 << 20, chunkBytes: 3, sqliteRows: 2)] {
            for database in [try freshSQLite("last-\(limits.rows).sqlite"), try freshPostgres("copylast")] {
                database.bulkWriteLimits = limits
                try database.run("INSERT INTO p VALUES ('old', 'before')")
                try database.run("INSERT INTO pc VALUES ('old', 0, 'stale'), ('old', 1, 'stale too')")
                let put = try parentAndChildrenWriter(database)
                try database.transaction {
                    try put("a", "first", ["a0", "a1", "a2"])
                    try put("b", "only", ["b0"])
                    try put("a", "second", ["x"])
                    try put("old", "after", [])
                    try put("c", "first", ["c0"])
                    XCTAssertEqual(
                        try database.rows("SELECT id, v FROM p ORDER BY id").count, 4, "a read sees the writes")
                    try put("a", "third", ["t0"])
                    try put("c", "second", [])
                    try put("a", "fourth", ["a-last0", "a-last1"])
                }
                XCTAssertEqual(
                    try database.rows("SELECT id, v FROM p ORDER BY id"),
                    [["a", "fourth"], ["b", "only"], ["c", "second"], ["old", "after"]], "\(database.kind)")
                XCTAssertEqual(
                    try database.rows("SELECT p_id, position, x FROM pc ORDER BY p_id, position"),
                    [["a", 0, "a-last0"], ["a", 1, "a-last1"], ["b", 0, "b0"]], "\(database.kind) \(limits.rows)")
            }
        }
    }

    /// Rows far larger than the COPY pieces, with multi-byte characters cut between two pieces,
    /// over several flushes: all of them arrive whole.
    func testRowsCutAcrossCopyPiecesAndFlushesArriveWhole() throws {
        let database = try freshPostgres("copychunks")
        database.bulkWriteLimits = BulkWriteLimits(rows: 1_000, bytes: 10_000, chunkBytes: 7)
        let writer = try database.upsertWriter(table: "t", columns: ["k", "a", "b", "c"], key: ["k"])
        let rows: [[SQLValue]] = (0..<2_500).map { index in
            let text = String(repeating: "é😀\t\\", count: index % 17) + "\n\(index)"
            return [.text(String(format: "k%05d", index)), .text(text), .integer(Int64(index)), .real(Double(index))]
        }
        try database.transaction { for row in rows { try writer.write(row) } }
        XCTAssertEqual(try database.rows("SELECT k, a, b, c FROM t ORDER BY k"), rows)
    }

    /// A row the table refuses fails at the flush before COMMIT, whether it went in with the new
    /// rows (COPY'd straight into the table) or was staged and merged (its key written before in
    /// the transaction): the transaction throws one line naming the table and the step, and
    /// nothing of it is stored.
    func testAServerErrorAtTheFlushRollsBackTheWholeTransaction() throws {
        let database = try freshPostgres("copyfail")
        let writer = try database.upsertWriter(table: "p", columns: ["id", "v"])
        let cases: [(String, String)] = [
            ("bad", "copy of the new rows: COPY p (id, v) FROM STDIN"),
            ("good", "merge of the staged rows: DELETE FROM p …; INSERT INTO p (id, v)"),
        ]
        for (refusedKey, step) in cases {
            XCTAssertThrowsError(
                try database.transaction {
                    try writer.write([.text("good"), .text("kept?")])
                    try writer.write([.text(refusedKey), .null])
                }
            ) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("23502"), text)
                XCTAssertTrue(text.contains("\"p\""), text)
                XCTAssertTrue(text.contains(step), text)
                XCTAssertFalse(text.contains("\n"), text)
            }
            XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM p"), 0, step)
        }
        // The connection is usable again, and so is the writer.
        try database.transaction { try writer.write([.text("after"), .text("ok")]) }
        XCTAssertEqual(try database.rows("SELECT id FROM p"), [["after"]])
    }

    /// A row that passes validation but that the server refuses (a constraint the operator added)
    /// as the new rows are COPY'd into the table: the file fails with one line naming the
    /// constraint and the COPY, no password from the URL, exit 1, and nothing of the file stored;
    /// the earlier file stays.
    func testARowTheServerRefusesFailsTheFileInOneLineWithoutThePassword() throws {
        let server = try PostgresTestServer.passwordServer()
        let secret = PostgresTestServer.password
        let admin = try Database(path: "postgresql://postgres:\(secret)@/postgres?host=\(server.folder.path)")
        try admin.execute("DROP DATABASE IF EXISTS copy_refused")
        try admin.execute("CREATE DATABASE copy_refused TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        let url = "postgresql://postgres:\(secret)@/copy_refused?host=\(server.folder.path)"
        let users = try write("users.json", #"[{"id": "u1", "timezone": "Europe/Paris"}]"#)
        XCTAssertEqual(report(["import", "--db", url, users]).code, .success)
        try Database(path: url).execute(
            "ALTER TABLE tasks ADD CONSTRAINT no_forbidden CHECK (libelle <> 'forbidden')")
        let records = (0..<300).map { index in
            #"{"id": "t\#(index)", "userId": "u1", "date": "2026-11-01", "#
                + #""libelle": "\#(index == 250 ? "forbidden" : "fine")", "state": "a_faire"}"#
        }
        let tasks = try write("tasks.json", "[" + records.joined(separator: ",\n") + "]")
        let run = report(["import", "--db", url, tasks])
        XCTAssertEqual(run.code, .failure, run.err)
        XCTAssertEqual(run.errLines.count, 1, run.err)
        XCTAssertTrue(run.err.hasPrefix("\(tasks): PostgreSQL error 23514: "), run.err)
        XCTAssertTrue(run.err.contains("no_forbidden"), run.err)
        XCTAssertTrue(run.err.contains("copy of the new rows: COPY tasks ("), run.err)
        XCTAssertTrue(run.err.hasSuffix("; nothing of this file was stored\n"), run.err)
        XCTAssertFalse(run.err.contains(secret), run.err)
        XCTAssertFalse(run.out.contains(secret), run.out)
        let after = try Database(path: url)
        XCTAssertEqual(try after.scalarInt("SELECT COUNT(*) FROM tasks"), 0)
        XCTAssertEqual(try after.rows("SELECT kind FROM import_log ORDER BY id"), [["users"]])
    }

    /// Rows buffered before a savepoint are stored before it opens; those of a savepoint that
    /// fails are dropped with it, and the outer transaction commits the rest.
    func testASavepointRolledBackDropsOnlyItsOwnRows() throws {
        for database in [try freshSQLite("savepoint.sqlite"), try freshPostgres("copysavepoint")] {
            let writer = try database.upsertWriter(table: "p", columns: ["id", "v"])
            try database.transaction {
                try writer.write([.text("outer"), .text("kept")])
                XCTAssertThrowsError(
                    try database.transaction {
                        try writer.write([.text("inner"), .text("dropped")])
                        try writer.write([.text("outer"), .text("overwritten?")])
                        throw TestServerError("the savepoint fails")
                    })
                try writer.write([.text("after"), .text("kept too")])
            }
            XCTAssertEqual(
                try database.rows("SELECT id, v FROM p ORDER BY id"), [["after", "kept too"], ["outer", "kept"]],
                "\(database.kind)")
        }
    }

    /// `--strict` and a bad record after many flushes: the file leaves nothing (no row, no child
    /// row, no log); a file of duplicate keys keeps the last of each with its contexts.
    func testAFileFailingMidFileUnderStrictStoresNothingAfterFlushes() throws {
        let url = try PostgresTestServer.shared().freshDatabase(prefix: "copystrict")
        let database = try Database(path: url)
        database.bulkWriteLimits = BulkWriteLimits(rows: 50, bytes: 1 << 20, chunkBytes: 64)
        var options = Importer.Options()
        options.strict = true
        let importer = try Importer(database: database, modules: registeredModules.map(\.imports), options: options)
        func flow(_ id: String, _ label: String, _ contexts: [String]) -> String {
            let list = contexts.map { "\"\($0)\"" }.joined(separator: ", ")
            return #"{"id": "\#(id)", "userId": "u1", "date": "2026-11-0\#(id.count % 9 + 1)", "#
                + #""libelleAction": "\#(label)", "etat": "cree", "contexte": [\#(list)]}"#
        }
        var records = (0..<95).map { flow("f\($0 % 30)", "v\($0)", ["c\($0)", "d\($0)"]) }
        let good = try write("flows.json", "[" + records.joined(separator: ",\n") + "]")
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: good, displayName: good)).status, .imported)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM flows"), 30)
        XCTAssertEqual(
            try database.rows("SELECT libelle_action FROM flows WHERE id = 'f4'"), [["v94"]], "the last record wins")
        XCTAssertEqual(
            try database.rows("SELECT context FROM flow_contexts WHERE flow_id = 'f4' ORDER BY position"),
            [["c94"], ["d94"]])
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM flow_contexts"), 60)

        records = (0..<80).map { flow("g\($0)", "w\($0)", ["e\($0)"]) }
        records.append(#"{"id": "g-bad", "userId": "u1", "date": "2026-13-45", "libelleAction": "x", "etat": "cree"}"#)
        let bad = try write("flows-bad.json", "[" + records.joined(separator: ",\n") + "]")
        let outcome = importer.importFile(ImportFiles.Entry(path: bad, displayName: bad))
        XCTAssertTrue(outcome.failed, "\(outcome.status)")
        XCTAssertTrue("\(outcome.status)".contains("--strict: nothing of this file was stored"), "\(outcome.status)")
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM flows WHERE id LIKE 'g%'"), 0)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM flow_contexts WHERE flow_id LIKE 'g%'"), 0)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM import_log"), 1)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM flow_contexts"), 60, "the first file is intact")
    }

    /// What a transaction knows of a table's keys (`StagedKeys`): nothing is new in a table that
    /// held rows; in an empty one, a key staged before is always "maybe" (no false "new" among
    /// 100,000 keys), texts that the server cuts at a NUL to one key hash alike, and few new keys
    /// are taken for known ones.
    func testStagedKeysNeverCallAStagedKeyNew() {
        let full = StagedKeys(tableWasEmpty: false)
        XCTAssertTrue(full.stage([.text("never seen")]))
        let keys = StagedKeys(tableWasEmpty: true)
        var falseMaybes = 0
        for index in 0..<100_000 where keys.stage([.text(String(index))]) { falseMaybes += 1 }
        XCTAssertLessThan(falseMaybes, 100, "a few false maybes at most")
        for index in stride(from: 0, to: 100_000, by: 7) {
            XCTAssertTrue(keys.stage([.text(String(index))]), "\(index) was staged")
        }
        XCTAssertFalse(keys.stage([.text("u1"), .integer(5)]))
        XCTAssertTrue(keys.stage([.text("u1"), .integer(5)]))
        XCTAssertFalse(keys.stage([.text("u1"), .integer(6)]))
        XCTAssertEqual(StagedKeys.hash([.text("cut\u{0}here")]), StagedKeys.hash([.text("cut\u{0}there")]))
        XCTAssertEqual(StagedKeys.hash([.text("cut\u{0}here")]), StagedKeys.hash([.text("cut")]))
        XCTAssertNotEqual(StagedKeys.hash([.text("é")]), StagedKeys.hash([.text("e\u{301}")]), "bytes, not Unicode")
        XCTAssertNotEqual(StagedKeys.hash([.text("ab"), .text("c")]), StagedKeys.hash([.text("a"), .text("bc")]))
    }

    /// Transaction-control statements run as SQL are told by their first word, in any case and
    /// after white space: they flush the writers (those that end a transaction) and make the
    /// connection forget what it knew of staged keys.
    func testTransactionControlIsToldByTheStatementsFirstWord() {
        XCTAssertEqual(SQLText.leadingKeyword(" \n\tcommit;"), "COMMIT")
        XCTAssertEqual(SQLText.leadingKeyword("ROLLBACK TO SAVEPOINT report_1"), "ROLLBACK")
        XCTAssertEqual(SQLText.leadingKeyword("SELECT 1"), "SELECT")
        XCTAssertEqual(SQLText.leadingKeyword(""), "")
        XCTAssertTrue(PostgresConnection.controlsTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ"))
        XCTAssertTrue(PostgresConnection.controlsTransaction("  end"))
        XCTAssertFalse(PostgresConnection.controlsTransaction("SAVEPOINT report_1"))
        XCTAssertFalse(PostgresConnection.controlsTransaction("ENDLESS"))
        XCTAssertFalse(PostgresConnection.controlsTransaction("DELETE FROM t WHERE note = 'BEGIN'"))
    }

    /// Into empty tables, ids that are numbers in text ("1", "10", "100": every flush's range holds
    /// the earlier ones) written over many small flushes, repeated within a flush and across
    /// flushes, with child lists growing, shrinking and emptied: PostgreSQL ends with exactly the
    /// rows SQLite does, and so after a second transaction over the now full tables. Two texts
    /// that PostgreSQL cuts to one key at a NUL are one row there, the last written.
    func testKeysNewToAnEmptyTableMergeAsOnSQLite() throws {
        func writes(_ database: Database) throws {
            let put = try parentAndChildrenWriter(database)
            try database.transaction {
                for index in 1...400 {
                    try put(String(index), "v\(index)", (0..<(index % 4)).map { "x\(index).\($0)" })
                    if index % 9 == 0 { try put(String(index / 3), "again\(index)", ["y\(index)"]) }
                    if index % 13 == 0 { try put(String(index), "twice\(index)", []) }
                }
            }
            try database.transaction {
                for index in stride(from: 5, through: 400, by: 25) { try put(String(index), "later\(index)", ["z"]) }
                try put("401", "new", ["w"])
            }
        }
        var results: [[[SQLValue]]] = []
        for database in [try freshSQLite("newkeys.sqlite"), try freshPostgres("copynewkeys")] {
            database.bulkWriteLimits = BulkWriteLimits(rows: 7, bytes: 1 << 20, chunkBytes: 64)
            try writes(database)
            results.append(
                try database.rows("SELECT id, v FROM p ORDER BY id")
                    + database.rows("SELECT p_id, position, x FROM pc ORDER BY p_id, position"))
        }
        let oracle = results[0]
        XCTAssertEqual(oracle.filter { $0.count == 2 }.count, 401)
        XCTAssertTrue(oracle.contains([.text("39"), .text("again117")]) && oracle.contains([.text("39"), 0, "y117"]))
        XCTAssertTrue(oracle.contains([.text("5"), .text("later5")]) && oracle.contains([.text("5"), 0, "z"]))
        XCTAssertFalse(oracle.contains { $0.count == 3 && $0[0] == .text("26") }, "26's last list is empty")
        XCTAssertEqual(results[1], oracle, "PostgreSQL ends with SQLite's rows")

        let database = try freshPostgres("copynulkeys")
        let put = try parentAndChildrenWriter(database)
        try database.transaction {
            try put("nul\u{0}first", "first", ["n0"])
            try put("nul\u{0}second", "second", ["n1", "n2"])
        }
        XCTAssertEqual(try database.rows("SELECT id, v FROM p"), [["nul", "second"]])
        XCTAssertEqual(
            try database.rows("SELECT p_id, position, x FROM pc ORDER BY position"),
            [["nul", 0, "n1"], ["nul", 1, "n2"]])
    }
}
