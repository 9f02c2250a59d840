import ReportModel
import XCTest
@testable import Bookings

/// Revenue, discounts, services and postal codes (SPEC §4).
final class BookingsAnalysisMoneyTests: XCTestCase {
    func testOldPriceBelowThePriceGivesNoNegativeDiscount() throws {
        let fixture = try BookingsAnalysisFixture()
        // The catalogue's old price (90.00) is never used: only each line's own.
        try fixture.service("s2", name: "Brushing", category: "Coiffage", price: 3000, oldPrice: 9000)
        try fixture.booking(
            "b1", starts: "2026-11-03T10:00:00+01:00", status: "paid", amount: 13000,
            lines: [
                ("s1", 5000, 4000),  // old below price: max(4000 − 5000, 0) = 0, not −10.00
                ("s2", 3000, 3500),  // 5.00
                ("s1", 5000, nil),  // no old price on the line: 0 (no catalogue fallback)
            ])
        // A cancelled booking's lines count as bookings but bring no revenue or discount.
        try fixture.booking(
            "b2", starts: "2026-11-03T15:00:00+01:00", status: "cancelled", amount: 3000,
            lines: [("s2", 3000, 4000)])
        let report = try fixture.report(month: "2026-11")

        assertNumber(try report.figure("discount_eur"), 5)
        let daily = try XCTUnwrap(report.rows("daily", where: try day("2026-11-03")).first)
        assertNumber(daily[5], 130)  // b1's amount
        assertNumber(daily[6], 5)
        let services = try report.rows("services")
        XCTAssertEqual(
            services.map { Array($0.prefix(4)) },
            [
                [.text("s1"), .text("Coupe femme"), .text("Coupe"), .integer(2)],  // twice in b1
                [.text("s2"), .text("Brushing"), .text("Coiffage"), .integer(2)],  // b1 + cancelled b2
            ])
        assertNumber(services[0][4], 100)  // 50.00 + 50.00
        assertNumber(services[0][5], 0)
        assertNumber(services[1][4], 30)  // b1's line only
        assertNumber(services[1][5], 5)
    }

    func testUnknownServiceHasARowWithEmptyNameAndOneQualityIssuePerBooking() throws {
        let fixture = try BookingsAnalysisFixture()
        try fixture.booking(
            "b1", starts: "2026-11-04T10:00:00+01:00", status: "done", amount: 6000,
            lines: [("retired", 2000, 2500), ("retired", 2000, nil), ("s1", 2000, nil)])
        let report = try fixture.report(month: "2026-11")
        let retired = try XCTUnwrap(report.rows("services", where: .text("retired")).first)
        XCTAssertEqual(Array(retired.prefix(4)), [.text("retired"), .empty, .empty, .integer(2)])
        assertNumber(retired[4], 40)  // 20.00 × 2
        assertNumber(retired[5], 5)  // 25.00 − 20.00 on the first line
        XCTAssertEqual(
            try report.rows("quality"),
            [
                [
                    .text("unknown_service"), .text("b1"), .text("service retired is not in the services export"),
                ]
            ])
        XCTAssertEqual(try report.figure("unknown_services"), .integer(1))
    }

    func testPostalCodeIsTheBookingsElseTheCustomersElseEmpty() throws {
        let fixture = try BookingsAnalysisFixture()  // c1 lives in 75011
        try fixture.customer("c2")  // no postal code
        try fixture.booking("own", starts: "2026-11-05T10:00:00+01:00", amount: 1000, postalCode: "75002")
        try fixture.booking("from-customer", starts: "2026-11-05T11:00:00+01:00", amount: 2000)
        try fixture.booking("blank-own", starts: "2026-11-05T12:00:00+01:00", amount: 4000, postalCode: "")
        try fixture.booking("cancelled", starts: "2026-11-05T13:00:00+01:00", status: "cancelled", amount: 8000)
        try fixture.booking("none", starts: "2026-11-05T14:00:00+01:00", amount: 16000, customer: "c2")
        try fixture.booking(
            "unknown-customer", starts: "2026-11-05T15:00:00+01:00", status: "no_show",
            amount: 32000, customer: "c9")
        let report = try fixture.report(month: "2026-11")

        let rows = try report.rows("postal_codes")
        // "" first (byte order): none (160.00 paid) + unknown-customer (no_show: no revenue) = 2 bookings, 160.00
        // 75002: own = 1 booking, 10.00
        // 75011: from-customer 20.00 + blank-own 40.00 + cancelled (no revenue) = 3 bookings, 60.00
        XCTAssertEqual(
            rows.map { Array($0.prefix(2)) },
            [
                [.text(""), .integer(2)], [.text("75002"), .integer(1)], [.text("75011"), .integer(3)],
            ])
        assertNumber(rows[0][2], 160)
        assertNumber(rows[1][2], 10)
        assertNumber(rows[2][2], 60)
        let top = try report.rows("top_postal_codes")
        XCTAssertEqual(
            top.map { $0[0] }, [.text("75011"), .text("(none)"), .text("75002")], "by bookings, then revenue")
        XCTAssertEqual(
            try report.rows("quality").map { Array($0.prefix(2)) },
            [[.text("unknown_customer"), .text("unknown-customer")]])
    }

    func testTopServicesRankByRevenueAndKeepTen() throws {
        let fixture = try BookingsAnalysisFixture()
        // Services t00…t11 earn 1.00 … 12.00 once each (paid); t00 also appears in a cancelled booking.
        for index in 0..<12 {
            let id = "t" + (index < 10 ? "0" : "") + String(index)
            try fixture.service(id, name: "Service \(index)", category: "Soin", price: Int64(100 * (index + 1)))
            try fixture.booking(
                "b\(index)", starts: "2026-11-06T10:00:00+01:00", amount: Int64(100 * (index + 1)),
                lines: [(id, Int64(100 * (index + 1)), nil)])
        }
        try fixture.booking("x", starts: "2026-11-06T11:00:00+01:00", status: "cancelled", lines: [("t00", 100, nil)])
        let report = try fixture.report(month: "2026-11")
        XCTAssertEqual(try report.rows("services").count, 12)
        let top = try report.rows("top_services")
        XCTAssertEqual(
            top.map { $0[0] }, ["t11", "t10", "t09", "t08", "t07", "t06", "t05", "t04", "t03", "t02"].map(Value.text))
        assertNumber(top[0][4], 12)
    }
}
