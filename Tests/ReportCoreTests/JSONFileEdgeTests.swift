import XCTest
import Import
import JSON
@testable import Import
@testable import JSON

/// The edges of a file that are not records (issue 15): empty files, other encodings, control
/// characters in messages, and member names compared byte for byte.
final class JSONFileEdgeTests: XCTestCase {
    func testEmptyFilesSayWhyTheyHoldNothing() {
        let cases: [([UInt8], JSONEmptiness)] = [
            ([], .noBytes),
            (Array(" \n\r\n\t ".utf8), .whitespaceOnly),
            ([0xEF, 0xBB, 0xBF], .byteOrderMarkOnly),
            ([0xEF, 0xBB, 0xBF, 0x0A, 0x20], .whitespaceOnly),
        ]
        for (bytes, emptiness) in cases {
            for jsonLines in [false, true] {
                let outcome = readJSONWithEveryBuffer(bytes, jsonLines: jsonLines)
                XCTAssertEqual(outcome.ending, .end, "\(bytes)")
                XCTAssertEqual(outcome.records, [])
                XCTAssertEqual(outcome.emptiness, emptiness, "\(bytes) jsonLines \(jsonLines)")
            }
        }
    }

    func testAnEmptyExportIsNotAnEmptyFile() {
        for text in ["[]", "{\"tasks\":[]}", "\n\n"] {
            let outcome = readJSON(text)
            XCTAssertEqual(outcome.records, [], text)
            XCTAssertEqual(outcome.emptiness, text == "\n\n" ? .whitespaceOnly : nil, text)
        }
    }

    func testUTF16AndUTF32AreNamed() {
        let text = "[{\"id\":1}]"
        let samples: [(String, [UInt8])] = [
            ("UTF-16", [0xFF, 0xFE] + utf16(text, bigEndian: false)),
            ("UTF-16", [0xFE, 0xFF] + utf16(text, bigEndian: true)),
            ("UTF-16", utf16(text, bigEndian: false)),
            ("UTF-16", utf16(text, bigEndian: true)),
            ("UTF-32", [0xFF, 0xFE, 0, 0] + utf32(text, bigEndian: false)),
            ("UTF-32", [0, 0, 0xFE, 0xFF] + utf32(text, bigEndian: true)),
            ("UTF-32", utf32(text, bigEndian: false)),
            ("UTF-32", utf32(text, bigEndian: true)),
            ("UTF-16", utf16(" ", bigEndian: false)),
        ]
        for (encoding, bytes) in samples {
            for jsonLines in [false, true] {
                let outcome = readJSONWithEveryBuffer(bytes, jsonLines: jsonLines)
                XCTAssertEqual(
                    outcome.ending,
                    .layout(JSONLayoutError(message: "looks like \(encoding); save it as UTF-8", byteOffset: 0)),
                    "\(bytes.prefix(4)) jsonLines \(jsonLines)")
                XCTAssertEqual(outcome.records, [])
            }
        }
        // Zero bytes alone are no known encoding: the first one is unexpected, as before.
        assertSyntaxError([0, 0, 0, 0, 0], "unexpected character U+0000", at: 0)
        XCTAssertNil(LeadingBytesSource.foreignEncoding(Array("[{\"é\":1}]".utf8)))
        XCTAssertNil(LeadingBytesSource.foreignEncoding([0x7B]))
    }

    /// The letter after a backslash may be a raw control byte: messages show its code point.
    func testControlBytesInMessagesAreCodePoints() {
        assertSyntaxError([0x5B, 0x22, 0x5C, 0x09, 0x22, 0x5D], "invalid escape '\\U+0009'", at: 2)
        assertSyntaxError([0x5B, 0x22, 0x5C, 0x01, 0x22, 0x5D], "invalid escape '\\U+0001'", at: 2)
        let lines = readJSONWithEveryBuffer([0x7B, 0x22, 0x5C, 0x1B, 0x22, 0x3A, 0x31, 0x7D, 0x0A], jsonLines: true)
        guard case .failure(let error)? = lines.records.first?.value else { return XCTFail("one bad line: \(lines)") }
        XCTAssertEqual(error.message, "invalid escape '\\U+001B'")
        XCTAssertFalse(error.description.unicodeScalars.contains { $0.value < 0x20 })
    }

    /// JSON compares member names as code points: NFC `é` (C3 A9) and NFD `e` + U+0301 are two
    /// names, although Swift's `==` on strings calls them equal.
    func testMemberNamesCompareByteForByte() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        XCTAssertEqual(composed, decomposed, "Swift's == is canonical equivalence")
        let object = JSONObject(members: [
            JSONObject.Member(key: decomposed, value: .integer(1)),
            JSONObject.Member(key: composed, value: .integer(2)),
        ])
        XCTAssertNil(object.duplicateKey)
        XCTAssertEqual(object[composed], .integer(2))
        XCTAssertEqual(object[decomposed], .integer(1))
        XCTAssertNil(object["caf"])
        XCTAssertNil(object[""])

        // The same with more than 16 members (the set path), and a real repeat still found.
        var members = (0..<20).map { JSONObject.Member(key: "k\($0)", value: .null) }
        members += [JSONObject.Member(key: composed, value: .null), JSONObject.Member(key: decomposed, value: .null)]
        XCTAssertNil(JSONObject(members: members).duplicateKey)
        members.append(JSONObject.Member(key: decomposed, value: .null))
        XCTAssertEqual(JSONObject(members: members).duplicateKey, decomposed)

        // Through the record reader: two distinct fields, so the record is not rejected as repeating one.
        let reader = try RecordReader(object)
        XCTAssertEqual(reader.value(composed), .integer(2))
        XCTAssertEqual(reader.value(decomposed), .integer(1))
    }

    private func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    private func utf32(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            let value = scalar.value
            let little = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
            return bigEndian ? little.reversed() : little
        }
    }
}
