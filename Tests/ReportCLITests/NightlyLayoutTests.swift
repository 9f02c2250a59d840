import Foundation
import XCTest
@testable import ReportCLI

/// `report nightly` with files that are not records (issue 15): they go to `failed/` with the
/// reason beside them, never to the archive as if imported.
extension NightlyCommandTests {
    func testAZeroByteFileGoesToFailedAndAWhitespaceFileIsArchivedWithAWarning() throws {
        try write("inbox/tasks.json", "")
        try write("inbox/moods.json", "\n  \n")
        let run = try nightly(["--quiet"])
        XCTAssertEqual(run.code, .failure, run.err)
        let reason =
            "\(path("inbox"))/tasks.json: the file is empty (0 bytes), as a crashed or interrupted export leaves it; "
            + "export it again; nothing of this file was stored"
        XCTAssertEqual(files("inbox"), ["failed/tasks.json", "failed/tasks.json.error.txt"])
        XCTAssertEqual(
            try String(contentsOfFile: path("inbox/failed/tasks.json.error.txt"), encoding: .utf8), reason + "\n")
        XCTAssertTrue(run.err.contains("nightly: failed: " + reason), run.err)
        XCTAssertEqual(files("archive/2016-10-02"), ["moods.json"])
        XCTAssertTrue(
            run.err.contains(
                "nightly: \(path("inbox"))/moods.json: warning: the file holds only whitespace: no records"), run.err)
        XCTAssertEqual(
            try database().rows("SELECT file, layout, records FROM import_log"),
            [[.text(path("inbox") + "/moods.json"), "empty", 0]],
            "the empty file left no trace; the blank one is logged")
    }

    func testADocumentThatIsNotRecordsGoesToFailed() throws {
        try write(
            "inbox/tasks.json",
            """
            {
              "tasks": [{"id": "t1", "userId": "u1", "date": "2026-10-01", "libelle": "Courir", "state": "terminee"}]
            }
            trailing text
            """)
        try write(
            "inbox/users.json",
            """
            {
              "meta": {"exported_at": "2016-10-02T00:00:00Z"},
              "data": {"users": [{"id": "u1"}]}
            }
            """)
        try write(
            "inbox/moods.json",
            """
            {
              "meta": {"exported_at": "2016-10-02T00:00:00Z"},
              "moods": [{"userId": "u1", "date": "2016-10-01", "mood": 3}]
            }
            """)
        let run = try nightly(["--quiet"])
        XCTAssertEqual(run.code, .failure, "not 3: malformed files are failures")
        XCTAssertEqual(
            files("inbox"),
            ["failed/tasks.json", "failed/tasks.json.error.txt", "failed/users.json", "failed/users.json.error.txt"])
        XCTAssertEqual(files("archive/2016-10-02"), ["moods.json"], "a wrapper with a metadata object is imported")
        let tasksReason = try String(contentsOfFile: path("inbox/failed/tasks.json.error.txt"), encoding: .utf8)
        XCTAssertTrue(
            tasksReason.contains(": malformed JSON: unexpected character 't' after the end of the object at byte "),
            tasksReason)
        let usersReason = try String(contentsOfFile: path("inbox/failed/users.json.error.txt"), encoding: .utf8)
        XCTAssertTrue(
            usersReason.contains(
                #": not a wrapper: member "meta" is an object, and no member is an array of records at byte "#),
            usersReason)
        XCTAssertEqual(try count("tasks"), 0)
        XCTAssertEqual(try count("users"), 0)
        XCTAssertEqual(try database().rows("SELECT date, mood FROM moods"), [["2016-10-01", 3]])
        XCTAssertEqual(try database().rows("SELECT layout, records_member FROM import_log"), [["wrapper", "moods"]])
    }
}
