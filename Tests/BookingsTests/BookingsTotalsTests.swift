import ReportModel
import XCTest
@testable import Bookings

/// Money totals are exact to the cent or visibly missing, never wrong (issue 30). Amounts are at
/// most 10^12 cents at import; a total of 10^15 cents or more has 16 digits with its cents, more
/// than a Double holds to the cent, so its cell is empty and a `figure_out_of_range` row says why.
final class BookingsTotalsTests: XCTestCase {
    static let limit: Int64 = 1_000_000_000_000

    func testTotalsJustBelowTheBoundAreExactAndAboveItAreAQualityRow() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.database.transaction {
            // 2026-11-03: 999 × 10^12 + (10^12 − 1) = 10^15 − 1 cents: the largest total shown.
            for index in 0..<1000 {
                try fixture.booking(
                    "a\(index)", starts: "2026-11-03T10:00:00+01:00",
                    amount: index == 0 ? Self.limit - 1 : Self.limit, postalCode: "75002")
            }
            // 2026-11-04: 1000 × 10^12 = 10^15 cents, with service lines at the limit too.
            for index in 0..<1000 {
                try fixture.booking(
                    "b\(index)", starts: "2026-11-04T10:00:00+01:00", amount: Self.limit,
                    lines: [("s2", Self.limit, nil)])
            }
        }
        let report = try fixture.report(month: "2026-11")

        let exact = try XCTUnwrap(report.rows("daily", where: try day("2026-11-03")).first)
        XCTAssertEqual(exact[5], .number(9_999_999_999_999.99))
        XCTAssertEqual(try report.rows("daily", where: try day("2026-11-04")).first?[5], .empty)
        XCTAssertEqual(try report.rows("postal_codes", where: .text("75002")).first?[2], .number(9_999_999_999_999.99))
        XCTAssertEqual(try report.rows("postal_codes", where: .text("75011")).first?[2], .empty)
        XCTAssertEqual(try report.rows("services", where: .text("s1")).first?[4], .number(45_000))  // 1000 × 45.00
        XCTAssertEqual(try report.rows("services", where: .text("s2")).first?[4], .empty)
        XCTAssertEqual(try report.figure("revenue_eur"), .empty)
        XCTAssertEqual(try report.figure("average_basket_eur"), .empty)
        XCTAssertEqual(try report.figure("bookings"), .integer(2000))

        let outOfRange = try report.rows("quality").filter { $0.first == .text("figure_out_of_range") }
        XCTAssertEqual(
            outOfRange.map { [$0[1]] },
            [[.text("daily 2026-11-04")], [.text("postal_code 75011")], [.text("service s2")], [.text("summary")]])
        XCTAssertEqual(
            outOfRange.first?[2],
            .text(
                "revenue_eur is a total of more than 15 digits (or past 2^63 units) and cannot be shown exactly; "
                    + "the cell is left empty"))
        XCTAssertEqual(try report.figure("figures_out_of_range"), .integer(4))
    }

    /// Amounts at the limit are stored; past it the record is rejected with the field and the limit,
    /// and nothing of it is stored (SPEC §1.4).
    func testAmountsAtTheLimitImportAndPastItAreRejected() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.booking("max", starts: "2026-11-03T10:00:00+01:00", amount: Self.limit)
        XCTAssertThrowsError(
            try fixture.booking("over", starts: "2026-11-03T11:00:00+01:00", amount: Int64.max)
        ) { error in
            XCTAssertEqual(
                "\(error)", "field amount_cents: must be an integer from 0 to 1000000000000 9223372036854775807")
        }
        XCTAssertEqual(try fixture.database.scalarInt("SELECT COUNT(*) FROM bookings"), 1)
        XCTAssertEqual(try fixture.report(month: "2026-11").figure("revenue_eur"), .number(10_000_000_000))
    }
}
