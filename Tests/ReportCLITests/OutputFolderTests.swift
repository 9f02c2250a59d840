import ArgumentParsing
import Foundation
import ReportTestSupport
import XCTest
@testable import ReportCLI

#if canImport(Glibc)
import Glibc
#endif

/// `-o DIR` and `--archive DIR` are created with their parents when missing (SPEC §7, issue 30):
/// the README's crontab must work on its first night. An existing path that is not a folder stays
/// an error, and a symbolic link whose target is missing is never followed to create folders.
final class OutputFolderTests: CLITestCase {
    static let asOf = "2016-10-02T08:00:00+02:00"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("inbox/moods.json", #"[{"userId": "u1", "date": "2016-10-01", "mood": 4}]"#)
    }

    private func habits(_ output: String) -> Run {
        report(["habits", "--db", databasePath, "--date", "2016-10-01", "--as-of", Self.asOf, "--csv", "-o", output])
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0, path)
        return status.st_mode & 0o7777
    }

    private func currentUmask() -> mode_t {
        let previous = umask(0o022)
        umask(previous)
        return previous
    }

    func testAReportCommandCreatesAMissingOutputFolderAndItsParents() throws {
        XCTAssertEqual(report(["import", "--db", databasePath, "-q", path("inbox")]).code, .success)
        let output = path("srv/reports/nightly")
        let run = habits(output)
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output), ["habits-2016-10-01"])
        for folder in ["srv", "srv/reports", "srv/reports/nightly"] {
            XCTAssertEqual(mode(path(folder)), 0o755 & ~currentUmask(), folder)
        }
        // A relative path with `..` and `.` parts is created too, relative to the current folder.
        try FileManager.default.createDirectory(atPath: path("work"), withIntermediateDirectories: false)
        let work = try ChildProcess.run(
            ChildProcess.reportBinary(),
            [
                "habits", "--db", databasePath, "--date", "2016-10-01", "--as-of", Self.asOf, "--csv", "-o",
                "../work/./../rel/out",
            ],
            workingDirectory: path("work"))
        XCTAssertEqual(work.status, 0, work.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("rel/out")), ["habits-2016-10-01"])
    }

    func testAnExistingNonFolderIsAnErrorAndNothingIsCreated() throws {
        XCTAssertEqual(report(["import", "--db", databasePath, "-q", path("inbox")]).code, .success)
        let file = try write("taken", "a file")
        let itself = habits(file)
        XCTAssertEqual(itself.code, .failure)
        XCTAssertEqual(itself.errLines, ["report habits: \(file): not a folder; give another -o DIR"])
        let below = habits(file + "/reports")
        XCTAssertEqual(below.code, .failure)
        XCTAssertEqual(
            below.errLines,
            [
                "report habits: \(file)/reports: cannot create the output folder: \(file) is not a folder; "
                    + "give another -o DIR"
            ])
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "a file", "the file is left alone")
    }

    func testADanglingLinkIsNotFollowedAndALinkToAFolderIsUsed() throws {
        XCTAssertEqual(report(["import", "--db", databasePath, "-q", path("inbox")]).code, .success)
        let outside = path("outside/missing")
        try FileManager.default.createDirectory(atPath: path("outside"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("link"), withDestinationPath: outside)
        for output in [path("link"), path("link/sub")] {
            let run = habits(output)
            XCTAssertEqual(run.code, .failure, output)
            XCTAssertEqual(
                run.errLines,
                [
                    "report habits: \(output): cannot create the output folder: \(path("link")) is a symbolic link to "
                        + "\(outside), which does not exist; create its target or give another -o DIR"
                ])
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: path("outside")), [], "nothing made through the link")

        // A link that leads to a folder is that folder, as its owner set it up.
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        let run = habits(path("link/sub"))
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside + "/sub"), ["habits-2016-10-01"])
    }

    func testNightlyCreatesItsArchiveAndOutputFoldersOnTheFirstNight() throws {
        // The README's crontab: --archive /srv/exports/archive -o /srv/reports, nothing made yet.
        let archive = path("srv/exports/archive"), output = path("srv/reports")
        let run = report([
            "nightly", "--inbox", path("inbox"), "--archive", archive, "-o", output, "--db", databasePath,
            "--as-of", Self.asOf, "--only", "habits",
        ])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: archive + "/2016-10-02"), ["moods.json"])
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: output))
        XCTAssertTrue(
            written.isSuperset(of: ["habits-2016-10-01", "habits-2016-10-01.md", "habits-2016-10-01.xlsx"]),
            "\(written.sorted())")
        for folder in [archive, output, path("srv"), path("srv/exports")] {
            XCTAssertEqual(mode(folder), 0o755 & ~currentUmask(), folder)
        }
    }

    func testNightlyRefusesANonFolderArchiveOrOutputAndDoesNothing() throws {
        let file = try write("taken", "a file")
        for (extra, line) in [
            (["--archive", file], "\(file): not a folder; give another --archive DIR; nothing done"),
            (
                ["--archive", file + "/archive"],
                "\(file)/archive: cannot create the archive folder: \(file) is not a folder; give another "
                    + "--archive DIR; nothing done"
            ),
            (["--archive", path("archive"), "-o", file], "\(file): not a folder; give another -o DIR; nothing done"),
        ] {
            let run = report(
                ["nightly", "--inbox", path("inbox"), "--db", databasePath, "--as-of", Self.asOf] + extra)
            XCTAssertEqual(run.code, .failure, "\(extra)")
            XCTAssertTrue(run.errLines.contains { $0.hasSuffix(line) }, "\(extra): \(run.err)")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: path("inbox")), ["moods.json"],
                "\(extra): the inbox is left as it was")
        }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "a file")
    }
}
