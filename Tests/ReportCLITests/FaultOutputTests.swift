import ArgumentParsing
import Foundation
import ReportTestSupport
import XCTest
@testable import ReportCLI

/// Faults of the output folder (issue 8): full, missing, not a folder, read-only. Each gives one
/// clear line and exit code 1, and leaves no partial file: what was there before is still there,
/// byte for byte, and no temporary file is left behind.
///
/// The full-disk runs use the real binary, so that its standard error is the real one and a line
/// printed by libxlsxwriter itself would be seen.
final class FaultOutputTests: CLITestCase {
    static let asOf = "2017-01-01T00:00:00Z"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let fleet = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleData/fleet").path
        let run = report(["import", "--db", databasePath, "-q", fleet])
        XCTAssertEqual(run.code, .success, run.err)
    }

    private func fleet(_ formats: [String], to output: String, asOf: String = asOf) throws -> ChildProcess.Result {
        try ChildProcess.run(
            ChildProcess.reportBinary(),
            ["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", asOf, "-o", output] + formats)
    }

    func testReportsToAFullOutputFolderLeaveNoPartialFiles() throws {
        let disk = try ScratchMount(in: directory, kilobytes: 1024)
        // Reports written while there was room: a failed rewrite must leave them whole.
        let first = try fleet(["--xlsx", "--csv", "--md", "-q"], to: disk.path)
        XCTAssertEqual(first.status, 0, first.err)
        let before = try contents(of: disk.url)
        // 3 charts as SVG and PNG, the workbook, the Markdown, the CSV folder with 7 tables and their schema.
        XCTAssertEqual(before.count, 17, before.keys.sorted().joined(separator: ", "))
        try disk.fill(leaving: 8 << 10)
        let withFiller = try contents(of: disk.url)
        let suffix = ": no space left on the device; free some space and run again"
        for formats in [["--xlsx", "--csv", "--md"], ["--xlsx"], ["--csv"], ["--md"]] {
            let run = try fleet(formats, to: disk.path, asOf: "2017-02-01T00:00:00Z")
            XCTAssertEqual(run.status, 1, "\(formats): \(run.err)")
            XCTAssertEqual(run.errLines.count, 1, "\(formats): one line, nothing from libxlsxwriter: \(run.err)")
            let line = run.errLines.first ?? ""
            XCTAssertTrue(line.hasPrefix("report fleet: cannot write \(disk.path)/fleet-salon2016"), line)
            XCTAssertTrue(line.hasSuffix(suffix), line)
            XCTAssertFalse(line.contains("/.fleet-salon2016"), "the message names the file, not its temporary: \(line)")
            if formats == ["--xlsx"] {
                XCTAssertEqual(
                    line, "report fleet: cannot write \(disk.path)/fleet-salon2016.xlsx (write the workbook)" + suffix)
            }
            XCTAssertEqual(
                try contents(of: disk.url), withFiller,
                "\(formats): the earlier files are intact and no temporary file is left")
        }
    }

    func testAMissingOrNonFolderOutput() throws {
        let missing = path("missing")
        let run = report([
            "fleet", "--db", databasePath, "--event", "salon2016", "--as-of", Self.asOf, "--csv", "-o", missing,
        ])
        XCTAssertEqual(run.code, .success, "a missing folder is created (SPEC §7): \(run.err)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: missing + "/fleet-salon2016/vehicles.csv"))

        let file = try write("a-file", "not a folder")
        let notAFolder = report([
            "fleet", "--db", databasePath, "--event", "salon2016", "--as-of", Self.asOf, "--md", "-o", file,
        ])
        XCTAssertEqual(notAFolder.code, .failure)
        XCTAssertEqual(notAFolder.errLines, ["report fleet: \(file): not a folder; give another -o DIR"])
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "not a folder")

        // The default folder, Reports/, is a file in the working folder.
        let workingFolder = directory.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: workingFolder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: workingFolder.appendingPathComponent("Reports"))
        let child = try ChildProcess.run(
            ChildProcess.reportBinary(),
            ["fleet", "--db", databasePath, "--event", "salon2016", "--as-of", Self.asOf, "--xlsx"],
            workingDirectory: workingFolder.path)
        XCTAssertEqual(child.status, 1, child.err)
        XCTAssertEqual(child.errLines, ["report fleet: Reports: not a folder; give another -o DIR"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: workingFolder.path), ["Reports"])
    }

    func testAReadOnlyOutputFolder() throws {
        let disk = try ScratchMount(in: directory, kilobytes: 1024)
        try disk.remountReadOnly()
        for (formats, file) in [
            (["--csv"], "fleet-salon2016"), (["--md"], "fleet-salon2016-daily-utilization.svg"),
            (["--xlsx"], "fleet-salon2016.xlsx"),
        ] {
            let run = try fleet(formats, to: disk.path)
            XCTAssertEqual(run.status, 1, run.err)
            XCTAssertEqual(run.errLines.count, 1, run.err)
            let line = run.errLines.first ?? ""
            XCTAssertTrue(line.hasPrefix("report fleet: "), line)
            XCTAssertTrue(line.contains("\(disk.path)/\(file)") || line.contains("output folder \(disk.path)"), line)
            XCTAssertTrue(
                line.contains("permission denied or read-only file system")
                    && line.contains("choose a writable folder with -o"), line)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path), [])
    }

    /// Every file below `root` (hidden ones included) with its bytes.
    private func contents(of root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return result }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(relative).path
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            result[relative + (isDirectory.boolValue ? "/" : "")] =
                isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return result
    }
}
