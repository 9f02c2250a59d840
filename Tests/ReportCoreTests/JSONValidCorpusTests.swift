import XCTest
import JSON
@testable import JSON

/// Valid inputs, each read with every test buffer size (1, 2, 3, 7, 64 bytes and 64 KiB).
final class JSONValidCorpusTests: XCTestCase {
    func testArrayOfRecordsKeepsIndexAndOffset() {
        let outcome = readJSON(#"[{"id":1,"name":"a"}, {"id":"2"}]"#)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(outcome.layout, .array)
        XCTAssertEqual(
            outcome.records,
            [
                JSONRecord(
                    index: 1, line: nil, byteOffset: 1,
                    value: .success(jsonObject(("id", .integer(1)), ("name", .string("a"))))),
                JSONRecord(index: 2, line: nil, byteOffset: 22, value: .success(jsonObject(("id", .string("2"))))),
            ])
        XCTAssertEqual(outcome.bytesConsumed, 33)
    }

    func testTypicalTaskRecord() {
        let text =
            (#"[{"id":"task-000123456","userId":"user-0042","date":"2026-11-28","libelle":"Préparer la réunion "#
                + #"d'équipe","state":"terminee","contexte":["Travail","Focus"],"#
                + #""createdAt":"2026-11-27T08:00:00+01:00","completedAt":"2026-11-28T10:15:00+01:00"}]"#)
        let outcome = readJSON(text)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(
            outcome.values,
            [
                jsonObject(
                    ("id", .string("task-000123456")), ("userId", .string("user-0042")),
                    ("date", .string("2026-11-28")),
                    ("libelle", .string("Préparer la réunion d'équipe")), ("state", .string("terminee")),
                    ("contexte", .array([.string("Travail"), .string("Focus")])),
                    ("createdAt", .string("2026-11-27T08:00:00+01:00")),
                    ("completedAt", .string("2026-11-28T10:15:00+01:00"))
                )
            ])
    }

    func testEmptyArrays() {
        for text in ["[]", " \n\t[ \r\n ]\n "] {
            let outcome = readJSON(text)
            XCTAssertEqual(outcome.ending, .end, text)
            XCTAssertEqual(outcome.records, [], text)
            XCTAssertEqual(outcome.layout, .array, text)
        }
    }

    func testArrayElementsOfAnyKindAreRecords() {
        let outcome = readJSON(#"[1, "x", null, [], {}]"#)
        XCTAssertEqual(outcome.values, [.integer(1), .string("x"), .null, .array([]), .object(JSONObject())])
        XCTAssertEqual(outcome.records.map(\.byteOffset), [1, 4, 9, 15, 19])
    }

    func testWrapperWithScalarsBeforeAndAfterTheArray() {
        let text = """
            {
              "exported_at": "2026-11-28T07:00:00Z",
              "version": 3,
              "tasks": [
                {"id": 1},
                {"id": 2}
              ],
              "complete": true,
              "note": null
            }

            """
        let outcome = readJSON(text)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(outcome.layout, .wrapper(key: "tasks"))
        XCTAssertEqual(outcome.values, [jsonObject(("id", .integer(1))), jsonObject(("id", .integer(2)))])
        XCTAssertEqual(outcome.records.map(\.index), [1, 2])
        XCTAssertEqual(
            outcome.wrapperMetadata,
            [
                JSONObject.Member(key: "exported_at", value: .string("2026-11-28T07:00:00Z")),
                JSONObject.Member(key: "version", value: .integer(3)),
                JSONObject.Member(key: "complete", value: .bool(true)),
                JSONObject.Member(key: "note", value: .null),
            ])
    }

    func testWrapperRecordsArriveBeforeTheObjectEnds() throws {
        // The object is never closed: the records before the cut are still delivered first.
        let reader = JSONRecordReader(
            source: MemoryByteSource(Array(#"{"a":"x","assignments":[{"id":1},{"id":2}"#.utf8)),
            jsonLines: false, bufferSize: 4)
        XCTAssertEqual(try reader.next()?.value, .success(jsonObject(("id", .integer(1)))))
        XCTAssertEqual(reader.layout, .wrapper(key: "assignments"))
        XCTAssertEqual(reader.wrapperMetadata, [JSONObject.Member(key: "a", value: .string("x"))])
        XCTAssertEqual(try reader.next()?.value, .success(jsonObject(("id", .integer(2)))))
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual(
                error as? JSONSyntaxError, JSONSyntaxError(message: "unexpected end of file", byteOffset: 41))
        }
    }

    func testEmptyWrapperArray() {
        let outcome = readJSON(#"{"exported_at":"2026-11-28","bookings":[]}"#)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(outcome.records, [])
        XCTAssertEqual(outcome.layout, .wrapper(key: "bookings"))
        XCTAssertEqual(outcome.wrapperMetadata, [JSONObject.Member(key: "exported_at", value: .string("2026-11-28"))])
    }

    func testByteOrderMarkIsSkipped() {
        let outcome = readJSONWithEveryBuffer([0xEF, 0xBB, 0xBF] + Array(#" [{"id":1}]"#.utf8))
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(
            outcome.records,
            [
                JSONRecord(
                    index: 1, line: nil, byteOffset: 5,
                    value: .success(jsonObject(("id", .integer(1)))))
            ])
        let lines = readJSONWithEveryBuffer([0xEF, 0xBB, 0xBF] + Array("{\"id\":1}\n".utf8), jsonLines: true)
        XCTAssertEqual(
            lines.records,
            [
                JSONRecord(
                    index: 1, line: 1, byteOffset: 3,
                    value: .success(jsonObject(("id", .integer(1)))))
            ])
    }

    func testEmptyAndBlankFilesHaveNoRecords() {
        for text in ["", " \n\r\n\t "] {
            for jsonLines in [false, true] {
                let outcome = readJSONWithEveryBuffer(Array(text.utf8), jsonLines: jsonLines)
                XCTAssertEqual(outcome.ending, .end)
                XCTAssertEqual(outcome.records, [])
                XCTAssertEqual(outcome.layout, .jsonLines)
            }
        }
        XCTAssertEqual(readJSONWithEveryBuffer([0xEF, 0xBB, 0xBF]).records, [])
    }

    func testEscapes() {
        let outcome = readJSON(#"["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u20AC\u0000", "a\u000Ab"]"#)
        XCTAssertEqual(outcome.values, [.string("\"\\/\u{8}\u{C}\n\r\t"), .string("Aé€\u{0}"), .string("a\nb")])
    }

    func testSurrogatePairsCombine() {
        let outcome = readJSON(#"["\ud83d\ude00", "x\uD83D\uDE00y", "\uDBFF\uDFFF"]"#)
        XCTAssertEqual(outcome.values, [.string("😀"), .string("x😀y"), .string("\u{10FFFF}")])
    }

    func testRawUnicode() {
        let text =
            "[\"Préparer la réunion d'équipe\", \"日本語\", \"😀\", "
            + "\"\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\"]"
        let outcome = readJSON(text)
        XCTAssertEqual(
            outcome.values,
            [
                .string("Préparer la réunion d'équipe"), .string("日本語"), .string("😀"),
                .string("\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}"),
            ])
    }

    func testNumberEdgeCases() {
        let text =
            "[0, -0, 1.5e3, 9223372036854775807, 9223372036854775808, -9223372036854775808, "
            + "-9223372036854775809, 1e999, -1e999, 12345678901234567890, 0.5, -0.0, 1E+2, 1e-2, 2.5E-3, 1e-999, 10]"
        let outcome = readJSON(text)
        XCTAssertEqual(outcome.ending, .end)
        XCTAssertEqual(
            outcome.values,
            [
                .integer(0), .integer(0), jsonNumber("1.5e3"), .integer(Int64.max),
                jsonNumber("9223372036854775808"), .integer(Int64.min), jsonNumber("-9223372036854775809"),
                .number(.infinity, literal: "1e999"), .number(-.infinity, literal: "-1e999"),
                .number(1.2345678901234567e19, literal: "12345678901234567890"), jsonNumber("0.5"),
                jsonNumber("-0.0"), .number(100, literal: "1E+2"), jsonNumber("1e-2"), jsonNumber("2.5E-3"),
                .number(0, literal: "1e-999"), .integer(10),
            ])
        if case .number(let value, _) = outcome.values[1] { XCTFail("-0 read as \(value)") }
    }

    func testNumbersAndLiteralsAtTheEndOfJSONLines() {
        let outcome = readJSON("1\n-2.5\ntrue\nfalse\nnull\n12e2", jsonLines: true)
        XCTAssertEqual(
            outcome.values,
            [
                .integer(1), jsonNumber("-2.5"), .bool(true), .bool(false), .null,
                jsonNumber("12e2"),
            ])
    }

    func testNestedValuesAndWhitespace() {
        let outcome = readJSON(#" [ { "a" : [ 1 , [ 2 , { "b" : null } ] ] , "c" : { } , "d" : [ ] } ] "#)
        XCTAssertEqual(
            outcome.values,
            [
                jsonObject(
                    ("a", .array([.integer(1), .array([.integer(2), jsonObject(("b", .null))])])),
                    ("c", .object(JSONObject())), ("d", .array([]))
                )
            ])
    }

    func testDuplicateKeysArePreservedInOrder() {
        let outcome = readJSON(#"[{"a":1,"b":2,"a":3}]"#)
        guard case .object(let object) = outcome.values.first else { return XCTFail("no object") }
        XCTAssertEqual(object.members.map(\.key), ["a", "b", "a"])
        XCTAssertEqual(object.members.map(\.value), [.integer(1), .integer(2), .integer(3)])
        XCTAssertEqual(object.duplicateKey, "a")
    }

    func testNestingJustUnderTheLimit() {
        let depth = 512
        let text = "[" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "]"
        let outcome = readJSON(text)
        XCTAssertEqual(outcome.ending, .end)
        var value = outcome.values.first
        var measured = 0
        while case .array(let items)? = value {
            measured += 1
            value = items.first
        }
        XCTAssertEqual(measured, depth)
        let objects = String(repeating: "{\"a\":", count: 3) + "{}" + String(repeating: "}", count: 3)
        XCTAssertEqual(readJSON(objects, jsonLines: true, maxDepth: 4).ending, .end)
    }

    func testStringsLongerThanTheBuffer() {
        let long = String(repeating: "abcé\\n😀\\u00e9", count: 2_000)
        let expected = String(repeating: "abcé\n😀é", count: 2_000)
        let outcome = readJSON("[\"\(long)\"]")
        XCTAssertEqual(outcome.values, [.string(expected)])
        XCTAssertEqual(
            readJSON("[\"" + String(repeating: "x", count: 70_000) + "\"]").values,
            [.string(String(repeating: "x", count: 70_000))])
    }

    func testStringOfExactlyTheMaximumLength() {
        XCTAssertEqual(
            readJSON(#"["12345678", "1234567\u00e9"]"#, maxStringBytes: 9).values,
            [.string("12345678"), .string("1234567é")])
    }

    func testManyShortStringsComeBackExactly() {
        // Short strings are handed out from a cache keyed by their bytes: collisions and lengths
        // 1…16 (with look-alike prefixes) must still give each string its own value.
        var strings: [String] = []
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_ é")
        var state: UInt64 = 42
        for index in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = index % 16 + 1
            var text = ""
            for position in 0..<length {
                text.append(alphabet[Int((state >> UInt64(position * 3 % 60)) % UInt64(alphabet.count))])
            }
            strings.append(text)
            strings.append(String(text.prefix(length - 1)))
        }
        // Same length, one byte different, at every place of both words.
        let base = Array("abcdefghijklmnop")
        for length in 1...16 {
            strings.append(String(base[0..<length]))
            for place in 0..<length {
                var variant = Array(base[0..<length])
                variant[place] = "Z"
                strings.append(String(variant))
            }
        }
        let forward = strings.map { "\"\($0)\"" }.joined(separator: ",")
        let backward = strings.reversed().map { "\"\($0)\"" }.joined(separator: ",")
        let outcome = readJSON("[[\(forward)],[\(backward)]]")
        XCTAssertEqual(
            outcome.values, [.array(strings.map { .string($0) }), .array(strings.reversed().map { .string($0) })])
    }
}
