import ReportTestSupport
import Store
import XCTest

@testable import Bookings

/// Issue 29 item 5, bookings: on a Citus cluster (bookings and their lines distributed by
/// customer, customers and slots reference tables), the period's scan with its discount subquery
/// over the lines and its join to the customers runs whole on each worker (the coordinator only
/// gathers rows). Only in the Citus pass.
final class BookingsCitusPlanTests: XCTestCase {
    func testThePeriodsScanRunsWholeOnTheWorkers() throws {
        try CitusPlan.requireCitus()
        let fixture = try BookingsAnalysisFixture()
        try fixture.customer("c1", postalCode: "06000")
        try fixture.booking("b1", starts: "2026-11-03T10:00:00+01:00")

        let scan = try CitusPlan.explain(
            fixture.database, BookingsTotals.bookingsSQL(condition: PeriodFilter.indexed.condition),
            [.integer(0), .integer(Int64.max)])
        XCTAssertTrue(CitusPlan.isPushedDownWhole(scan), scan)
        XCTAssertTrue(scan.contains(" booking_lines_") && scan.contains(" customers_"), scan)
    }
}
