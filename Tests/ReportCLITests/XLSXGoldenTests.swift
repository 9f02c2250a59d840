import ArgumentParsing
import Foundation
import ReportTestSupport
import XCTest

/// The sample workbooks read back cell by cell, with their number formats, styles, sheet and
/// print setup and charts (`Support/xlsx_golden.py` through openpyxl), compared with golden files
/// under `__Snapshots__/xlsx/`. `RECORD_SNAPSHOTS=1` rewrites them and fails, as every snapshot does.
///
/// `make test` runs this suite on both backends against the same golden files, so the workbooks
/// written from PostgreSQL have the same cells, formats and styles as those written from SQLite.
final class XLSXGoldenTests: CLITestCase {
    static let sampleData = ReportCommandsTests.sampleData
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/xlsx")
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/xlsx_golden.py")
    let asOf = "2026-11-29T06:00:00+01:00"

    func testSampleWorkbooksMatchTheirGoldenFiles() throws {
        try RequiredTool.pythonModule("openpyxl", install: "pip install openpyxl")
        let python = try RequiredTool.path(["python3"], install: "apt-get install python3")
        let imported = report(["import", "--db", databasePath, "--quiet", Self.sampleData.path])
        XCTAssertEqual(imported.code, .success, imported.err)
        let output = path("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let reports: [(name: String, arguments: [String])] = [
            ("bookings-2026-11", ["bookings", "--month", "2026-11"]),
            ("habits-2026-11-28", ["habits", "--date", "2026-11-28"]),
            ("habits-2026-10-01_2026-11-28", ["habits", "--from", "2026-10-01", "--to", "2026-11-28"]),
            ("fleet-salon2016", ["fleet", "--event", "salon2016"]),
        ]
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        for (name, arguments) in reports {
            let run = report(arguments + ["--db", databasePath, "--as-of", asOf, "--xlsx", "-o", output, "-q"])
            XCTAssertEqual(run.code, .success, run.err)
            let dump = try ChildProcess.run(python, [Self.script.path, output + "/\(name).xlsx"])
            XCTAssertEqual(dump.status, 0, dump.err)
            let golden = Self.snapshots.appendingPathComponent(name + ".txt")
            if record {
                try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
                try Data(dump.out.utf8).write(to: golden)
                XCTFail("recorded \(golden.path) (RECORD_SNAPSHOTS=1); run again without it to check it")
                continue
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            if dump.out != expected {
                let got = dump.out.split(separator: "\n", omittingEmptySubsequences: false)
                let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let first = (0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count)
                XCTFail(
                    "\(name).xlsx differs from its golden file at line \(first + 1): "
                        + "got \"\(first < got.count ? got[first] : "<end>")\", "
                        + "expected \"\(first < want.count ? want[first] : "<end>")\"; RECORD_SNAPSHOTS=1 re-records")
            }
        }
    }
}
