import Foundation
import ReportTestSupport
import Store
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Issue 29 item 6 on a Citus cluster of its own (a coordinator and two workers): a worker that
/// stops in the middle of an import fails that file in one line with exit 1, and once the worker
/// is back nothing of the file is on any node, while the earlier file is whole. Only in the Citus
/// pass.
final class CitusFaultTests: CLITestCase {
    func testAWorkerStoppedInTheMiddleOfAnImportLeavesNothingOfTheFileOnAnyNode() throws {
        try CitusPlan.requireCitus()
        let cluster = try CitusTestServer(name: "fault")
        defer { cluster.stop() }
        let url = try cluster.freshDatabase(prefix: "fault")
        let small = try write("users.json", #"[{"id": "u1", "timezone": "Europe/Paris"}]"#)
        let first = report(["import", "--db", url, small])
        XCTAssertEqual(first.code, .success, first.err)
        let tasks = path("tasks.jsonl")
        _ = try HostileVolumeTests.writeTasks(to: tasks, bytes: 64 << 20)
        let child = try ChildProcess(try ChildProcess.reportBinary(), ["import", "--db", url, tasks])
        // Waits until the import's transaction writes tasks, then stops the second worker.
        let observer = try Database(path: cluster.url())
        var writing = false
        for _ in 0..<900 where !writing {
            writing =
                try observer.scalarInt(
                    """
                    SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'report' AND xact_start IS NOT NULL
                      AND pid <> pg_backend_pid()
                      AND (query LIKE 'COPY tasks %' OR query LIKE '%report_stage_tasks%')
                    """) ?? 0 > 0
            if !writing { usleep(20_000) }
        }
        XCTAssertTrue(writing, "the import started writing tasks")
        XCTAssertNil(child.poll(), "the import was still running when the worker stopped")
        cluster.workers[1].stop()
        let result = child.wait()
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(result.errLines.count, 1, result.err)
        XCTAssertTrue(result.err.contains("nothing of this file was stored"), result.err)

        try cluster.workers[1].restart()
        let after = try Database(path: url)
        XCTAssertEqual(try after.scalarInt("SELECT COUNT(*) FROM tasks"), 0, "nothing of the file was stored")
        XCTAssertEqual(try after.rows("SELECT kind FROM import_log ORDER BY id"), [["users"]])
        XCTAssertEqual(try after.scalarInt("SELECT COUNT(*) FROM users"), 1, "the earlier file is intact")
        // No transaction of the import is left prepared (two-phase commit) on a worker.
        let prepared = try after.rows(
            "SELECT result FROM run_command_on_workers('SELECT count(*) FROM pg_prepared_xacts')")
        XCTAssertEqual(prepared, [["0"], ["0"]])
    }
}
