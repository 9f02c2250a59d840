import ArgumentParsing
import Foundation
import ReportTestSupport
import XCTest
@testable import ReportCLI

/// Several processes on one database (issue 8): imports take turns for the write lock (WAL,
/// busy timeout) and both succeed; a report or `status` run while an import writes sees the
/// database before or after that file, never in between (one transaction per file, one read
/// snapshot per report).
final class ConcurrencyTests: CLITestCase {
    /// `count` logins, distinct by (user, time).
    private func writeLogins(_ name: String, count: Int, minute: Int) throws -> String {
        var text = ""
        for index in 0..<count {
            let seconds = index % 3600
            let time =
                "\(Self.two(minute / 60 + seconds / 3600)):\(Self.two(seconds / 60)):\(Self.two(seconds % 60))"
            text += #"{"userId": "u\#(index / 3600)", "at": "2026-11-28T\#(time)Z"}"# + "\n"
        }
        return try write(name, text)
    }

    private static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }

    func testTwoImportsOfDifferentFilesIntoOneDatabaseBothSucceed() throws {
        let binary = try ChildProcess.reportBinary()
        // Twice: into a database that does not exist yet (both create it), then into the same one.
        var expectedTasks = 0
        var expectedLogins = 0
        for round in 1...2 {
            let tasks = path("tasks-\(round).jsonl")
            let taskCount = try HostileVolumeTests.writeTasks(to: tasks, bytes: 3 << 20, idPrefix: "r\(round)-")
            let logins = try writeLogins("logins-\(round).jsonl", count: 20_000, minute: round * 600)
            let first = try ChildProcess(binary, ["import", "--db", databasePath, tasks])
            let second = try ChildProcess(binary, ["import", "--db", databasePath, logins])
            let results = [first.wait(), second.wait()]
            XCTAssertEqual(results.map(\.status), [0, 0], results.map(\.err).joined(separator: "\n"))
            XCTAssertEqual(results.map(\.err), ["", ""])
            XCTAssertEqual(
                results[0].outLines.first,
                "imported \(tasks) (tasks): \(taskCount) records, \(taskCount) accepted, 0 rejected")
            XCTAssertEqual(
                results[1].outLines.first, "imported \(logins) (logins): 20000 records, 20000 accepted, 0 rejected")
            expectedTasks += taskCount
            expectedLogins += 20_000
            XCTAssertEqual(try count("tasks"), Int64(expectedTasks))
            XCTAssertEqual(try count("logins"), Int64(expectedLogins))
            XCTAssertEqual(try count("import_log"), Int64(round * 2))
        }
    }

    func testAReportDuringAnImportSeesBeforeOrAfterNeverBetween() throws {
        let binary = try ChildProcess.reportBinary()
        let users = try write("users.json", #"[{"id": "u0"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, users]).code, .success)
        let file = path("tasks.jsonl")
        let total = try HostileVolumeTests.writeTasks(to: file, bytes: 16 << 20)
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        let importing = try ChildProcess(binary, ["import", "--db", databasePath, file])
        var seen: [Int] = []
        var outcome: ChildProcess.Result?
        repeat {
            outcome = importing.poll()
            // `status`: the count of tasks.
            let status = report(["status", "--db", databasePath])
            XCTAssertEqual(status.code, .success, status.err)
            let statusCount = Self.tasksCount(status.outLines) ?? -1
            // A report: planned tasks of the day in its summary (before the import, an empty period).
            let habits = report([
                "habits", "--db", databasePath, "--date", "2026-11-28", "--as-of", "2026-11-29T06:00:00Z",
                "--csv", "-o", output.path, "-q", "--allow-empty",
            ])
            XCTAssertEqual(habits.code, .success, habits.err)
            let summary = try String(
                contentsOf: output.appendingPathComponent("habits-2026-11-28/summary.csv"), encoding: .utf8)
            let planned =
                summary.split(separator: "\r\n").first { $0.hasPrefix("tasks_planned,") }.flatMap {
                    Int($0.dropFirst("tasks_planned,".count))
                } ?? -1
            seen += [statusCount, planned]
        } while outcome == nil
        let result = try XCTUnwrap(outcome)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(
            seen.allSatisfy { $0 == 0 || $0 == total }, "counts seen: \(Set(seen).sorted()), expected 0 or \(total)")
        XCTAssertEqual(try count("tasks"), Int64(total))
        let after = report(["status", "--db", databasePath])
        XCTAssertEqual(Self.tasksCount(after.outLines), total, after.out)
    }

    /// The count on the `tasks` line of `status` (nil without one, as when `status` failed: an
    /// assertion fails then, not the test process).
    private static func tasksCount(_ lines: [String]) -> Int? {
        guard let line = lines.first(where: { $0.hasPrefix("tasks ") }) else { return nil }
        let fields = line.split(separator: " ")
        return fields.count > 1 ? Int(fields[1]) : nil
    }
}
