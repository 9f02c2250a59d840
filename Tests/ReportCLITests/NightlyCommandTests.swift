import Fleet
import ArgumentParsing
import Foundation
import Time
import XCTest
@testable import ReportApp
@testable import ReportCLI
#if canImport(Glibc)
import Glibc
#endif

/// `report nightly` run in-process over small inboxes: what is imported, archived, failed and
/// written, the log and the exit codes. The crash and lock tests with the real binary are in
/// NightlyCrashTests.
final class NightlyCommandTests: CLITestCase {
    let asOf = "2016-10-02T08:00:00+02:00"

    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleData")

    /// `report nightly` on the test folder's inbox; reports go to its Reports/ (never the
    /// package's: the default is relative to the current folder).
    func nightly(_ extra: [String] = []) throws -> Run {
        try FileManager.default.createDirectory(atPath: path("Reports"), withIntermediateDirectories: true)
        return report(
            ["nightly", "--inbox", path("inbox"), "--db", databasePath, "--as-of", asOf, "-o", path("Reports")] + extra)
    }

    /// Regular files below a folder, by relative path.
    func files(_ relative: String) -> [String] {
        let root = path(relative)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var result: [String] = []
        for case let name as String in walker {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
                result.append(name)
            }
        }
        return result.sorted()
    }

    func testImportsArchivesAndWritesEveryReportInEveryFormat() throws {
        try FileManager.default.copyItem(atPath: Self.sampleData.path, toPath: path("inbox"))
        try write("inbox/notes.txt", "not an export")
        let run = try nightly()
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(run.out, "", "standard output stays empty")
        let sample = try FileManager.default.subpathsOfDirectory(atPath: Self.sampleData.path).filter {
            $0.contains(".json")
        }.sorted()
        XCTAssertEqual(
            files("archive/2016-10-02"), sample,
            "every export file is archived under the as-of day, at its relative path")
        XCTAssertEqual(files("inbox"), ["notes.txt"], "only the non-export file stays in the inbox")
        for (relative) in sample {
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: path("archive/2016-10-02/" + relative))),
                try Data(contentsOf: Self.sampleData.appendingPathComponent(relative)), relative)
        }
        let logged = try database().rows("SELECT file FROM import_log ORDER BY id").compactMap { $0[0].string }
        XCTAssertEqual(logged, sample.map { path("inbox") + "/" + $0 }, "imported in byte order of relative paths")
        let reports = Set(try FileManager.default.contentsOfDirectory(atPath: path("Reports")))
        for base in ["fleet-salon2016", "habits-2016-10-01", "bookings-2016-10"] {
            for name in [base + ".xlsx", base + ".md", base] {
                XCTAssertTrue(reports.contains(name), "\(name) written; got \(reports.sorted())")
            }
        }
        XCTAssertFalse(reports.contains("fleet-salon2017"), "an event that is not open is not reported")
        for line in run.errLines {
            XCTAssertNotNil(
                line.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ nightly: "#, options: .regularExpression), line)
        }
        XCTAssertTrue(run.err.contains("nightly: imported \(path("inbox"))/habits/tasks.json (tasks): "), run.err)
        // The sample habits and bookings are of 2026: the night of 2016-10-02 writes their empty
        // reports (it passes --allow-empty) and logs the line a report command exits 5 with.
        XCTAssertTrue(
            run.err.contains(
                " nightly: habits report: no habits data on 2016-10-01; the data covers 2026-09-30 to 2026-11-28\n"),
            run.err)
        XCTAssertTrue(
            run.err.contains(
                " nightly: bookings report: no bookings data in 2016-10; the data covers 2026-10-01 to 2026-11-30\n"),
            run.err)
        XCTAssertFalse(run.err.contains("fleet salon2016 report: no fleet data"), "the fleet event has data")
        let summary = try XCTUnwrap(run.errLines.last)
        XCTAssertTrue(
            summary.contains("\(sample.count) files imported") && summary.contains("3 reports written")
                && summary.hasSuffix("exit 0"), summary)

        let again = try nightly(["--quiet"])
        XCTAssertEqual(again.code, .success)
        XCTAssertEqual(again.err, "", "a quiet run with nothing wrong says nothing")
    }

    /// The domains' reports are made side by side: one that fails (a folder stands where its
    /// workbook goes) is logged and counted, the others are all written in every format, and the
    /// log lists the reports in domain order whichever finished first.
    func testAFailingReportStopsNoOtherAndTheLogKeepsTheDomainOrder() throws {
        try FileManager.default.copyItem(atPath: Self.sampleData.path, toPath: path("inbox"))
        try FileManager.default.createDirectory(
            atPath: path("Reports/habits-2016-10-01.xlsx"), withIntermediateDirectories: true)
        let run = try nightly()
        XCTAssertEqual(run.code, .failure, run.err)
        let reportLines = run.errLines.filter { $0.contains(" nightly: wrote ") || $0.contains(" report failed: ") }
        XCTAssertEqual(reportLines.count, 3, run.err)
        XCTAssertTrue(
            reportLines.first?.contains(" nightly: habits report failed: ") == true
                && reportLines.first?.contains("habits-2016-10-01.xlsx") == true,
            reportLines.first ?? "")
        XCTAssertTrue(reportLines.dropFirst().first?.contains(" nightly: wrote bookings report ") == true, run.err)
        XCTAssertTrue(reportLines.last?.contains(" nightly: wrote fleet salon2016 report ") == true, run.err)
        let reports = Set(try FileManager.default.contentsOfDirectory(atPath: path("Reports")))
        for name in [
            "fleet-salon2016.xlsx", "fleet-salon2016.md", "fleet-salon2016", "bookings-2016-10.xlsx",
            "bookings-2016-10.md", "bookings-2016-10", "habits-2016-10-01", "habits-2016-10-01.md",
        ] {
            XCTAssertTrue(reports.contains(name), "\(name) written; got \(reports.sorted())")
        }
        let summary = try XCTUnwrap(run.errLines.last)
        XCTAssertTrue(summary.contains("2 reports written, 1 failed") && summary.hasSuffix("exit 1"), summary)
    }

    func testAFailedFileMovesToFailedWithTheImportCommandsMessage() throws {
        try write("inbox/late/tasks.json", "{\"tasks\": [ {\"id\": ")
        try write("inbox/moods.json", "[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3}]")
        let checked = report(["check", path("inbox")])
        let expected = try XCTUnwrap(checked.errLines.first { $0.hasPrefix(path("inbox/late/tasks.json") + ":") })
        let run = try nightly(["--quiet"])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(files("inbox"), ["failed/late/tasks.json", "failed/late/tasks.json.error.txt"])
        XCTAssertEqual(
            try String(contentsOfFile: path("inbox/failed/late/tasks.json.error.txt"), encoding: .utf8), expected + "\n"
        )
        XCTAssertEqual(files("archive/2016-10-02"), ["moods.json"])
        XCTAssertTrue(run.err.contains("nightly: failed: " + expected), run.err)
        XCTAssertTrue(
            try XCTUnwrap(run.errLines.last).hasSuffix("exit 1"), "the summary shows when something went wrong")

        // The failed folder is not walked: a second run leaves it alone. The same broken file
        // delivered again fails again and does not overwrite the first one.
        try write("inbox/late/tasks.json", "{\"tasks\": [ {\"id\": 2")
        XCTAssertEqual(try nightly(["--quiet"]).code, .failure)
        XCTAssertEqual(
            files("inbox"),
            [
                "failed/late/tasks-2.json", "failed/late/tasks-2.json.error.txt",
                "failed/late/tasks.json", "failed/late/tasks.json.error.txt",
            ])
    }

    func testRejectedRecordsExitThreeAndAreLoggedEvenWhenQuiet() throws {
        try write(
            "inbox/moods.json",
            ("[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3},{\"userId\":\"emma\","
                + "\"date\":\"someday\",\"mood\":3}]")
        )
        let run = try nightly(["--quiet"])
        XCTAssertEqual(run.code, .rejected, run.err)
        XCTAssertTrue(run.err.contains("nightly: rejected: \(path("inbox"))/moods.json record 2"), run.err)
        XCTAssertTrue(run.err.contains("imported \(path("inbox"))/moods.json (moods): 2 records, 1 rejected"), run.err)
        XCTAssertEqual(files("archive/2016-10-02"), ["moods.json"], "a file with rejects is imported, so archived")
    }

    func testANameTakenInTheArchiveGetsANumberAndTheSameContentIsNotArchivedTwice() throws {
        try write("inbox/moods.json", "[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3}]")
        XCTAssertEqual(try nightly().code, .success)
        try write("inbox/moods.json", "[{\"userId\":\"emma\",\"date\":\"2026-12-26\",\"mood\":3}]")
        XCTAssertEqual(try nightly().code, .success)
        XCTAssertEqual(files("archive/2016-10-02"), ["moods-2.json", "moods.json"])
        // Delivered again: already imported (same SHA-256), and the archive already holds those
        // bytes under that name, so the inbox copy is dropped rather than archived a third time.
        try write("inbox/moods.json", "[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3}]")
        let run = try nightly()
        XCTAssertEqual(run.code, .success)
        XCTAssertTrue(run.err.contains("already imported"), run.err)
        XCTAssertEqual(files("archive/2016-10-02"), ["moods-2.json", "moods.json"])
        XCTAssertEqual(files("inbox"), [])
        XCTAssertEqual(try count("import_log"), 2)
    }

    /// What a run killed after a file's commit leaves: the file still in the inbox (or, killed
    /// between link and unlink, in both places). The next run archives it once.
    func testAFileImportedButNotArchivedIsArchivedOnceByTheNextRun() throws {
        try write("inbox/habits/moods.json", "[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3}]")
        try write("inbox/habits/users.json", "[]")
        XCTAssertEqual(report(["import", "--db", databasePath, path("inbox")]).code, .success)
        try FileManager.default.createDirectory(
            atPath: path("archive/2016-10-02/habits"), withIntermediateDirectories: true)
        XCTAssertEqual(link(path("inbox/habits/users.json"), path("archive/2016-10-02/habits/users.json")), 0)
        let run = try nightly()
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.err.contains("already imported \(path("inbox"))/habits/moods.json (moods)"), run.err)
        XCTAssertEqual(files("archive/2016-10-02"), ["habits/moods.json", "habits/users.json"])
        XCTAssertEqual(files("inbox"), [])
        XCTAssertEqual(try count("import_log"), 2, "not imported again")
        XCTAssertEqual(try count("moods"), 1)
    }

    /// An archive on another file system (here tmpfs): the file is copied, synced, linked into
    /// place, and only then removed from the inbox; no temporary copy is left.
    func testAnArchiveOnAnotherFileSystemGetsACompleteCopy() throws {
        let archive = "/dev/shm/nightly-archive-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path("inbox"), withIntermediateDirectories: true)
        guard (try? FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)) != nil
        else {
            throw XCTSkip("no /dev/shm here")
        }
        defer { try? FileManager.default.removeItem(atPath: archive) }
        var inboxStatus = stat(), archiveStatus = stat()
        guard stat(path("inbox"), &inboxStatus) == 0, stat(archive, &archiveStatus) == 0,
            inboxStatus.st_dev != archiveStatus.st_dev
        else {
            throw XCTSkip("/dev/shm is on the same file system as the temporary folder")
        }
        let content = "[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3}]"
        try write("inbox/habits/moods.json", content)
        let run = try nightly(["--archive", archive])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(try String(contentsOfFile: archive + "/2016-10-02/habits/moods.json", encoding: .utf8), content)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: archive), ["2016-10-02"], "no temporary copy left")
        XCTAssertEqual(files("inbox"), [])
    }

    func testStaleTemporaryFilesAreRemovedAndNothingElse() throws {
        let dead: Int32 = 2_147_483_000  // above any pid_max
        let stale = [
            "Reports/.fleet-x.md.tmp-\(dead)-1f2e", "Reports/.fleet-x.xlsx.tmp-\(dead)-9af",
            "Reports/.fleet-x.tmp-\(dead)-ab/daily.csv", "Reports/.fleet-x.old-\(dead)-c0/daily.csv",
            "archive/.moods.json.tmp-\(dead)-9", "inbox/failed/sub/.x.json.error.txt.tmp-\(dead)-1",
        ]
        let kept = [
            "Reports/.fleet-x.md.tmp-\(getpid())-1f2e", "Reports/.dashboard.json", "Reports/notes.tmp-1-a",
            "Reports/.x.tmp-12-XYZ", "Reports/tmp.abcdefghij", "Reports/fleet-x.md",
        ]
        for name in stale + kept { try write(name, name.hasSuffix("abcdefghij") ? "not empty" : "") }
        try write("Reports/tmp.ABCDE12345", "")
        chmod(path("Reports/tmp.ABCDE12345"), 0o600)
        try FileManager.default.createDirectory(atPath: path("inbox"), withIntermediateDirectories: true)
        let run = try nightly(["--archive", path("archive")])
        XCTAssertEqual(run.code, .success, run.err)
        for name in stale {
            let top = name.split(separator: "/").prefix(name.hasPrefix("inbox") ? 4 : 2).joined(separator: "/")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(top)), top)
            XCTAssertTrue(run.err.contains("removed \(path(top)), left by an interrupted run"), top)
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: path("Reports/tmp.ABCDE12345")),
            "an empty libxlsxwriter scratch file")
        for name in kept { XCTAssertTrue(FileManager.default.fileExists(atPath: path(name)), name) }
    }

    func testTemporaryNamesAreRecognisedExactly() {
        XCTAssertEqual(StaleTemporaryFiles.match(".bookings-2016-10.md.tmp-123-ff0a"), .writer(pid: 123))
        XCTAssertEqual(StaleTemporaryFiles.match(".bookings-2016-10.old-7-0"), .writer(pid: 7))
        XCTAssertEqual(StaleTemporaryFiles.match(".fleet-salon2016.xlsx.tmp-4242-0af9"), .writer(pid: 4242))
        XCTAssertEqual(StaleTemporaryFiles.match("tmp.Ab3dEf7hIj"), .libxlsxwriter)
        for name in [
            ".tmp-1-a", ".x.tmp-1-G", ".x.tmp-a-1", ".x.tmp-1", ".x.new-1-a", "x.md.tmp-1-a", ".x.md.1-a.tmp",
            ".x.xlsx.1-a.tmp", ".x.xlsx.tmp-1-z", "tmp.abc", "tmp.Ab3dEf7hIjK", "tmp.Ab3dEf-hIj", ".x.tmp-0-a", ".git",
            "report.sqlite",
        ] {
            XCTAssertNil(StaleTemporaryFiles.match(name), name)
        }
    }

    func testAnEventIsReportedFromItsFirstDayToTheDayAfterItsLast() throws {
        let first = try XCTUnwrap(Day("2016-10-01")), last = try XCTUnwrap(Day("2016-10-16"))
        let expected = [
            "2016-09-30": false, "2016-10-01": true, "2016-10-08": true, "2016-10-16": true,
            "2016-10-17": true, "2016-10-18": false,
        ]
        for (text, open) in expected {
            XCTAssertEqual(
                FleetModule.isOpen(startsOn: first, endsOn: last, today: try XCTUnwrap(Day(text))), open, text)
        }
    }

    /// A domain with no data gets no report (logged), and `--only` writes the named ones only.
    func testNoReportForADomainWithoutDataAndOnlyTheDomainsAsked() throws {
        try FileManager.default.createDirectory(atPath: path("inbox"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.sampleData.appendingPathComponent("fleet").path, toPath: path("inbox/fleet"))
        let run = try nightly()
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.err.contains(" nightly: no habits data in the database: no habits report"), run.err)
        XCTAssertTrue(run.err.contains(" nightly: no bookings data in the database: no bookings report"), run.err)
        let reports = Set(try FileManager.default.contentsOfDirectory(atPath: path("Reports")))
        XCTAssertTrue(reports.contains("fleet-salon2016.xlsx"), "\(reports)")
        XCTAssertFalse(reports.contains { $0.hasPrefix("habits") || $0.hasPrefix("bookings") }, "\(reports)")
        XCTAssertTrue(
            run.errLines.last?.contains("1 reports written") == true
                || run.errLines.last?.contains("1 report written") == true,
            run.errLines.last ?? "")

        try FileManager.default.removeItem(atPath: path("Reports"))
        try FileManager.default.copyItem(
            atPath: Self.sampleData.appendingPathComponent("habits").path, toPath: path("inbox/habits"))
        let only = try nightly(["--only", "habits"])
        XCTAssertEqual(only.code, .success, only.err)
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: path("Reports")))
        XCTAssertTrue(written.contains("habits-2016-10-01.xlsx"), "\(written)")
        XCTAssertFalse(written.contains { $0.hasPrefix("fleet") || $0.hasPrefix("bookings") }, "\(written)")
        XCTAssertFalse(only.err.contains("no bookings data"), "a domain left out by --only is not looked at")

        let unknown = report(["nightly", "--inbox", path("inbox"), "--db", databasePath, "--only", "fleet,habit"])
        XCTAssertEqual(unknown.code, .usage)
        XCTAssertEqual(
            unknown.errLines,
            ["report nightly: --only: unknown domain \"habit\"; did you mean habits?; domains: habits, bookings, fleet"]
        )
    }

    func testUsageErrors() throws {
        try FileManager.default.createDirectory(atPath: path("inbox"), withIntermediateDirectories: true)
        XCTAssertEqual(report(["nightly", "--db", databasePath]).code, .usage)
        let inside = report([
            "nightly", "--inbox", path("inbox"), "--archive", path("inbox/archive"), "--db", databasePath,
        ])
        XCTAssertEqual(inside.code, .usage)
        XCTAssertTrue(inside.err.contains("is inside the inbox"), inside.err)
        XCTAssertEqual(
            report(["nightly", "--inbox", path("inbox"), "--as-of", "yesterday", "--db", databasePath]).code, .usage)
        XCTAssertEqual(
            report(["nightly", "--inbox", path("inbox"), "--csv"]).code, .usage, "every format is always written")
        let missing = report(["nightly", "--inbox", path("nowhere"), "--db", databasePath])
        XCTAssertEqual(missing.code, .failure)
        XCTAssertTrue(missing.err.contains("no such inbox folder"), missing.err)
    }

    func testALockHeldElsewhereRefusesAtOnceAndAStaleLockFileDoesNot() throws {
        try FileManager.default.createDirectory(atPath: path("inbox"), withIntermediateDirectories: true)
        let lockPath = databasePath + ".nightly.lock"
        try Data("999999999\n".utf8).write(to: URL(fileURLWithPath: lockPath))  // left by a dead run
        XCTAssertEqual(try nightly().code, .success, "a lock file nobody holds does not block")
        XCTAssertEqual(try String(contentsOfFile: lockPath, encoding: .utf8), "\(getpid())\n", "the holder's pid")

        let descriptor = open(lockPath, O_RDWR)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        try Data("4321\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        try write("inbox/moods.json", "[{\"userId\":\"emma\",\"date\":\"2026-12-25\",\"mood\":3}]")
        let refused = try nightly()
        XCTAssertEqual(refused.code, .busy)
        // `2026-12-02T06:00:00Z nightly: another run holds …`: the UTC time, as every log line.
        XCTAssertTrue(
            refused.err.hasSuffix(" nightly: another run holds \(lockPath) (pid 4321); nothing done\n"), refused.err)
        XCTAssertNotNil(Timestamp(String(refused.err.prefix(20))), refused.err)
        XCTAssertEqual(refused.err.filter { $0 == "\n" }.count, 1)
        XCTAssertEqual(files("inbox"), ["moods.json"], "nothing done")
    }
}
