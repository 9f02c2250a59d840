import Foundation
@testable import Import
import ReportTestSupport
import Store
import XCTest

/// docs/SCALE.md's operator steps on Citus, run word for word on the Citus test cluster: each
/// block marked `<!-- operator steps: … -->` is read from the page, its `export REPORT_DB=…` line
/// points at the test's database instead, its `/srv/…` folders are folders of the test, and every
/// `report` line must succeed. Only in the Citus pass.
final class CitusOperatorStepsTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try CitusPlan.requireCitus()
    }

    /// The `report …` lines of the block after `marker`, as arguments; fails the test when the
    /// block's other lines are not the `export REPORT_DB=` line.
    private func steps(after marker: String) throws -> [[String]] {
        let page = try String(
            contentsOf: SampleReportsTests.root.appendingPathComponent("docs/SCALE.md"), encoding: .utf8)
        guard let start = page.range(of: "<!-- operator steps: \(marker)") else {
            XCTFail("docs/SCALE.md has no block \(marker)")
            return []
        }
        let rest = page[start.upperBound...]
        guard let open = rest.range(of: "```sh\n"), let close = rest[open.upperBound...].range(of: "```") else {
            XCTFail("docs/SCALE.md: the block \(marker) is not a sh block")
            return []
        }
        var commands: [[String]] = []
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
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
}
