import XCTest
import JSON
@testable import JSON

/// A top-level object is a wrapper with exactly one array of objects beside scalar or object
/// members; anything else makes the reader throw `NotAWrapper`, saying why, and
/// `startsWithObjectLines` then tells JSON Lines in a `.json` file from one document that is not
/// records (docs/DECISIONS.md, issue 15).
final class JSONWrapperTests: XCTestCase {
    func testObjectsOnLinesAreNotAWrapperAndReadAsJSONLines() {
        let text = "{\"id\":1}\n{\"id\":2}"
        let first = readJSON(text)
        XCTAssertEqual(first.ending, .notAWrapper)
        XCTAssertEqual(first.records, [])
        XCTAssertNil(first.layout)
        XCTAssertTrue(startsWithObjectLines(text))

        let again = readJSON(text, jsonLines: true)
        XCTAssertEqual(again.ending, .end)
        XCTAssertEqual(again.layout, .jsonLines)
        XCTAssertEqual(
            again.records,
            [
                JSONRecord(index: 1, line: 1, byteOffset: 0, value: .success(jsonObject(("id", .integer(1))))),
                JSONRecord(index: 2, line: 2, byteOffset: 9, value: .success(jsonObject(("id", .integer(2))))),
            ])
    }

    func testEveryShapeThatIsNotAWrapperSaysWhy() {
        let cases: [(String, String, Int)] = [
            (#"{"a":[{"id":1}],"b":[{"id":2}]}"#, #"members "a" and "b" are both arrays"#, 20),
            (#"{"a":[],"b":[]}"#, #"members "a" and "b" are both arrays"#, 12),
            (#"{"tasks":[{"id":1}, 2]}"#, #"element 2 of member "tasks" is a number, not an object"#, 20),
            (#"{"tasks":[[{"id":1}]]}"#, #"element 1 of member "tasks" is an array, not an object"#, 10),
            (#"{"tasks":["x"]}"#, #"element 1 of member "tasks" is a string, not an object"#, 10),
            (#"{"tasks":[null]}"#, #"element 1 of member "tasks" is null, not an object"#, 10),
            (#"{"tasks":[true]}"#, #"element 1 of member "tasks" is a boolean, not an object"#, 10),
            (#"{"id":1,"name":"x"}"#, "no member is an array of records", 18),
            ("{}", "no member is an array of records", 1),
            (
                #"{"meta":{"v":1},"data":{"tasks":[]}}"#,
                #"member "meta" is an object, and no member is an array of records"#, 35
            ),
        ]
        for (text, reason, offset) in cases {
            let outcome = readJSON(text)
            XCTAssertEqual(outcome.ending, .notAWrapper, text)
            XCTAssertEqual(outcome.notAWrapper, NotAWrapper(reason: reason, byteOffset: offset), text)
            XCTAssertFalse(startsWithObjectLines(text), "one line and nothing after it is one document: \(text)")
        }
        XCTAssertEqual(
            NotAWrapper(reason: #"member "meta" is an object, and no member is an array of records"#, byteOffset: 35)
                .description,
            (#"not a wrapper: member "meta" is an object, and no member is an array of records at byte 35; a "#
                + #"wrapper holds one array of records beside scalar or object members"#)
        )
    }

    func testObjectMembersAreMetadataBesideTheRecords() {
        let text = """
            {
              "meta": {"exported_at": "2026-11-28T07:00:00Z", "app": {"version": "3.1"}},
              "tasks": [{"id": 1}, {"id": 2}],
              "paging": {"next": null},
              "count": 2
            }
            """
        let outcome = readJSON(text)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(outcome.layout, .wrapper(key: "tasks"))
        XCTAssertEqual(outcome.values, [jsonObject(("id", .integer(1))), jsonObject(("id", .integer(2)))])
        XCTAssertEqual(outcome.wrapperMetadata.map(\.key), ["meta", "paging", "count"])
        XCTAssertEqual(outcome.wrapperMetadata[1].value, jsonObject(("next", .null)))
        XCTAssertNil(outcome.emptiness)
    }

    func testRecordsBeforeASecondArrayAreDeliveredThenNotAWrapper() {
        let outcome = readJSON(#"{"a":[{"id":1},{"id":2}],"b":[{"id":3}]}"#)
        XCTAssertEqual(outcome.values, [jsonObject(("id", .integer(1))), jsonObject(("id", .integer(2)))])
        XCTAssertEqual(outcome.ending, .notAWrapper)
        XCTAssertNil(outcome.layout, "the caller discards them")
    }

    /// Whitespace may follow a wrapper; another object on a later line is left to the caller
    /// (JSON Lines or a second document); any other text is a syntax error.
    func testWhatMayFollowAWrapper() {
        let fine = readJSON("\u{FEFF}{\"tasks\":[{\"id\":1}]}\r\n\n  ")
        XCTAssertEqual(fine.ending, .end)
        XCTAssertEqual(fine.records.map(\.byteOffset), [13])

        let another = readJSON("{\"tasks\":[]}\n\n {\"tasks\":[]}")
        XCTAssertEqual(
            another.notAWrapper, NotAWrapper(reason: "another object follows", byteOffset: 15, isFollowedByObject: true)
        )

        assertSyntaxError("{\"tasks\":[]}\nx", "unexpected character 'x' after the end of the object", at: 13)
        assertSyntaxError(#"{"tasks":[]} {"tasks":[]}"#, "unexpected character '{' after the end of the object", at: 13)
        assertSyntaxError(#"{"tasks":[{"id":1}]} ]"#, "unexpected character ']' after the end of the object", at: 21)
    }

    func testSyntaxErrorsInsideAWrapperAreFatal() {
        assertSyntaxError(#"{"exported_at" "x", "tasks": []}"#, "unexpected character '\"'", at: 15)
        assertSyntaxError(#"{"a":1,}"#, "unexpected character '}'", at: 7)
        assertSyntaxError(#"{"tasks":[{"id":1}}"#, "unexpected character '}'", at: 18)
        assertSyntaxError(#"{"tasks":[{"id":1}],}"#, "unexpected character '}'", at: 20)
        assertSyntaxError(#"{"tasks":[{"id":01}]}"#, "leading zero in number '01'", at: 16)
        assertSyntaxError(#"{"meta":{"v":1,},"tasks":[]}"#, "unexpected character '}'", at: 15)
    }

    /// JSON Lines in a `.json` file: the first non-blank line is one whole object and nothing
    /// else, and a later non-blank line starts another object.
    func testStartsWithObjectLines() {
        XCTAssertTrue(startsWithObjectLines("\n\n{\"id\":1}  \r\n\n{\"id\":2"))
        XCTAssertTrue(startsWithObjectLines("\u{FEFF}{\"a\":[{\"id\":1}]}\n{\"a\":[]}\n"))
        XCTAssertFalse(startsWithObjectLines("{\n\"id\":1}\n{\"id\":2}"), "the first object spans two lines")
        XCTAssertFalse(startsWithObjectLines("{\"id\":1} {\"id\":2}\n{\"id\":3}"), "two values on the first line")
        XCTAssertFalse(startsWithObjectLines("{\"id\":1}\n[1]"), "the second line is not an object")
        XCTAssertFalse(startsWithObjectLines("{\"id\":1}\n"), "one object only: one document")
        XCTAssertFalse(startsWithObjectLines("{\"id\":1,}\n{\"id\":2}"), "the first line is not valid JSON")
        XCTAssertFalse(startsWithObjectLines("[{\"id\":1}]\n{\"id\":2}"), "an array first")
        XCTAssertFalse(startsWithObjectLines(""))
    }

    private func startsWithObjectLines(_ text: String) -> Bool {
        JSONRecordReader.startsWithObjectLines(source: MemoryByteSource(Array(text.utf8)))
    }
}
