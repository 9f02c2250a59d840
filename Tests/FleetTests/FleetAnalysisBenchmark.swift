import Foundation
import XCTest
import ReportCore
import Fleet

/// Runs the fleet report over a big database and prints its time and peak memory; skipped unless
/// `FLEET_BENCH_DB` names a database (made with `Benchmarks/fleet/generate.py` and `report import`).
/// It asserts no duration: it is a measuring tool for `make bench`, not a timed test.
///
///     FLEET_BENCH_DB=/tmp/bench.sqlite swift test -c release -Xswiftc -enable-testing \
///         --filter FleetAnalysisBenchmark
final class FleetAnalysisBenchmark: XCTestCase {
    func testReportOverBenchmarkDatabase() throws {
        guard let path = ProcessInfo.processInfo.environment["FLEET_BENCH_DB"] else {
            throw XCTSkip("set FLEET_BENCH_DB to a fleet database to measure the report")
        }
        let environment = ProcessInfo.processInfo.environment
        let event = environment["FLEET_BENCH_EVENT"] ?? "bench"
        let asOf = try XCTUnwrap(Timestamp(environment["FLEET_BENCH_AS_OF"] ?? "2017-01-01T00:00:00Z"))
        let database = try Database(path: path, mode: .readOnly)
        let started = Date()
        let report = try FleetAnalysis.report(database: database, options: FleetOptions(eventId: event, asOf: asOf))
        let analyzed = Date()
        // Every row of every table, as a writer would ask for them.
        var cells = 0
        for table in report.tables {
            for row in table.rows.makeIterator() { cells += row.count }
        }
        let rendered = Date()
        XCTAssertGreaterThan(cells, 0)
        print(String(format: "fleet report: analysis %.2f s, rows %.2f s, %d cells, peak RSS %@",
                     analyzed.timeIntervalSince(started), rendered.timeIntervalSince(analyzed), cells,
                     FleetAnalysisBenchmark.peakResidentMemory()))
        for figure in report.figures { print("  \(figure.metric) \(figure.value)") }
    }

    /// `VmHWM` from /proc/self/status: the process's peak resident set.
    static func peakResidentMemory() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return "unknown" }
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM") }
            .map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }
}
