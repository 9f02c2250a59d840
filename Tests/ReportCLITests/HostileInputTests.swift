import ArgumentParsing
import Foundation
import Store
import XCTest
@testable import ReportCLI

/// Hostile export files (issue 8): each one fails cleanly with one line naming the file, the
/// record and the field, and the database holds exactly the valid records (or is unchanged).
final class HostileInputTests: CLITestCase {
    /// A valid task; `extra` members are appended inside the object.
    static func task(_ id: String, extra: String = "") -> String {
        #"{"id": "\#(id)", "userId": "u1", "date": "2026-11-28", "libelle": "Courir", "state": "terminee"\#(extra)}"#
    }

    /// A baseline import, so that "unchanged" means something.
    private func importBaseline() throws -> [String: [[SQLValue]]] {
        let users = try write("base/users.json", #"[{"id": "u1"}, {"id": "u2"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, users]).code, .success)
        return try snapshot()
    }

    func testNesting100000DeepFailsTheFileAtTheDepthLimit() throws {
        let before = try importBaseline()
        // Arrays and objects alternate, 100,000 deep: the reader must stop at its limit, not
        // recurse until the stack overflows.
        let prefix = "[" + Self.task("t1", extra: #", "x": "#)
        let opening = String(repeating: #"[{"a": "#, count: 50_000)
        let content = String(prefix.dropLast()) + opening + "1" + String(repeating: "}]", count: 50_000) + "}]"
        let file = try write("tasks.json", content)
        // The record's own `{` is depth 1; the container that would be depth 513 is the error.
        let firstNested = prefix.utf8.count - 1
        let containerOffsets = opening.utf8.enumerated().filter {
            $0.element == UInt8(ascii: "[") || $0.element == UInt8(ascii: "{")
        }.map { firstNested + $0.offset }
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(file): malformed JSON: nesting deeper than 512 at byte \(containerOffsets[511]); nothing of this "
                    + "file was stored"
            ])
        XCTAssertEqual(try snapshot(), before)

        // In JSON Lines the deep line is one rejected record; the lines around it import.
        let lines = try write(
            "tasks.jsonl",
            Self.task("t0") + "\n" + #"{"id": "t1", "x": "# + String(repeating: "[", count: 100_000)
                + String(repeating: "]", count: 100_000) + "}\n" + Self.task("t2") + "\n")
        let jsonLines = report(["import", "--db", databasePath, lines])
        XCTAssertEqual(jsonLines.code, .rejected)
        let deepOffset = (Self.task("t0") + "\n" + #"{"id": "t1", "x": "#).utf8.count + 511
        XCTAssertEqual(
            jsonLines.errLines,
            ["\(lines) record 2 (line 2): field (record): invalid JSON: nesting deeper than 512 at byte \(deepOffset)"])
        XCTAssertEqual(try database().rows("SELECT id FROM tasks ORDER BY id"), [["t0"], ["t2"]])
        XCTAssertEqual(
            try database().rows("SELECT position, line, field, rule FROM import_rejects"),
            [
                [2, 2, "(record)", .text("invalid JSON: nesting deeper than 512 at byte \(deepOffset)")]
            ])
    }

    /// `1e999`, `-0`, `NaN`, integers past 64 bits: each number either is what it says or is
    /// rejected with the field, the value as written and the rule.
    func testNumbersAtAndBeyondTheEdges() throws {
        func flow(_ id: String, _ extra: String) -> String {
            (#"{"id": \#(id), "userId": "u1", "date": "2026-11-28", "libelleAction": "Lire", "etat": "#
                + #""termine"\#(extra)}"#)
        }
        let file = try write(
            "flows.jsonl",
            [
                flow(#""f1""#, #", "tempsRealise": 1e999"#),
                flow(#""f2""#, #", "streakDay": -0, "tempsRealise": -0"#),
                flow(#""f3""#, #", "tempsRealise": NaN"#),
                flow(#""f4""#, #", "streakDay": 12345678901234567890"#),
                flow(#""f5""#, #", "energieRequise": -92233720368547758080"#),
                flow("12345678901234567890", ""),
                flow(#""f7""#, #", "streakDay": -0.0"#),
                flow(#""f8""#, #", "tempsRealise": 1e-999"#),
            ].joined(separator: "\n") + "\n")
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(
            run.errLines,
            [
                "\(file) record 1 (line 1, id f1): field tempsRealise: number out of range 1e999",
                "\(file) record 3 (line 3): field (record): invalid JSON: unexpected character 'N' at byte "
                    + "\(try XCTUnwrap(offset(of: "NaN", in: file)))",
                "\(file) record 4 (line 4, id f4): field streakDay: integer too large (more than "
                    + "9223372036854775807) 12345678901234567890",
                "\(file) record 5 (line 5, id f5): field energieRequise: integer too small (less than "
                    + "-9223372036854775808) -92233720368547758080",
                "\(file) record 7 (line 7, id f7): field streakDay: must be an integer ≥ 0 -0.0",
            ])
        // `-0` is the integer 0; a 20-digit id is an integer id kept as its digits (SPEC §1: ids
        // are integers kept as text, with no size limit); 1e-999 is 0.
        XCTAssertEqual(
            try database().rows("SELECT id, streak_day, temps_realise = 0 FROM flows ORDER BY id"),
            [
                ["12345678901234567890", .null, .null],
                ["f2", 0, 1],
                ["f8", .null, 1],
            ])
        XCTAssertEqual(
            try database().rows("SELECT position, record_id, field, value FROM import_rejects ORDER BY position"),
            [
                [1, "f1", "tempsRealise", "1e999"],
                [3, .null, "(record)", ""],
                [4, "f4", "streakDay", "12345678901234567890"],
                [5, "f5", "energieRequise", "-92233720368547758080"],
                [7, "f7", "streakDay", "-0.0"],
            ])
    }

    func testInvalidUTF8AndLoneSurrogates() throws {
        let before = try importBaseline()
        // In an array, a bad byte fails the file at its offset, and nothing of it is stored.
        var bytes = Array("[".utf8) + Array(Self.task("t1").utf8) + Array(",".utf8)
        let badOffset =
            bytes.count + Array(#"{"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "ok"#.utf8).count
        bytes +=
            Array(#"{"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "ok"#.utf8) + [0xC3]
            + Array(#"", "state": "terminee"}]"#.utf8)
        let array = path("tasks.json")
        try Data(bytes).write(to: URL(fileURLWithPath: array))
        let run = report(["import", "--db", databasePath, array])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            ["\(array): malformed JSON: invalid UTF-8 byte 0xC3 at byte \(badOffset); nothing of this file was stored"])
        XCTAssertEqual(try snapshot(), before)

        // In JSON Lines each bad line is one rejection: a stray byte, a lone high and a lone low
        // surrogate escape, a surrogate encoded in UTF-8 (CESU-8), an overlong `/`. A real pair
        // (an emoji written as two escapes) is fine.
        let lines: [[UInt8]] = [
            Array(#"{"id": "a", "userId": "u1", "date": "2026-11-28", "state": "terminee", "libelle": ""#.utf8) + [0xFF]
                + Array(#""}"#.utf8),
            Array(#"{"id": "b", "userId": "u1", "date": "2026-11-28", "state": "terminee", "libelle": "\ud800"}"#.utf8),
            Array(
                #"{"id": "c", "userId": "u1", "date": "2026-11-28", "state": "terminee", "libelle": "\udc00x"}"#.utf8),
            Array(#"{"id": "d", "userId": "u1", "date": "2026-11-28", "state": "terminee", "libelle": ""#.utf8) + [
                0xED, 0xA0, 0x80,
            ] + Array(#""}"#.utf8),
            Array(#"{"id": "e", "userId": "u1", "date": "2026-11-28", "state": "terminee", "libelle": ""#.utf8) + [
                0xC0, 0xAF,
            ] + Array(#""}"#.utf8),
            Array(
                #"{"id": "f", "userId": "u1", "date": "2026-11-28", "state": "terminee", "libelle": "\ud83d\ude00"}"#
                    .utf8),
        ]
        var offsets: [Int] = []
        var position = 0
        let marker = Array(#""libelle": ""#.utf8)
        for line in lines {
            let start = try XCTUnwrap(Self.firstRange(of: marker, in: line)) + marker.count
            offsets.append(position + start)
            position += line.count + 1
        }
        let jsonLines = path("tasks.jsonl")
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: jsonLines))
        let rejected = report(["import", "--db", databasePath, jsonLines])
        XCTAssertEqual(rejected.code, .rejected)
        XCTAssertEqual(
            rejected.errLines,
            [
                "\(jsonLines) record 1 (line 1): field (record): invalid JSON: invalid UTF-8 byte 0xFF at byte "
                    + "\(offsets[0])",
                "\(jsonLines) record 2 (line 2): field (record): invalid JSON: lone surrogate \\uD800 at byte "
                    + "\(offsets[1])",
                "\(jsonLines) record 3 (line 3): field (record): invalid JSON: lone surrogate \\uDC00 at byte "
                    + "\(offsets[2])",
                "\(jsonLines) record 4 (line 4): field (record): invalid JSON: invalid UTF-8 byte 0xED at byte "
                    + "\(offsets[3])",
                "\(jsonLines) record 5 (line 5): field (record): invalid JSON: invalid UTF-8 byte 0xC0 at byte "
                    + "\(offsets[4])",
            ])
        XCTAssertEqual(try database().rows("SELECT id, libelle FROM tasks"), [["f", "😀"]])
    }

    func testAByteOrderMarkAndCRLFLineEndsAreAccepted() throws {
        let array = path("tasks.json")
        try Data([0xEF, 0xBB, 0xBF] + Array(("[" + Self.task("t1") + "]").utf8)).write(to: URL(fileURLWithPath: array))
        let jsonLines = path("tasks-2.jsonl")
        let crlf =
            Self.task("t2") + "\r\n" + Self.task("t3").replacingOccurrences(of: "2026-11-28", with: "2026-11-31")
            + "\r\n\r\n" + Self.task("t4") + "\r\n"
        try Data([0xEF, 0xBB, 0xBF] + Array(crlf.utf8)).write(to: URL(fileURLWithPath: jsonLines))
        let run = report(["import", "--db", databasePath, array, jsonLines])
        XCTAssertEqual(run.code, .rejected)
        // CRLF counts as one line end: the bad record is on line 2, the blank line is line 3.
        XCTAssertEqual(
            run.errLines,
            ["\(jsonLines) record 2 (line 2, id t3): field date: invalid date (YYYY-MM-DD) \"2026-11-31\""])
        XCTAssertTrue(run.out.contains("imported \(array) (tasks): 1 records, 1 accepted, 0 rejected"), run.out)
        XCTAssertTrue(run.out.contains("imported \(jsonLines) (tasks): 3 records, 2 accepted, 1 rejected"), run.out)
        XCTAssertEqual(
            try database().rows("SELECT id, libelle FROM tasks ORDER BY id"),
            [["t1", "Courir"], ["t2", "Courir"], ["t4", "Courir"]])
        XCTAssertEqual(try database().rows("SELECT position, line FROM import_rejects"), [[2, 2]])
    }

    func testDuplicatedKeysRejectTheRecordAtAnyDepth() throws {
        let tasks = try write(
            "tasks.json",
            "["
                + #"{"id": "t1", "id": "t2", "userId": "u1", "date": "2026-11-28", "#
                + #""libelle": "a", "state": "terminee"}"#
                + ", " + Self.task("t3") + "]")
        let record =
            (#"{"id": "r1", "recorded_at": "2016-10-01T10:05:00+02:00", "oil_level": 4, "oil_level": 0, "#
                + #""interior_cleanliness": 4, "exterior_cleanliness": 4}"#)
        let assignments = try write(
            "assignments.json",
            (#"[{"id": "a1", "event_id": "e", "brand_name": "BMW", "license_plate_number": "AB-1", "#
                + #""planned_time_out": "2016-10-01T10:00:00+02:00", "planned_time_in": "2016-10-01T12:00:00+02:00","#
                + #" "check_out_record": \#(record)}]"#)
        )
        let run = report(["import", "--db", databasePath, tasks, assignments])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(
            run.errLines,
            [
                "\(tasks) record 1 (id t1): field id: repeated field",
                "\(assignments) record 1 (id a1): field check_out_record.oil_level: repeated field",
            ])
        XCTAssertEqual(try database().rows("SELECT id FROM tasks"), [["t3"]])
        XCTAssertEqual(try count("assignments"), 0)
        XCTAssertEqual(try count("loan_records"), 0)
    }

    func testEmptyFilesHoldNoRecords() throws {
        let empty = try write("tasks.json", "")
        let blank = try write("users.jsonl", " \n\r\n\t\n")
        let run = report(["import", "--db", databasePath, empty, blank])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(
            run.errLines,
            [
                "\(empty): warning: the file is empty (0 bytes): no records; a crashed or interrupted export leaves "
                    + "such files",
                "\(blank): warning: the file holds only whitespace: no records; a crashed or interrupted export "
                    + "leaves such files",
            ])
        XCTAssertTrue(run.out.contains("imported \(empty) (tasks): 0 records, 0 accepted, 0 rejected"), run.out)
        XCTAssertEqual(
            try database().rows("SELECT file, records FROM import_log ORDER BY id"),
            [[.text(empty), 0], [.text(blank), 0]])
        XCTAssertEqual(try count("tasks"), 0)
    }

    func testAFileOfZerosIsMalformed() throws {
        let before = try importBaseline()
        let array = path("tasks.json")
        try Data(count: 1 << 20).write(to: URL(fileURLWithPath: array))
        let run = report(["import", "--db", databasePath, array])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            ["\(array): malformed JSON: unexpected character U+0000 at byte 0; nothing of this file was stored"])
        XCTAssertEqual(try snapshot(), before)
        // As JSON Lines, a megabyte of zeros is one line: one rejected record.
        let jsonLines = path("tasks.jsonl")
        try Data(count: 1 << 20).write(to: URL(fileURLWithPath: jsonLines))
        let lines = report(["import", "--db", databasePath, jsonLines])
        XCTAssertEqual(lines.code, .rejected)
        XCTAssertEqual(
            lines.errLines,
            ["\(jsonLines) record 1 (line 1): field (record): invalid JSON: unexpected character U+0000 at byte 0"])
        XCTAssertEqual(try count("tasks"), 0)
    }

    func testARecordThatIsNotAnObject() throws {
        let file = try write("tasks.json", #"[[1, 2], "t", null, 7, "# + Self.task("t1") + "]")
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(
            run.errLines,
            [
                "\(file) record 1: field (record): not an object [1,2]",
                "\(file) record 2: field (record): not an object \"t\"",
                "\(file) record 3: field (record): not an object null",
                "\(file) record 4: field (record): not an object 7",
            ])
        XCTAssertEqual(try database().rows("SELECT id FROM tasks"), [["t1"]])
    }

    /// A line break in a file name (or anywhere in a message) must not split the error in two:
    /// cron mails and scripts read one line per problem.
    func testAFileNameWithALineBreakStaysOnOneLine() throws {
        let file = try write(
            "tasks\nevil.json", "[" + Self.task("t1").replacingOccurrences(of: "terminee", with: "fini") + "]")
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected)
        let shown = file.replacingOccurrences(of: "\n", with: "\\n")
        XCTAssertEqual(
            run.errLines,
            ["\(shown) record 1 (id t1): field state: must be one of a_faire, en_cours, terminee \"fini\""])
        XCTAssertEqual(run.outLines.count, 2, run.out)
        XCTAssertEqual(run.outLines.first, "imported \(shown) (tasks): 1 records, 0 accepted, 1 rejected")
    }

    // MARK: - Helpers

    /// The byte offset of the first `needle` in the file at `path`.
    private func offset(of needle: String, in path: String) throws -> Int? {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        return Self.firstRange(of: Array(needle.utf8), in: bytes)
    }

    static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if Array(bytes[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }
}
