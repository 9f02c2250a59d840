import ReportTestSupport
import Store
import XCTest

@testable import Habits

/// Issue 29 item 5, habits: on a Citus cluster (tables laid out as `report distribute` does), the
/// question "has this user anything" (`--user`) goes to the one worker of that user's shard, and
/// the read of a range of users' flows with their contexts, a join of two tables colocated by
/// user, runs whole on each worker. Only in the Citus pass.
final class HabitsCitusPlanTests: XCTestCase {
    func testOneUsersQueryIsARouterQueryAndTheFlowsJoinRunsOnTheWorkers() throws {
        try CitusPlan.requireCitus()
        let store = try HabitsTestStore()
        try store.user("u1", timezone: "Europe/Paris")
        try store.task("t1", date: "2026-11-01")
        try store.flow("f1", date: "2026-11-01", steps: [true])

        let one = try CitusPlan.explain(store.database, HabitsRecordReader.hasAnythingSQL, [.text("u1")])
        XCTAssertEqual(CitusPlan.taskCount(one), 1, one)
        XCTAssertTrue(CitusPlan.isPushedDownWhole(one), one)

        let flows = try CitusPlan.explain(store.database, HabitsRecordReader.flowsSQL, [.text("a"), .text("z")])
        XCTAssertTrue(CitusPlan.isPushedDownWhole(flows), flows)
        // The join is in each worker's plan: it names the shards of both tables.
        XCTAssertTrue(flows.contains(" flows_") && flows.contains(" flow_contexts_"), flows)
    }
}
