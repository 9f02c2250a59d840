import Foundation
import Time
import ReportTestSupport
import XCTest
@testable import Bookings

/// The SPEC's scale target: 500,000 bookings in a year, analysed within 256 MB. Slow (it writes
/// the rows first), so it only runs with `BOOKINGS_SCALE_TEST=1`:
/// `BOOKINGS_SCALE_TEST=1 swift test --filter BookingsAnalysisScaleTests`.
/// It asserts the peak resident memory of the whole test process, never a duration.
final class BookingsAnalysisScaleTests: XCTestCase {
    func testHalfAMillionBookingsInAYearStayUnder256MB() throws {
        guard ProcessInfo.processInfo.environment["BOOKINGS_SCALE_TEST"] == "1" else {
            throw XCTSkip("set BOOKINGS_SCALE_TEST=1 to run the 500,000-booking test")
        }
        let fixture = try BookingsAnalysisFixture(defaults: false)
        let database = fixture.database
        let bookingCount = 500_000
        let yearStart = try XCTUnwrap(Timestamp("2026-01-01T08:00:00Z")).microseconds
        let hour: Int64 = 3_600_000_000
        let statuses = ["pending", "confirmed", "paid", "done", "done", "done", "cancelled", "no_show"]
        // Rows are written straight with SQL: this measures the analysis, not the importer.
        try database.transaction {
            let services = try database.prepare("INSERT INTO services VALUES (?, ?, 'Cat', 4000, 5000, 30, 0)")
            for index in 0..<60 {
                try services.bind([.text("s\(index)"), .text("Service \(index)")]); try services.run()
            }
            let customers = try database.prepare("INSERT INTO customers VALUES (?, 0, ?, 0)")
            for index in 0..<100_000 {
                try customers.bind([.text("c\(index)"), .text("75\(String(100 + index % 20).suffix(3))")])
                try customers.run()
            }
            let slots = try database.prepare("INSERT INTO slots VALUES (?, ?, ?, 40, 0)")
            for dayIndex in 0..<365 {
                for period in 0..<3 {
                    let starts = yearStart + Int64(dayIndex) * 24 * hour + Int64(period) * 5 * hour
                    try slots.bind([.text("slot-\(dayIndex)-\(period)"), .integer(starts), .integer(starts + 4 * hour)])
                    try slots.run()
                }
            }
            let bookings = try database.prepare("INSERT INTO bookings VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0)")
            let lines = try database.prepare("INSERT INTO booking_lines VALUES (?, ?, ?, 4000, ?)")
            for index in 0..<bookingCount {
                let dayIndex = index % 365
                let period = index % 3
                let starts =
                    yearStart + Int64(dayIndex) * 24 * hour + Int64(period) * 5 * hour + Int64(index % 4) * hour
                let status = statuses[index % statuses.count]
                let id = "b\(index)"
                try bookings.bind([
                    .text(id), .text("c\(index % 120_000)"), .text("slot-\(dayIndex)-\(period)"), .integer(starts),
                    .integer(starts - Int64(index % 500) * hour), .text(status),
                    .integer(4000 + Int64(index % 7) * 500),
                    status == "cancelled" ? .integer(starts - Int64(index % 48) * hour) : .null,
                    index % 3 == 0 ? .text("75011") : .null,
                ])
                try bookings.run()
                for position in 0..<(1 + index % 2) {
                    try lines.bind([
                        .text(id), .integer(Int64(position)), .text("s\((index + position) % 64)"),
                        index % 5 == 0 ? .integer(4500) : .null,
                    ])
                    try lines.run()
                }
            }
        }
        if TestStore.backend == .sqlite { try database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let before = Self.peakResidentMegabytes()
        // Linux lets a process reset its peak (VmHWM), so the figure below is the report's own.
        let reset = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        let started = Date()
        let report = try fixture.report(from: "2026-01-01", to: "2026-12-31", asOf: "2026-07-01T00:00:00Z")
        var cells = 0
        for table in report.tables { for row in table.rows.all { cells += row.count } }
        let after = Self.peakResidentMegabytes()
        print(
            "peak resident memory: \(before) MB while writing the rows; \(after) MB during the report"
                + (reset ? "" : " (peak not reset: includes the writing)")
                + "; \(cells) cells; report in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        XCTAssertEqual(try report.figure("bookings"), .integer(Int64(bookingCount)))
        XCTAssertEqual(try report.rows("daily").count, 365)
        XCTAssertLessThan(after, 256)
    }

    /// The process's peak resident set size in MB: VmHWM of /proc/self/status (resettable), else
    /// getrusage's lifetime peak.
    static func peakResidentMegabytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        {
            return kilobytes / 1024
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) / 1024
    }
}
