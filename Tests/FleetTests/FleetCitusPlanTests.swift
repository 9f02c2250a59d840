import ReportTestSupport
import Store
import XCTest

@testable import Fleet

/// Issue 29, fleet: on a Citus cluster (tables laid out as `report distribute` does), the report's
/// reads of one event (its assignments, records and impacts, each filtered by `event_id`) go to
/// the one worker of that event's shard. Only in the Citus pass.
final class FleetCitusPlanTests: FleetAnalysisTestCase {
    func testAnEventsReadsAreRouterQueries() throws {
        try CitusPlan.requireCitus()
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "AB1", out: "2016-10-01T10:00:00+02:00", in: "2016-10-01T11:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T10:00:00+02:00", impacts: [("scratch", 1, 2)]))
        ])
        let event: SQLValue = .text("salon2016")
        let names = ImpactType.allCases.map { SQLValue.text($0.name) }
        for (sql, parameters) in [
            (FleetQueries.assignments(.event), [event]), (FleetQueries.records(.event), [event]),
            (FleetQueries.impacts(.event), names + [event, event]), (FleetQueries.assignmentCount, [event]),
        ] {
            let plan = try CitusPlan.explain(try db(), sql, parameters)
            XCTAssertEqual(CitusPlan.taskCount(plan), 1, plan)
            XCTAssertTrue(CitusPlan.isPushedDownWhole(plan), plan)
        }
    }
}
