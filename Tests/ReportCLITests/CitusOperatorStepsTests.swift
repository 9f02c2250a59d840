import Foundation
@testable import Import
import ReportTestSupport
import Store
import XCTest

/// docs/SCALE.md's operator steps on Citus, run word for word on the Citus test cluster: each
/// block marked `<!-- operator steps: … -->` is read from the page, its `export REPORT_DB=…` line
/// points at the test's database instead, its `/srv/…` folders are folders of the test, and every
/// `report` line must succeed; a `sql` block runs statement by statement in one transaction. Only
/// in the Citus pass.
final class CitusOperatorStepsTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try CitusPlan.requireCitus()
    }

    /// The lines of the fenced block in `language` after `marker` in docs/SCALE.md; fails the test
    /// (and returns none) when there is no such block.
    private func block(after marker: String, language: String) throws -> [Substring] {
        let page = try String(
            contentsOf: SampleReportsTests.root.appendingPathComponent("docs/SCALE.md"), encoding: .utf8)
        guard let start = page.range(of: "<!-- operator steps: \(marker)") else {
            XCTFail("docs/SCALE.md has no block \(marker)")
            return []
        }
        let rest = page[start.upperBound...]
        guard let open = rest.range(of: "```\(language)\n"), let close = rest[open.upperBound...].range(of: "```")
        else {
            XCTFail("docs/SCALE.md: the block \(marker) is not a \(language) block")
            return []
        }
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n")
    }

    /// The `report …` lines of the block after `marker`, as arguments; fails the test when the
    /// block's other lines are not the `export REPORT_DB=` line.
    private func steps(after marker: String) throws -> [[String]] {
        var commands: [[String]] = []
        for line in try block(after: marker, language: "sh") {
            if line.hasPrefix("export REPORT_DB=") { continue }
            let words = line.split(separator: " ").map(String.init)
            XCTAssertEqual(words.first, "report", "docs/SCALE.md, \(marker): \(line)")
            commands.append(Array(words.dropFirst()).map(localPath))
        }
        return commands
    }

    /// `/srv/…` of the page as a folder of the test; the history is the sample data.
    private func localPath(_ word: String) -> String {
        switch word {
        case "/srv/exports/history": return SampleReportsTests.root.appendingPathComponent("SampleData").path
        case let path where path.hasPrefix("/srv/"): return self.path(String(path.dropFirst("/srv/".count)))
        default: return word
        }
    }

    /// The SQL statements of the `sql` block after `marker`, one a line, without their `;`.
    private func statements(after marker: String) throws -> [String] {
        try block(after: marker, language: "sql").map { line in
            XCTAssertTrue(line.hasSuffix(";"), "docs/SCALE.md, \(marker): \(line)")
            return String(line.dropLast())
        }
    }

    private func run(_ commands: [[String]]) throws {
        for command in commands {
            let run = report(command, environment: ["REPORT_DB": databasePath])
            XCTAssertEqual(run.code, .success, "report \(command.joined(separator: " ")): \(run.err)")
        }
    }

    func testTheNewClusterStepsTakeAnEmptyClusterToTheFirstNightly() throws {
        let commands = try steps(after: "new cluster")
        XCTAssertEqual(commands.map(\.first), ["import", "status", "nightly"])
        // Tonight's files in the inbox.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("exports/inbox"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: SampleReportsTests.root.appendingPathComponent("SampleData/habits/moods.json").path,
            toPath: path("exports/inbox/moods.json"))
        try run(commands)
        XCTAssertGreaterThan(try count("tasks"), 0)
        XCTAssertGreaterThan(
            try database().scalarInt("SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'tasks'::regclass")
                ?? 0, 0)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: path("exports/inbox/moods.json")), "the inbox was imported")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("reports")), "the nightly wrote its reports")
    }

    func testTheGrowingDatabaseStepsLayOutADatabaseOfOneServer() throws {
        let commands = try steps(after: "existing database")
        XCTAssertEqual(commands.map(\.first), ["distribute", "status"])
        let importer = try Importer(
            database: try database(), modules: registeredModules.map(\.imports), options: Importer.Options())
        let tasks = SampleReportsTests.root.appendingPathComponent("SampleData/habits/tasks.json").path
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: tasks, displayName: "tasks.json")).status, .imported)
        let before = try count("tasks")
        try run(commands)
        XCTAssertEqual(try count("tasks"), before)
        XCTAssertEqual(
            try database().scalarInt("SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'tasks'::regclass"), 1
        )
    }

    /// The SQL that moves a database laid out the earlier way (primary key `(user_id, id)` and an
    /// index on `(id)` beside it) to the key with the distribution column last, run word for word
    /// in one transaction on a database laid out that way: every key is then as a new cluster lays
    /// it out, the indexes on the old keys are gone (not `flow_contexts`' own), and an import of
    /// the same files again with `--force` replaces every row by its key.
    func testTheEarlierKeyLayoutStepsGiveTheKeysANewClusterMakes() throws {
        let sql = try statements(after: "earlier key layout")
        XCTAssertEqual(sql.count, 24, "three statements for each of eight tables")
        let imported = report(["import", "--db", databasePath, "-q", CitusDomainTests.sampleData.path])
        XCTAssertEqual(imported.code, .success, imported.err)
        let database = try database()
        let widened = try primaryKeys(database)
        let earlier: [String: (key: [String], column: String)] = [
            "tasks": (["id"], "user_id"), "flows": (["id"], "user_id"), "focus_sessions": (["id"], "user_id"),
            "bookings": (["id"], "customer_id"), "booking_lines": (["booking_id", "position"], "customer_id"),
            "assignments": (["id"], "event_id"), "loan_records": (["id"], "event_id"),
            "loan_impacts": (["record_id", "position"], "event_id"),
        ]
        for (table, layout) in earlier {
            XCTAssertEqual(widened[table], layout.key + [layout.column], table)
            try database.execute("ALTER TABLE \(table) DROP CONSTRAINT \(table)_pkey")
            try database.execute(
                "ALTER TABLE \(table) ADD PRIMARY KEY (\(([layout.column] + layout.key).joined(separator: ", ")))")
            try database.execute(
                "CREATE INDEX \(table)_\(layout.key.joined(separator: "_"))_key ON \(table) "
                    + "(\(layout.key.joined(separator: ", ")))")
        }
        XCTAssertEqual(try primaryKeys(database)["tasks"], ["user_id", "id"])
        XCTAssertEqual(try keyIndexes(database).count, earlier.count + 1)
        let before = try counts(Array(earlier.keys))

        try database.transaction { for statement in sql { try database.execute(statement) } }
        XCTAssertEqual(try primaryKeys(database), widened)
        XCTAssertEqual(try keyIndexes(database), ["flow_contexts_flow_id_position_key"])
        XCTAssertEqual(try counts(Array(earlier.keys)), before)
        let again = report(["import", "--db", databasePath, "-q", "--force", CitusDomainTests.sampleData.path])
        XCTAssertEqual(again.code, .success, again.err)
        XCTAssertEqual(try counts(Array(earlier.keys)), before, "every row replaced by its key")
    }

    /// Each table's primary key columns in order, in this test's schema.
    private func primaryKeys(_ database: Database) throws -> [String: [String]] {
        var keys: [String: [String]] = [:]
        for table in try database.tableNames() {
            keys[table] = try database.rows(TestStore.primaryKeySQL, [.text(table)]).compactMap { $0[0].string }
        }
        return keys
    }

    /// The indexes of this test's schema whose names end in `_key`, in name order.
    private func keyIndexes(_ database: Database) throws -> [String] {
        try database.rows(
            "SELECT indexname::text FROM pg_catalog.pg_indexes WHERE schemaname = current_schema() "
                + "AND indexname LIKE '%\\_key' ORDER BY indexname COLLATE \"C\""
        ).compactMap { $0[0].string }
    }

    private func counts(_ tables: [String]) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for table in tables { result[table] = try count(table) }
        return result
    }
}
