import XCTest
import Time
@testable import Fleet

/// The hourly table answers what the zone does, across a DST change and outside its range.
final class HourlyOffsetsTests: XCTestCase {
    func testSameAnswersAsTheZoneAroundADaylightSavingChange() throws {
        for identifier in ["Europe/Paris", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"] {
            let local = try XCTUnwrap(LocalTime(identifier: identifier))
            // Paris leaves summer time on 2016-10-30; Lord Howe moves by half an hour on 2016-10-02.
            let first = try XCTUnwrap(Day("2016-10-01")), last = try XCTUnwrap(Day("2016-10-30"))
            let offsets = HourlyOffsets(local: local, firstDay: first, lastDay: last)
            let start = try XCTUnwrap(Timestamp("2016-09-20T00:00:00Z")).microseconds
            // Every 7 min 13.000001 s over seven weeks, past both ends of the table.
            for instant in stride(from: start, to: start + 49 * 86_400_000_000, by: 433_000_001) {
                let timestamp = Timestamp(microseconds: instant)
                XCTAssertEqual(offsets.offset(at: instant), local.offset(at: timestamp), "\(identifier) \(timestamp)")
                XCTAssertEqual(offsets.day(of: instant), local.day(of: timestamp), "\(identifier) \(timestamp)")
                XCTAssertEqual(
                    offsets.localized(instant).description, local.localized(timestamp).description,
                    "\(identifier) \(timestamp)")
            }
            // The seconds on each side of a change.
            for text in [
                "2016-10-30T00:59:59Z", "2016-10-30T01:00:00Z", "2016-10-01T14:59:59Z", "2016-10-01T15:00:00Z",
            ] {
                let instant = try XCTUnwrap(Timestamp(text)).microseconds
                XCTAssertEqual(offsets.offset(at: instant), local.offset(at: Timestamp(microseconds: instant)), text)
            }
        }
    }
}
