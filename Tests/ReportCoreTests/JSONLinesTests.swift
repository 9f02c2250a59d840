import XCTest
import JSON
@testable import JSON

/// JSON Lines: one value per line; a bad line is one failed record and reading goes on.
final class JSONLinesTests: XCTestCase {
    private func failure(_ message: String, at byteOffset: Int, line: Int) -> Result<JSONValue, JSONSyntaxError> {
        .failure(JSONSyntaxError(message: message, byteOffset: byteOffset, line: line))
    }

    func testCRLFAndBlankLinesCountForLineNumbers() {
        let outcome = readJSON("{\"id\":1}\r\n\r\n  \t\n{\"id\":2} \r\n\n", jsonLines: true)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(
            outcome.records,
            [
                JSONRecord(index: 1, line: 1, byteOffset: 0, value: .success(jsonObject(("id", .integer(1))))),
                JSONRecord(index: 2, line: 4, byteOffset: 16, value: .success(jsonObject(("id", .integer(2))))),
            ])
        XCTAssertEqual(outcome.bytesConsumed, 28)
    }

    func testOneBadLineInTheMiddle() {
        let text = "{\"id\":1}\n{\"id\":\n{\"id\":3}\n"
        let outcome = readJSON(text, jsonLines: true)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(
            outcome.records,
            [
                JSONRecord(index: 1, line: 1, byteOffset: 0, value: .success(jsonObject(("id", .integer(1))))),
                JSONRecord(index: 2, line: 2, byteOffset: 9, value: failure("unexpected end of line", at: 15, line: 2)),
                JSONRecord(index: 3, line: 3, byteOffset: 16, value: .success(jsonObject(("id", .integer(3))))),
            ])
        if case .failure(let error) = outcome.records[1].value {
            XCTAssertEqual(error.description, "unexpected end of line at line 2, byte 15")
        }
    }

    func testEveryKindOfBadLine() {
        let badUTF8: [UInt8] = Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        var input: [UInt8] = Array("{\"id\":1}\n".utf8)  // line 1, bytes 0–8
        input += badUTF8 + [0x0A]  // line 2, bytes 9–19
        input += Array("[[[[1]]]]\n".utf8)  // line 3, bytes 20–29: too deep
        input += Array("{\"a\":\"123456789\"}\n".utf8)  // line 4, bytes 30–47: too long
        input += Array("{\"a\":1} x\n".utf8)  // line 5, bytes 48–57: garbage after
        input += Array("{\"a\":\"abc\n".utf8)  // line 6, bytes 58–67: unterminated
        input += Array("{\"a\":1.}\n".utf8)  // line 7, bytes 68–76
        input += Array("1 2\n".utf8)  // line 8, bytes 77–80
        input += Array("tru\n".utf8)  // line 9, bytes 81–84
        input += Array("{\"a\":\"\\ud800\"}\n".utf8)  // line 10, bytes 85–99
        input += Array("\"\\u00\n".utf8)  // line 11, bytes 100–105
        input += Array("{\"a\":-\n".utf8)  // line 12, bytes 106–112
        input += Array("{\"id\":2}".utf8)  // line 13, bytes 113–120, no newline
        let outcome = readJSONWithEveryBuffer(input, jsonLines: true, maxDepth: 3, maxStringBytes: 8)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(
            outcome.records.map(\.value),
            [
                .success(jsonObject(("id", .integer(1)))),
                failure("invalid UTF-8 byte 0xC3", at: 15, line: 2),
                failure("nesting deeper than 3", at: 23, line: 3),
                failure("string longer than 8 bytes", at: 35, line: 4),
                failure("unexpected character 'x'", at: 56, line: 5),
                failure("unterminated string", at: 63, line: 6),
                failure("invalid number '1.'", at: 73, line: 7),
                failure("unexpected character '2'", at: 79, line: 8),
                failure("unexpected end of line", at: 84, line: 9),
                failure("lone surrogate \\uD800", at: 91, line: 10),
                failure("unterminated string", at: 100, line: 11),
                failure("unexpected end of line", at: 112, line: 12),
                .success(jsonObject(("id", .integer(2)))),
            ])
        XCTAssertEqual(outcome.records.map(\.index), Array(1...13))
        XCTAssertEqual(outcome.records.map(\.line), (1...13).map { Optional($0) })
        XCTAssertEqual(outcome.records.map(\.byteOffset), [0, 9, 20, 30, 48, 58, 68, 77, 81, 85, 100, 106, 113])
    }

    func testBadLastLineWithoutNewline() {
        let outcome = readJSON("{\"id\":1}\n{\"id\":", jsonLines: true)
        XCTAssertEqual(outcome.records.last?.value, failure("unexpected end of file", at: 15, line: 2))
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(
            readJSON("\"abc", jsonLines: true).records.map(\.value),
            [failure("unterminated string", at: 0, line: 1)])
        XCTAssertEqual(
            readJSON("-", jsonLines: true).records.map(\.value),
            [failure("unexpected end of file", at: 1, line: 1)])
    }

    func testAHugeBadLineIsSkippedWithoutKeepingIt() {
        // The error comes at byte 1; the rest of the line (1 MB) is stepped over in place.
        let text = "x" + String(repeating: "y", count: 1 << 20) + "\n{\"id\":2}\n"
        let reader = JSONRecordReader(source: MemoryByteSource(Array(text.utf8)), jsonLines: true, bufferSize: 4096)
        XCTAssertEqual(try reader.next()?.value, failure("unexpected character 'x'", at: 0, line: 1))
        let second = try? reader.next()
        XCTAssertEqual(second?.value, .success(jsonObject(("id", .integer(2)))))
        XCTAssertEqual(second?.line, 2)
        XCTAssertEqual(second?.byteOffset, (1 << 20) + 2)
    }

    func testBadStartOfTheFirstLine() {
        let input: [UInt8] = [0xEF, 0xBB, 0x41, 0x0A] + Array("{\"id\":2}\n".utf8)
        let outcome = readJSONWithEveryBuffer(input, jsonLines: true)
        XCTAssertEqual(
            outcome.records.map(\.value),
            [
                failure("invalid UTF-8 byte 0xEF", at: 0, line: 1),
                .success(jsonObject(("id", .integer(2)))),
            ])
    }

    func testControlCharactersAndBareCarriageReturns() {
        let outcome = readJSON("{\"a\":1}\r{\"b\":2}\n\u{0}\n{\"c\":3}", jsonLines: true)
        XCTAssertEqual(
            outcome.records.map(\.value),
            [
                failure("unexpected character '{'", at: 8, line: 1),
                failure("unexpected character U+0000", at: 16, line: 2),
                .success(jsonObject(("c", .integer(3)))),
            ])
    }

    func testValuesOfEveryKindOnePerLine() {
        let outcome = readJSON("[1,2]\n\"x\"\n{}\n[]\n", jsonLines: true)
        XCTAssertEqual(
            outcome.values, [.array([.integer(1), .integer(2)]), .string("x"), .object(JSONObject()), .array([])])
    }
}
