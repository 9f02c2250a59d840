import ReportApp
import ArgumentParsing
import Foundation
import Store
import ReportTestSupport
import XCTest
@testable import ReportCLI

/// Runs `report` in-process in a fresh temporary folder, capturing standard output and error.
class CLITestCase: XCTestCase {
    var directory: URL!
    /// The test's database: `report.sqlite` in the test folder, or (`REPORT_TEST_BACKEND=postgresql`)
    /// a new database of the PostgreSQL test server, made on first use.
    var databasePath: String {
        if let location { return location }
        let made =
            (try? TestStore.freshLocation(in: directory.path, name: "report.sqlite"))
            ?? "postgresql-test-server-failed-to-start"
        location = made
        return made
    }
    private var location: String?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A backend that cannot run here skips or fails the test now (tearDown still removes the folder).
        try TestStore.checkAvailable()
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    struct Run {
        let code: ExitCode
        let out: String
        let err: String
        var errLines: [String] { err.split(separator: "\n").map(String.init) }
        var outLines: [String] { out.split(separator: "\n").map(String.init) }
    }

    /// `report ARGS` with `--db` pointing at the test database unless `database` is false.
    func report(_ arguments: [String], environment: [String: String] = [:]) -> Run {
        final class Buffer: @unchecked Sendable { var text = "" }
        let out = Buffer(), err = Buffer()
        let console = Console(out: { out.text += $0 }, error: { err.text += $0 }, errorIsTerminal: false)
        let code = CommandLineTool.run(
            arguments, modules: registeredModules, console: console, environment: environment)
        return Run(code: code, out: out.text, err: err.text)
    }

    /// Writes a file under the test folder (creating folders) and returns its path.
    @discardableResult
    func write(_ relativePath: String, _ content: String) throws -> String {
        let url = directory.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(content.utf8).write(to: url)
        return url.path
    }

    func path(_ relativePath: String) -> String { directory.appendingPathComponent(relativePath).path }

    func database() throws -> Database { try Database(path: databasePath) }

    func count(_ table: String) throws -> Int64 {
        try database().scalarInt("SELECT COUNT(*) FROM \(table)") ?? -1
    }

    /// Every row of every table, to compare the database before and after a failed import.
    func snapshot() throws -> [String: [[SQLValue]]] {
        guard TestStore.backend == .postgresql || FileManager.default.fileExists(atPath: databasePath) else {
            return [:]
        }
        return try TableSnapshot.of(database())
    }
}
