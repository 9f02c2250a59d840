import Foundation
import Store
import Import
import ReportTestSupport
import XCTest
@testable import ReportCLI

/// How `report import` tells the layout of a file and what it says when a file is not records
/// (issue 15, docs/DECISIONS.md "Layout"): messages, exit codes and the database afterwards.
final class ImportLayoutTests: CLITestCase {
    static func task(_ id: String) -> String {
        #"{"id": "\#(id)", "userId": "u1", "date": "2026-11-28", "libelle": "Courir", "state": "terminee"}"#
    }

    /// A baseline import, so that "unchanged" means something.
    private func importBaseline() throws -> [String: [[SQLValue]]] {
        let users = try write("base/users.json", #"[{"id": "u1"}, {"id": "u2"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, users]).code, .success)
        return try snapshot()
    }

    private func layoutLog() throws -> [[SQLValue]] {
        try database().rows("SELECT file, layout, records_member, records FROM import_log ORDER BY id")
    }

    // MARK: Wrappers with metadata

    func testAPrettyPrintedWrapperWithAMetaObjectImportsItsRecords() throws {
        let file = try write(
            "tasks.json",
            """
            {
              "meta": {"exported_at": "2026-11-28T07:00:00Z", "app": {"name": "flows", "build": 812}},
              "tasks": [
                \(Self.task("t1")),
                \(Self.task("t2"))
              ],
              "paging": {"next": null}
            }
            """)
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(run.err, "")
        XCTAssertEqual(
            run.outLines.first,
            #"imported \#(file) (tasks): 2 records, 2 accepted, 0 rejected (records from member "tasks")"#)
        XCTAssertEqual(try database().rows("SELECT id FROM tasks ORDER BY id"), [["t1"], ["t2"]])
        XCTAssertEqual(try layoutLog(), [[.text(file), "wrapper", "tasks", 2]])
    }

    func testTheOneLineVersionImportsItsRecordsToo() throws {
        let file = try write("tasks.json", #"{"meta": {"v": 1}, "tasks": [\#(Self.task("t1")), \#(Self.task("t2"))]}"#)
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(try database().rows("SELECT id FROM tasks ORDER BY id"), [["t1"], ["t2"]])
        XCTAssertEqual(try layoutLog(), [[.text(file), "wrapper", "tasks", 2]])
    }

    func testOtherLayoutsAreLoggedWithoutAMember() throws {
        let array = try write("tasks.json", "[" + Self.task("t1") + "]")
        let lines = try write(
            "moods.json",
            """
            {"userId": "u1", "date": "2026-11-27", "mood": 4}
            {"userId": "u1", "date": "2026-11-28", "mood": 2}
            """)
        let run = report(["import", "--db", databasePath, array, lines])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(run.outLines.first, "imported \(array) (tasks): 1 records, 1 accepted, 0 rejected")
        XCTAssertEqual(try layoutLog(), [[.text(array), "array", .null, 1], [.text(lines), "json lines", .null, 2]])
    }

    // MARK: Documents that are not records fail the file

    func testADocumentThatIsNotAWrapperFailsWithTheReason() throws {
        let before = try importBaseline()
        let nested = try write(
            "tasks.json",
            """
            {
              "meta": {"exported_at": "2026-11-28T07:00:00Z"},
              "data": {"tasks": [\(Self.task("t1"))]}
            }
            """)
        let twoArrays = try write(
            "tasks-2.json",
            """
            {
              "tasks": [\(Self.task("t1"))],
              "deleted": [\(Self.task("t2"))]
            }
            """)
        let run = report(["import", "--db", databasePath, nested, twoArrays])
        XCTAssertEqual(run.code, .failure)
        let offset = try String(contentsOfFile: nested, encoding: .utf8).utf8.count - 1
        let second =
            try XCTUnwrap(try Data(contentsOf: URL(fileURLWithPath: twoArrays)).range(of: Data(#""deleted": ["#.utf8)))
            .upperBound - 1
        XCTAssertEqual(
            run.errLines,
            [
                (#"\#(nested): not a wrapper: member "meta" is an object, and no member is an array of records "#
                    + #"at byte \#(offset); a wrapper holds one array of records beside scalar or object members; "#
                    + #"nothing of this file was stored"#),
                (#"\#(twoArrays): not a wrapper: members "tasks" and "deleted" are both arrays at "#
                    + #"byte \#(second); a wrapper holds one array of records beside scalar or object members; "#
                    + #"nothing of this file was stored"#),
            ])
        XCTAssertEqual(try snapshot(), before, "the records read before the second array are rolled back")
    }

    func testTextAfterAValidObjectFailsTheFile() throws {
        let before = try importBaseline()
        let garbage = try write("tasks.json", #"{"tasks": [\#(Self.task("t1"))]}"# + "\nthe end\n")
        let second = try write("tasks-2.json", "{\n\"tasks\": [\(Self.task("t1"))]}\n{\"tasks\": []}\n")
        let run = report(["import", "--db", databasePath, garbage, second])
        XCTAssertEqual(run.code, .failure, "not 3: the file is malformed, not a record")
        let end = (#"{"tasks": [\#(Self.task("t1"))]}"# + "\n").utf8.count
        let secondEnd = "{\n\"tasks\": [\(Self.task("t1"))]}\n".utf8.count
        XCTAssertEqual(
            run.errLines,
            [
                "\(garbage): malformed JSON: unexpected character 't' after the end of the object at byte \(end); "
                    + "nothing of this file was stored",
                "\(second): malformed JSON: another JSON value after the end of the object at byte \(secondEnd): a "
                    + ".json file holds one JSON document (name a JSON Lines file .jsonl); nothing of this file "
                    + "was stored",
            ])
        XCTAssertEqual(try snapshot(), before)
    }

    /// A first line that looks like a wrapper (a booking with its service lines) followed by more
    /// objects on their own lines is JSON Lines after all: its lines are the records.
    func testJSONLinesWhoseFirstLineLooksLikeAWrapper() throws {
        let file = try write(
            "tasks.json",
            """
            {"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "Courir", "state": "terminee",\
             "contexte": [{"x": 1}]}

            \(Self.task("t2"))
            """)
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected, "contexte must be a list of strings")
        XCTAssertEqual(
            run.errLines.first, #"\#(file) record 1 (line 1, id t1): field contexte[0]: must be a string {"x":1}"#)
        XCTAssertEqual(try database().rows("SELECT id FROM tasks"), [["t2"]])
        XCTAssertEqual(
            try database().rows("SELECT layout, records_member, records, rejected FROM import_log"),
            [["json lines", .null, 2, 1]])
    }

    /// The same with --strict: the steps of the first flow, read while it still looked like a
    /// wrapper, are not records, so they cannot fail the file.
    func testStrictJudgesTheRealRecordsOfJSONLinesInAJSONFile() throws {
        let flow =
            (#"{"id": "f1", "userId": "u1", "date": "2026-11-28", "libelleAction": "Courir", "etat": "termine","#
                + #" "etape": [{"libelle": "5 km", "terminee": true}]}"#)
        let file = try write("flows.json", flow + "\n" + flow.replacingOccurrences(of: "f1", with: "f2") + "\n")
        let run = report(["import", "--strict", "--db", databasePath, file])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(try database().rows("SELECT id FROM flows ORDER BY id"), [["f1"], ["f2"]])
        XCTAssertEqual(try database().rows("SELECT layout FROM import_log"), [["json lines"]])
        // One document with that shape is a wrapper of steps, and --strict fails it on the first.
        let document = try write("flows-2.json", flow + "\n")
        let strict = report(["import", "--strict", "--db", databasePath, document])
        XCTAssertEqual(strict.code, .failure)
        XCTAssertEqual(
            strict.errLines,
            ["\(document): record 1: field id: missing (required); --strict: nothing of this file was stored"])
        XCTAssertEqual(try count("flows"), 2)
    }

    func testALoneJSONValueIsNotRecords() throws {
        let before = try importBaseline()
        let number = try write("tasks.json", "42\n")
        let text = try write("users.json", #""u1""#)
        let run = report(["import", "--db", databasePath, number, text])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(number): a JSON value, not records: the file holds the number 42; records come in an array, a "
                    + "wrapper object or JSON Lines; nothing of this file was stored",
                (#"\#(text): a JSON value, not records: the file holds a string "u1"; records come in an array,"#
                    + #" a wrapper object or JSON Lines; nothing of this file was stored"#),
            ])
        XCTAssertEqual(try snapshot(), before)
    }

    func testUTF16AndUTF32FilesSayToSaveAsUTF8() throws {
        let before = try importBaseline()
        let content = "[" + Self.task("t1") + "]"
        let utf16 = path("tasks.json")
        try Data([0xFF, 0xFE] + Array(content.data(using: .utf16LittleEndian)!)).write(to: URL(fileURLWithPath: utf16))
        let utf16Lines = path("logins.jsonl")
        try content.data(using: .utf16BigEndian)!.write(to: URL(fileURLWithPath: utf16Lines))
        let utf32 = path("users.json")
        try content.data(using: .utf32LittleEndian)!.write(to: URL(fileURLWithPath: utf32))
        let run = report(["import", "--db", databasePath, utf16, utf16Lines, utf32])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(utf16): looks like UTF-16; save it as UTF-8; nothing of this file was stored",
                "\(utf16Lines): looks like UTF-16; save it as UTF-8; nothing of this file was stored",
                "\(utf32): looks like UTF-32; save it as UTF-8; nothing of this file was stored",
            ])
        XCTAssertEqual(try snapshot(), before)
    }

    // MARK: Empty files

    func testEmptyFilesImportNothingWithAWarning() throws {
        let empty = try write("tasks.json", "")
        let blank = try write("users.jsonl", " \n\r\n\t\n")
        let byteOrderMark = try write("moods.json", "\u{FEFF}")
        let run = report(["import", "--db", databasePath, empty, blank, byteOrderMark])
        XCTAssertEqual(
            run.code, .success, "a warning, not a failure: `report import` leaves the decision to its caller")
        let advice = ": no records; a crashed or interrupted export leaves such files"
        XCTAssertEqual(
            run.errLines,
            [
                "\(empty): warning: the file is empty (0 bytes)" + advice,
                "\(blank): warning: the file holds only whitespace" + advice,
                "\(byteOrderMark): warning: the file holds only a byte order mark" + advice,
            ])
        XCTAssertEqual(run.outLines.first, "imported \(empty) (tasks): 0 records, 0 accepted, 0 rejected")
        XCTAssertEqual(
            try layoutLog(),
            [
                [.text(empty), "empty", .null, 0], [.text(blank), "empty", .null, 0],
                [.text(byteOrderMark), "empty", .null, 0],
            ])
        XCTAssertEqual(try count("tasks"), 0)
        // An empty export is not an empty file: no warning.
        let none = try write("tasks-2.json", "[]")
        let quiet = report(["import", "--db", databasePath, none])
        XCTAssertEqual(quiet.code, .success)
        XCTAssertEqual(quiet.err, "")
    }

    // MARK: Messages and names

    /// A raw control byte after a backslash is shown as its code point on the terminal and in
    /// `import_rejects`, never as the byte itself.
    func testControlBytesOfAnInvalidEscapeAreCodePoints() throws {
        let file = path("tasks.jsonl")
        let start = Array(#"{"id": "t1", "libelle": "a"#.utf8)
        let bad = start + [0x5C, 0x09] + Array("b\"}\n".utf8)
        try Data(bad + Array((Self.task("t2") + "\n").utf8)).write(to: URL(fileURLWithPath: file))
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(
            run.errLines.first,
            (#"\#(file) record 1 (line 1): field (record): invalid JSON: invalid escape '\U+0009' at "#
                + #"byte \#(start.count)"#)
        )
        let rule = try XCTUnwrap(try database().rows("SELECT rule FROM import_rejects").first?.first?.string)
        XCTAssertEqual(rule, #"invalid JSON: invalid escape '\U+0009' at byte \#(start.count)"#)
        XCTAssertFalse(rule.unicodeScalars.contains { $0.value < 0x20 })
        XCTAssertEqual(try database().rows("SELECT id FROM tasks"), [["t2"]])
    }

    /// `é` precomposed and `e` + combining accent are two member names, as in JSON: a record
    /// holding both repeats no field. A true repeat is still rejected.
    func testFieldNamesCompareByteForByte() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let file = try write(
            "tasks.json",
            "["
                + [
                    String(Self.task("t1").dropLast()) + #", "\#(composed)": 1, "\#(decomposed)": 2}"#,
                    String(Self.task("t2").dropLast()) + #", "\#(decomposed)": 1, "\#(decomposed)": 2}"#,
                ].joined(separator: ",") + "]")
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(run.errLines, ["\(file) record 2 (id t2): field \(decomposed): repeated field"])
        XCTAssertEqual(try database().rows("SELECT id FROM tasks"), [["t1"]])
    }

    // MARK: The binary's exit codes

    /// The exit codes as a cron job sees them, from the `report` executable itself: a document
    /// that is not records and trailing text are failures (1, never 3), a blank file is not, and
    /// `nightly` files a zero-byte export under `failed/`.
    func testTheBinaryExitsOneForLayoutFailures() throws {
        let binary = try ChildProcess.reportBinary()
        let garbage = try write("tasks.json", #"{"tasks": [\#(Self.task("t1"))]}"# + "\nthe end\n")
        let failed = try ChildProcess.run(binary, ["import", "--db", databasePath, garbage])
        XCTAssertEqual(failed.status, 1, failed.err)
        XCTAssertEqual(failed.errLines.count, 1, failed.err)
        XCTAssertTrue(
            failed.errLines[0].hasPrefix(
                "\(garbage): malformed JSON: unexpected character 't' after the end of the object"), failed.err)
        XCTAssertEqual(try count("tasks"), 0)

        let blank = try write("users.json", "\n")
        let warned = try ChildProcess.run(binary, ["import", "--db", databasePath, blank])
        XCTAssertEqual(warned.status, 0, warned.err)
        XCTAssertEqual(
            warned.errLines,
            [
                "\(blank): warning: the file holds only whitespace: no records; a crashed or interrupted export "
                    + "leaves such files"
            ])

        try write("inbox/moods.json", "")
        try FileManager.default.createDirectory(atPath: path("Reports"), withIntermediateDirectories: true)
        let night = try ChildProcess.run(
            binary,
            [
                "nightly", "--quiet", "--inbox", path("inbox"), "--db", databasePath,
                "--as-of", "2016-10-02T08:00:00+02:00", "-o", path("Reports"),
            ])
        XCTAssertEqual(night.status, 1, night.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("inbox/failed/moods.json")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("inbox/failed/moods.json.error.txt")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("inbox/moods.json")))
        XCTAssertEqual(
            try database().rows("SELECT file FROM import_log ORDER BY id"), [[.text(blank)]],
            "the zero-byte file left no import_log row")
    }

    // MARK: Old databases

    func testADatabaseMadeBeforeTheLayoutColumnsMigrates() throws {
        do {
            let old = try Database(path: databasePath)
            try Schema.migrate(old, [ImportLog.migrations[0]])
            try old.run(
                "INSERT INTO import_log (file, kind, size, sha256, records, accepted, rejected, started_at, "
                    + "finished_at) VALUES ('old.json', 'tasks', 2, 'x', 0, 0, 0, 'a', 'b')"
            )
        }
        let file = try write("tasks.json", #"{"tasks": [\#(Self.task("t1"))]}"#)
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(try layoutLog(), [["old.json", .null, .null, 0], [.text(file), "wrapper", "tasks", 1]])
        XCTAssertEqual(try database().rows("SELECT MAX(version) FROM schema_migrations WHERE domain = 'core'"), [[2]])
    }
}

/// Issue 15's layout rules for gzip files, here for `writeGzip`.
extension ImportCommandTests {
    /// The first lines of a compressed file are read again through zlib.
    func testCompressedFilesGetTheSameLayoutRules() throws {
        let lines = try writeGzip(
            "moods.json.gz",
            [
                #"{"userId": "u1", "date": "2026-11-27", "mood": 4}"# + "\n",
                #"{"userId": "u1", "date": "2026-11-28", "mood": 2}"# + "\n",
            ])
        let document = try writeGzip("users.json.gz", ["{\n\"meta\": {\"a\": 1},\n\"data\": {\"users\": []}\n}\n"])
        let run = report(["import", "--db", databasePath, lines, document])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                (#"\#(document): not a wrapper: member "meta" is an object, and no member is an array of "#
                    + #"records at byte 42; a wrapper holds one array of records beside scalar or object members; "#
                    + #"nothing of this file was stored"#)
            ])
        XCTAssertEqual(
            try database().rows("SELECT date, mood FROM moods ORDER BY date"), [["2026-11-27", 4], ["2026-11-28", 2]])
        XCTAssertEqual(
            try database().rows("SELECT file, layout FROM import_log"), [[.text(lines), "json lines"]],
            "nothing of the failed document")
        XCTAssertEqual(try count("users"), 0)
    }
}
