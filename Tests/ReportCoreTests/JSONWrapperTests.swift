import XCTest
import JSON
@testable import JSON

/// A top-level object is a wrapper only with exactly one array of objects among scalar members;
/// anything else makes the reader throw `NotAWrapper`, and the file is then read as JSON Lines.
final class JSONWrapperTests: XCTestCase {
    func testObjectsOnLinesAreNotAWrapperAndReadAsJSONLines() {
        let text = "{\"id\":1}\n{\"id\":2}"
        let first = readJSON(text)
        XCTAssertEqual(first.ending, .notAWrapper)
        XCTAssertEqual(first.records, [])
        XCTAssertNil(first.layout)

        let again = readJSON(text, jsonLines: true)
        XCTAssertEqual(again.ending, .end)
        XCTAssertEqual(again.layout, .jsonLines)
        XCTAssertEqual(again.records, [
            JSONRecord(index: 1, line: 1, byteOffset: 0, value: .success(jsonObject(("id", .integer(1))))),
            JSONRecord(index: 2, line: 2, byteOffset: 9, value: .success(jsonObject(("id", .integer(2))))),
        ])
    }

    func testEveryShapeThatIsNotAWrapper() {
        let cases = [
            #"{"a":[{"id":1}],"b":[{"id":2}]}"#,        // a second array
            #"{"a":[],"b":[]}"#,                         // a second (empty) array
            #"{"meta":{"v":1},"tasks":[{"id":1}]}"#,     // an object member before the array
            #"{"tasks":[{"id":1}],"meta":{}}"#,          // an object member after the array
            #"{"tasks":[{"id":1}, 2]}"#,                 // an element that is not an object
            #"{"tasks":[[{"id":1}]]}"#,
            #"{"tasks":["x"]}"#,
            #"{"tasks":[null]}"#,
            #"{"id":1,"name":"x"}"#,                     // no array at all
            "{}",
            #"{"tasks":[]} {"tasks":[]}"#,               // another value after the object
            "{\"tasks\":[]}\nx",
        ]
        for text in cases {
            XCTAssertEqual(readJSON(text).ending, .notAWrapper, text)
        }
    }

    func testRecordsBeforeASecondArrayAreDeliveredThenNotAWrapper() {
        let outcome = readJSON(#"{"a":[{"id":1},{"id":2}],"b":[{"id":3}]}"#)
        XCTAssertEqual(outcome.values, [jsonObject(("id", .integer(1))), jsonObject(("id", .integer(2)))])
        XCTAssertEqual(outcome.ending, .notAWrapper)
        XCTAssertNil(outcome.layout, "the caller starts again as JSON Lines")
    }

    func testNotAWrapperSaysWhy() throws {
        let reader = JSONRecordReader(source: MemoryByteSource(Array(#"{"a":[],"b":[]}"#.utf8)), jsonLines: false)
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual(error as? NotAWrapper, NotAWrapper(reason: "a second array", byteOffset: 12))
        }
    }

    func testSyntaxErrorsInsideAWrapperAreFatal() {
        assertSyntaxError(#"{"exported_at" "x", "tasks": []}"#, "unexpected character '\"'", at: 15)
        assertSyntaxError(#"{"a":1,}"#, "unexpected character '}'", at: 7)
        assertSyntaxError(#"{"tasks":[{"id":1}}"#, "unexpected character '}'", at: 18)
        assertSyntaxError(#"{"tasks":[{"id":1}],}"#, "unexpected character '}'", at: 20)
        assertSyntaxError(#"{"tasks":[{"id":01}]}"#, "leading zero in number '01'", at: 16)
        assertSyntaxError(#"{"tasks":[{"id":1}] x"#, "unexpected character 'x'", at: 20)
    }

    func testWhitespaceAfterAWrapperIsFine() {
        let outcome = readJSON("\u{FEFF}{\"tasks\":[{\"id\":1}]}\r\n\n  ")
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(outcome.records.map(\.byteOffset), [13])
    }
}
