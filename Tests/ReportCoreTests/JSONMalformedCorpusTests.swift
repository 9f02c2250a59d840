import XCTest
import JSON
@testable import JSON

/// Malformed inputs: each fails with an exact message at an exact absolute offset, whatever the
/// buffer size.
final class JSONMalformedCorpusTests: XCTestCase {
    func testTruncatedInTheMiddle() {
        assertSyntaxError(#"[{"a":"abc"#, "unterminated string", at: 6)
        assertSyntaxError(#"[{"a":"ab\"#, "unterminated string", at: 6)
        assertSyntaxError(#"[{"a":"ab\u00"#, "unterminated string", at: 6)
        assertSyntaxError(#"[{"a":12"#, "unexpected end of file", at: 8)
        assertSyntaxError(#"[{"a":1."#, "unexpected end of file", at: 8)
        assertSyntaxError(#"[{"a":-"#, "unexpected end of file", at: 7)
        assertSyntaxError(#"[{"a":1e+"#, "unexpected end of file", at: 9)
        assertSyntaxError(#"[{"a":tr"#, "unexpected end of file", at: 8)
        assertSyntaxError(#"[{"a":1,"#, "unexpected end of file", at: 8)
        assertSyntaxError(#"[{"a""#, "unexpected end of file", at: 5)
        assertSyntaxError(#"[{"a":"#, "unexpected end of file", at: 6)
        assertSyntaxError("[{", "unexpected end of file", at: 2)
        assertSyntaxError("[1,2", "unexpected end of file", at: 4)
        assertSyntaxError("[1,", "unexpected end of file", at: 3)
        assertSyntaxError("[", "unexpected end of file", at: 1)
        assertSyntaxError(#"[{"a":1}"#, "unexpected end of file", at: 8)
        assertSyntaxError(#"{"tasks":[{"id":1}]"#, "unexpected end of file", at: 19)
        assertSyntaxError(#"{"tasks":[{"id":1}"#, "unexpected end of file", at: 18)
    }

    func testRecordsBeforeATruncationAreDelivered() {
        let outcome = readJSON(#"[{"id":1},{"id":2},{"id""#)
        XCTAssertEqual(outcome.values, [jsonObject(("id", .integer(1))), jsonObject(("id", .integer(2)))])
        XCTAssertEqual(outcome.ending, .syntax(JSONSyntaxError(message: "unexpected end of file", byteOffset: 24)))
    }

    func testGarbageAfterTheArray() {
        assertSyntaxError("[1] x", "unexpected character 'x'", at: 4)
        assertSyntaxError("[1]\n[2]", "unexpected character '['", at: 4)
        assertSyntaxError("[1],", "unexpected character ','", at: 3)
    }

    func testTrailingCommas() {
        assertSyntaxError("[1,]", "unexpected character ']'", at: 3)
        assertSyntaxError(#"[{"a":1,}]"#, "unexpected character '}'", at: 8)
        assertSyntaxError("[[1,],2]", "unexpected character ']'", at: 4)
        assertSyntaxError(#"{"tasks":[{"id":1},]}"#, "unexpected character ']'", at: 19)
    }

    func testMissingDelimiters() {
        assertSyntaxError(#"[{"a" 1}]"#, "unexpected character '1'", at: 6)
        assertSyntaxError(#"[{"a":1 "b":2}]"#, "unexpected character '\"'", at: 8)
        assertSyntaxError("[{a:1}]", "unexpected character 'a'", at: 2)
        assertSyntaxError("[1 2]", "unexpected character '2'", at: 3)
        assertSyntaxError("[{\"a\":1]", "unexpected character ']'", at: 7)
        assertSyntaxError("[[1}]", "unexpected character '}'", at: 3)
    }

    func testNumbersOutsideTheGrammar() {
        assertSyntaxError("[01]", "leading zero in number '01'", at: 1)
        assertSyntaxError("[-012]", "leading zero in number '-012'", at: 1)
        assertSyntaxError("[+1]", "unexpected character '+'", at: 1)
        assertSyntaxError("[.5]", "unexpected character '.'", at: 1)
        assertSyntaxError("[1.]", "invalid number '1.'", at: 1)
        assertSyntaxError("[1.e3]", "invalid number '1.e3'", at: 1)
        assertSyntaxError("[1e]", "invalid number '1e'", at: 1)
        assertSyntaxError("[1e+]", "invalid number '1e+'", at: 1)
        assertSyntaxError("[1-2]", "invalid number '1-2'", at: 1)
        assertSyntaxError("[1.2.3]", "invalid number '1.2.3'", at: 1)
        assertSyntaxError("[--1]", "invalid number '--1'", at: 1)
        assertSyntaxError("[-]", "invalid number '-'", at: 1)
        assertSyntaxError("[NaN]", "unexpected character 'N'", at: 1)
        assertSyntaxError("[Infinity]", "unexpected character 'I'", at: 1)
        assertSyntaxError("[-Infinity]", "invalid number '-'", at: 1)
        assertSyntaxError("[0x10]", "unexpected character 'x'", at: 2)
        assertSyntaxError("[123456]", "number longer than 4 bytes", at: 1, maxStringBytes: 4)
    }

    func testBadLiterals() {
        assertSyntaxError("[trux]", "unexpected character 'x'", at: 4)
        assertSyntaxError("[nul]", "unexpected character ']'", at: 4)
        assertSyntaxError("[True]", "unexpected character 'T'", at: 1)
        assertSyntaxError("[truee]", "unexpected character 'e'", at: 5)
        assertSyntaxError("[nulll]", "unexpected character 'l'", at: 5)
        assertSyntaxError("[fals", "unexpected end of file", at: 5)
    }

    func testBadEscapes() {
        assertSyntaxError(#"["ab\x"]"#, "invalid escape '\\x'", at: 4)
        assertSyntaxError(#"["\'"]"#, "invalid escape '\\''", at: 2)
        assertSyntaxError(#"["\u12G4"]"#, "invalid hex digit 'G' in \\u escape", at: 6)
        assertSyntaxError(#"["\u12"]"#, "invalid hex digit '\"' in \\u escape", at: 6)
        assertSyntaxError([0x5B, 0x22, 0x5C, 0xC3, 0xA9, 0x22, 0x5D], "invalid escape", at: 2)
    }

    func testLoneSurrogates() {
        assertSyntaxError(#"["\ud800"]"#, "lone surrogate \\uD800", at: 2)
        assertSyntaxError(#"["a\udc00b"]"#, "lone surrogate \\uDC00", at: 3)
        assertSyntaxError(#"["\ud83dx"]"#, "lone surrogate \\uD83D", at: 2)
        assertSyntaxError(#"["\ud83d\n"]"#, "lone surrogate \\uD83D", at: 2)
        assertSyntaxError(#"["\ud83d\u0041"]"#, "lone surrogate \\uD83D", at: 2)
        assertSyntaxError(#"["\ud83d\ud83d"]"#, "lone surrogate \\uD83D", at: 2)
    }

    func testInvalidUTF8InStrings() {
        func inString(_ bytes: [UInt8]) -> [UInt8] { Array("[\"ab".utf8) + bytes + Array("cd\"]".utf8) }
        let variants: [(bytes: [UInt8], lead: String)] = [
            ([0xC3], "0xC3"),  // truncated two-byte sequence
            ([0xE2, 0x82], "0xE2"),  // truncated three-byte sequence
            ([0xF0, 0x9F, 0x98], "0xF0"),  // truncated four-byte sequence
            ([0xC0, 0xAF], "0xC0"),  // overlong '/'
            ([0xC1, 0xBF], "0xC1"),  // overlong
            ([0xE0, 0x80, 0xAF], "0xE0"),  // overlong three-byte
            ([0xF0, 0x80, 0x80, 0xAF], "0xF0"),  // overlong four-byte
            ([0xED, 0xA0, 0x80], "0xED"),  // U+D800 encoded in UTF-8
            ([0xED, 0xBF, 0xBF], "0xED"),  // U+DFFF encoded in UTF-8
            ([0xF4, 0x90, 0x80, 0x80], "0xF4"),  // U+110000
            ([0xF5, 0x80, 0x80, 0x80], "0xF5"),  // beyond Unicode
            ([0x80], "0x80"),  // stray continuation byte
            ([0xBF], "0xBF"),
            ([0xFE], "0xFE"),
            ([0xFF], "0xFF"),
        ]
        for variant in variants {
            assertSyntaxError(inString(variant.bytes), "invalid UTF-8 byte \(variant.lead)", at: 4)
        }
        assertSyntaxError(Array("[\"a".utf8) + [0xE2, 0x82], "invalid UTF-8 byte 0xE2", at: 3)
    }

    func testNonASCIIOutsideStrings() {
        assertSyntaxError([0x5B, 0xC3, 0xA9, 0x5D], "unexpected character 'é'", at: 1)
        assertSyntaxError([0x5B, 0xFF, 0x5D], "invalid UTF-8 byte 0xFF", at: 1)
        assertSyntaxError([0x5B, 0x31, 0x2C, 0xC3, 0x5D], "invalid UTF-8 byte 0xC3", at: 3)
        assertSyntaxError([0xEF, 0xBB, 0x5B, 0x5D], "invalid UTF-8 byte 0xEF", at: 0)
        assertSyntaxError([0xEF, 0xBC, 0x81], "unexpected character '！'", at: 0)
        assertSyntaxError([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x5B, 0x5D], "unexpected character U+FEFF", at: 3)
    }

    func testSpecialBytesAtEveryPositionOfAWord() {
        // Strings are scanned eight bytes at a time: put each kind of special byte at every place.
        for count in 0..<20 {
            let prefix = String(repeating: "a", count: count)
            let suffix = "bcdefghijk"
            for (written, decoded) in [
                ("\\\"", "\""), ("é", "é"), ("\\n", "\n"), ("😀", "😀"), ("\u{7F}", "\u{7F}"), ("", ""),
            ] {
                XCTAssertEqual(
                    readJSON("[\"\(prefix)\(written)\(suffix)\"]").values, [.string(prefix + decoded + suffix)])
            }
            assertSyntaxError("[\"\(prefix)\u{1F}\(suffix)\"]", "control character U+001F in string", at: 2 + count)
            assertSyntaxError(
                Array("[\"\(prefix)".utf8) + [0xFF] + Array("\(suffix)\"]".utf8), "invalid UTF-8 byte 0xFF",
                at: 2 + count)
            assertSyntaxError(
                Array("[\"\(prefix)".utf8) + [0xE2, 0x28, 0xA1] + Array("\(suffix)\"]".utf8),
                "invalid UTF-8 byte 0xE2", at: 2 + count)
        }
    }

    func testControlCharactersInStrings() {
        assertSyntaxError("[\"a\tb\"]", "control character U+0009 in string", at: 3)
        assertSyntaxError("[\"a\nb\"]", "control character U+000A in string", at: 3)
        assertSyntaxError([0x5B, 0x22, 0x00, 0x22, 0x5D], "control character U+0000 in string", at: 2)
        assertSyntaxError([0x5B, 0x22, 0x1F, 0x22, 0x5D], "control character U+001F in string", at: 2)
    }

    func testControlCharactersOutsideStrings() {
        assertSyntaxError([0, 0, 0], "unexpected character U+0000", at: 0)
        assertSyntaxError([0x5B, 0x0C, 0x5D], "unexpected character U+000C", at: 1)
        assertSyntaxError([0x5B, 0x31, 0x00, 0x5D], "unexpected character U+0000", at: 2)
    }

    /// A valid lone value is named as what it is (it is not malformed); a broken one, or one
    /// followed by more text, is a syntax error as before.
    func testTopLevelValuesThatAreNoLayout() {
        let suffix = "; records come in an array, a wrapper object or JSON Lines"
        let cases: [(String, String, Int)] = [
            ("42", "the number 42", 0), ("  \"tasks\"\n", "a string \"tasks\"", 2), ("null", "null", 0),
            ("-1.5e3", "the number -1.5e3", 0), ("\u{FEFF}true", "the boolean true", 3),
        ]
        for (text, what, offset) in cases {
            XCTAssertEqual(
                readJSON(text).ending,
                .layout(
                    JSONLayoutError(
                        message: "a JSON value, not records: the file holds " + what + suffix, byteOffset: offset)),
                text)
        }
        assertSyntaxError("]", "unexpected character ']'", at: 0)
        assertSyntaxError("42 43", "unexpected character '4'", at: 3)
        assertSyntaxError("nul", "unexpected end of file", at: 3)
        assertSyntaxError("x", "unexpected character 'x'", at: 0)
    }

    func testNestingFarTooDeepStopsAtTheLimit() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        // The first bracket is the layout; the record starts at byte 1 and its 513th bracket is too deep.
        assertSyntaxError(text, "nesting deeper than 512", at: 513)
        let objects = "[" + String(repeating: "{\"a\":", count: 100_000)
        assertSyntaxError(objects, "nesting deeper than 512", at: 1 + 512 * 5)
        XCTAssertEqual(readJSON("[[[{}]]]", maxDepth: 3).ending, .end)
        assertSyntaxError("[[[[{}]]]]", "nesting deeper than 3", at: 4, maxDepth: 3)
        assertSyntaxError("[[[[[]]]]]", "nesting deeper than 3", at: 4, maxDepth: 3)
    }

    func testStringLongerThanTheLimit() {
        assertSyntaxError(#"["123456789"]"#, "string longer than 8 bytes", at: 1, maxStringBytes: 8)
        assertSyntaxError(#"["1234567\u00e9"]"#, "string longer than 8 bytes", at: 1, maxStringBytes: 8)
        assertSyntaxError(#"[{"123456789":1}]"#, "string longer than 8 bytes", at: 2, maxStringBytes: 8)
        let huge = "[\"" + String(repeating: "x", count: 200_000) + "\"]"
        assertSyntaxError(huge, "string longer than 100000 bytes", at: 1, maxStringBytes: 100_000)
    }

    func testRecordLongerThanTheLimit() {
        let outcome = readJSON(#"[[1,2],[1,2,3,4,5,6,7,8,9]]"#, maxRecordBytes: 10)
        XCTAssertEqual(outcome.values, [.array([.integer(1), .integer(2)])])
        XCTAssertEqual(outcome.ending, .syntax(JSONSyntaxError(message: "record longer than 10 bytes", byteOffset: 7)))
    }

    func testTheSameErrorIsThrownAgain() {
        let reader = JSONRecordReader(source: MemoryByteSource(Array("[1,x]".utf8)), jsonLines: false)
        XCTAssertEqual(try reader.next()?.value, .success(.integer(1)))
        let expected = JSONSyntaxError(message: "unexpected character 'x'", byteOffset: 3)
        XCTAssertThrowsError(try reader.next()) { XCTAssertEqual($0 as? JSONSyntaxError, expected) }
        XCTAssertThrowsError(try reader.next()) { XCTAssertEqual($0 as? JSONSyntaxError, expected) }
    }

    func testErrorDescriptions() {
        XCTAssertEqual(
            JSONSyntaxError(message: "unterminated string", byteOffset: 1234).description,
            "unterminated string at byte 1234")
        XCTAssertEqual(
            JSONSyntaxError(message: "unexpected character 'x'", byteOffset: 1234, line: 7).description,
            "unexpected character 'x' at line 7, byte 1234")
    }
}
