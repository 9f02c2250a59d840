import Foundation
import ReportCore
import XCTest
@testable import ReportCLI

/// The report commands' options, outputs and errors, over the sample fleet and bookings data.
final class ReportCommandsTests: CLITestCase {
    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleData")
    let asOf = "2026-11-29T06:00:00+01:00"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let run = report(["import", "--db", databasePath, "--quiet", Self.sampleData.path])
        XCTAssertEqual(run.code, .success, run.err)
    }

    func testOneCSVTableToStandardOutput() {
        let run = report(["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "vehicles"])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.out.hasPrefix("plate,brand,model,group,loans,hours_out,available_hours,utilization,km,new_impacts,late_returns\r\n"), run.out)
        // CSV records end in CRLF (RFC 4180), which Swift sees as one Character: split on the string.
        XCTAssertEqual(run.out.components(separatedBy: "\r\n").dropLast().count, 31, "a header and the 30 cars of salon2016")
        let summary = report(["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "summary"])
        XCTAssertEqual(summary.code, .success, summary.err)
        XCTAssertEqual(Array(summary.out.components(separatedBy: "\r\n").prefix(2)), ["metric,value", "vehicles,30"])
        let unknown = report(["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "cars"])
        XCTAssertEqual(unknown.code, .usage)
        XCTAssertEqual(unknown.errLines, ["report fleet: --table: no CSV table \"cars\" in this report; tables: vehicles, daily, loans, damage, drivers, quality, summary"])
    }

    func testTableWithFileFormatsIsAUsageError() throws {
        for format in ["--xlsx", "--md"] {
            let run = report(["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--table", "vehicles", format])
            XCTAssertEqual(run.code, .usage, format)
            XCTAssertEqual(run.errLines, ["report fleet: --table prints one CSV table to standard output and writes no file; drop --xlsx and --md, or drop --table"])
            XCTAssertEqual(run.out, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("Reports")), "no file written")
    }

    func testMarkdownOnStandardOutputWhenNoFormatIsGiven() {
        let run = report(["bookings", "--db", databasePath, "--month", "2026-10", "--as-of", asOf])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.out.hasPrefix("# "), run.out)
        XCTAssertTrue(run.out.contains("- Scope: 2026-10"), run.out)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("Reports") }, [])
        // No file is written beside standard output, so no picture is linked (issue 12).
        XCTAssertFalse(run.out.contains(".svg") || run.out.contains(".png") || run.out.contains("]("), run.out)
        XCTAssertTrue(run.out.contains("The charts are written as PNG and SVG files when the report is saved to a folder."))
    }

    func testFilesGoToTheOutputFolderNamedAfterTheScope() throws {
        let output = path("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let run = report(["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "--xlsx", "--csv", "--md", "-o", output])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(run.out, "", "nothing but the report on standard output")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: output))
        XCTAssertTrue(names.isSuperset(of: ["fleet-salon2016.xlsx", "fleet-salon2016", "fleet-salon2016.md", "fleet-salon2016-heatmap.svg",
                                            "fleet-salon2016-heatmap.png"]), "\(names)")
        // Every file the Markdown links is there.
        let markdown = try String(contentsOfFile: output + "/fleet-salon2016.md", encoding: .utf8)
        let linked = markdown.components(separatedBy: "](").dropFirst().compactMap { $0.split(separator: ")").first.map(String.init) }
        XCTAssertEqual(linked.count, 6, markdown)
        for name in linked { XCTAssertTrue(names.contains(name), name) }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: output + "/fleet-salon2016")),
                       ["vehicles.csv", "daily.csv", "loans.csv", "damage.csv", "drivers.csv", "summary.csv", "quality.csv"])
        XCTAssertTrue(run.errLines.contains("wrote \(output)/fleet-salon2016.xlsx"), run.err)
    }

    func testUsageAndDataErrorsAreOneLine() {
        let cases: [([String], ExitCode, String)] = [
            (["fleet"], .usage, "report fleet: --event is required; see `report status` for the imported events"),
            (["fleet", "--event", "salon2099"], .failure, "report fleet: unknown event \"salon2099\"; known events: salon2016, salon2017"),
            (["fleet", "--event", "salon2016", "--grace-minutes", "-5"], .usage, "report fleet: --grace-minutes: invalid number \"-5\" (0 to 10000)"),
            (["fleet", "--event", "salon2016", "--as-of", "2016-10-01 10:00"], .usage, "report fleet: --as-of: invalid timestamp \"2016-10-01 10:00\" (use e.g. 2026-11-29T06:00:00+01:00)"),
            (["fleet", "--event", "salon2016", "--xlsx", "-o", path("missing")], .failure, "report fleet: \(path("missing")): no such output folder; create it or give another -o DIR"),
            (["habits", "--from", "2026-11-01"], .usage, "report habits: give --date DATE, or both --from and --to, or neither (yesterday)"),
            (["habits", "--date", "2026-02-30"], .usage, "report habits: --date: invalid date \"2026-02-30\" (use YYYY-MM-DD)"),
            (["habits", "--date", "2026-11-28", "--day-start", "25:00"], .usage, "report habits: --day-start: invalid time \"25:00\" (use HH:MM)"),
            (["bookings", "--from", "2026-11-30", "--to", "2026-11-01"], .usage, "report bookings: --from 2026-11-30 is after --to 2026-11-01"),
            (["bookings", "--month", "2026-11", "--timezone", "Mars/Olympus"], .usage, ""),
        ]
        for (arguments, code, message) in cases {
            let run = report(arguments + ["--db", databasePath])
            XCTAssertEqual(run.code, code, "\(arguments): \(run.err)")
            XCTAssertEqual(run.errLines.count, 1, "\(arguments): \(run.err)")
            if !message.isEmpty { XCTAssertEqual(run.errLines.first, message, "\(arguments)") }
            XCTAssertEqual(run.out, "", "\(arguments)")
        }
    }

    func testAReportOnAMissingDatabaseSaysWhatToDo() {
        let run = report(["habits", "--db", path("none.sqlite"), "--date", "2026-11-28"])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(run.errLines, ["report habits: \(path("none.sqlite")): no such database; run `report import PATH...` first, or give --db PATH"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("none.sqlite")))
    }
}
