import Import
import XCTest

@testable import JSON

/// The shortcuts of issue 13's reader thread give the answers of the plain code they stand in for:
/// `JSONMemberIndex` finds what a scan of the members finds, its repeated-name check names the
/// name the pairwise check names, and member names predicted from the record before read as the
/// scanner reads them (escapes and errors included).
final class JSONLookupTests: XCTestCase {
    /// Names that meet in every way the index cares about: lengths in one class modulo 16 (2, 18,
    /// 34), the empty name, NFC and NFD spellings of one word (equal to Swift's `==`, two names to
    /// JSON), a prefix of another name, names of 64 bytes and more (outside the length mask),
    /// and small and heap-held strings.
    private let names: [String] = [
        "", "a", "id", "userId", "user", "state", "date", "createdAt", "completedAt",
        "ab_cdefghijklmnopq", "ab_cdefghijklmnopq_rstuvwxyz_01234", "caf\u{E9}", "cafe\u{301}",
        String(repeating: "x", count: 64), String(repeating: "x", count: 80), String(repeating: "y", count: 15),
    ]

    /// The first name met a second time, found the slow way.
    private func firstRepeated(_ members: [JSONObject.Member]) -> String? {
        var seen: [[UInt8]] = []
        for member in members {
            let bytes = Array(member.key.utf8)
            if seen.contains(bytes) { return member.key }
            seen.append(bytes)
        }
        return nil
    }

    /// The first member's value with this name byte for byte, found the slow way.
    private func firstValue(_ members: [JSONObject.Member], _ name: String) -> JSONValue? {
        members.first { Array($0.key.utf8) == Array(name.utf8) }?.value
    }

    func testTheIndexFindsWhatAScanFindsInRandomObjects() throws {
        var generator = SplitMix64(seed: 13)
        for round in 0..<3000 {
            let count = Int.random(in: 0...(round % 10 == 0 ? 40 : 12), using: &generator)
            // Heap-held copies of some names, so that equal names are not always the same storage.
            let members = (0..<count).map { position in
                let name = names.randomElement(using: &generator)!
                let key = Bool.random(using: &generator) ? name : String(decoding: Array(name.utf8), as: UTF8.self)
                return JSONObject.Member(key: key, value: .integer(Int64(position)))
            }
            let object = JSONObject(members: members)
            let index = JSONMemberIndex(members)
            XCTAssertEqual(object.duplicateKey(index: index), firstRepeated(members), "\(members.map(\.key))")
            XCTAssertEqual(object.duplicateKey, firstRepeated(members))
            for name in names {
                XCTAssertEqual(index.value(of: name, in: object), firstValue(members, name), "\(name) in \(members)")
                XCTAssertEqual(object[name], firstValue(members, name))
            }
            if firstRepeated(members) == nil {
                let reader = try RecordReader(object)
                for name in names { XCTAssertEqual(reader.value(name), firstValue(members, name)) }
            }
        }
    }

    func testNamesOfOneLengthClassAreStillTold() throws {
        // "id" (2 bytes) first in its class, so a lookup of "ab_cdefghijklmnopq" (18) starts there and
        // must scan on; "state" is absent and its class (5) is empty.
        let members: [JSONObject.Member] = [
            .init(key: "id", value: .integer(1)), .init(key: "ab_cdefghijklmnopq", value: .integer(2)),
            .init(key: "xy", value: .integer(3)),
        ]
        let reader = try RecordReader(JSONObject(members: members))
        XCTAssertEqual(reader.value("id"), .integer(1))
        XCTAssertEqual(reader.value("ab_cdefghijklmnopq"), .integer(2))
        XCTAssertEqual(reader.value("xy"), .integer(3))
        XCTAssertNil(reader.value("yx"))
        XCTAssertNil(reader.value("state"))
        XCTAssertThrowsError(try RecordReader(JSONObject(members: members + [.init(key: "xy", value: .null)]))) {
            XCTAssertEqual(($0 as? FieldError)?.description, "field xy: repeated field")
        }
    }

    func testObjectsOfMoreThan255MembersAreScanned() throws {
        let members = (0..<300).map { JSONObject.Member(key: "field\($0)", value: .integer(Int64($0))) }
        let object = JSONObject(members: members)
        let index = JSONMemberIndex(members)
        for position in [0, 254, 255, 256, 299] {
            XCTAssertEqual(index.value(of: "field\(position)", in: object), .integer(Int64(position)))
        }
        XCTAssertNil(index.value(of: "field300", in: object))
        XCTAssertNil(object.duplicateKey(index: index))
        let repeated = members + [JSONObject.Member(key: "field7", value: .null)]
        XCTAssertEqual(JSONObject(members: repeated).duplicateKey(index: JSONMemberIndex(repeated)), "field7")
    }

    func testPredictedNamesReadAsTheScannerReadsThem() {
        // Records whose names shift (an optional field), repeat under escapes, are prefixes of the
        // name before, have space before the colon, and nest; more than 32 members in the last one.
        let wide = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let text = """
            [{"id":"1","userId":"u","state":"a","createdAt":"t"},
             {"id":"2","userId":"u","contexte":["x"],"state":"a","createdAt":"t"},
             {"id":"3","user":"u","state" :"a","createdAt"\t:"t"},
             {"\\u0069d":"4","userId":"u","state":"a","createdAt":"t"},
             {"id":"5","userId":{"id":"6","userId":"v"},"state":"b"},
             {"id":"7","userIdX":"u","stat":"a","createdAt":"t"},
             {\(wide)},
             {\(wide)}]
            """
        let outcome = readJSON(text)
        XCTAssertEqual(outcome.ending, .end)
        let wideObject = JSONValue.object(
            JSONObject(members: (0..<40).map { JSONObject.Member(key: "k\($0)", value: .integer(Int64($0))) }))
        XCTAssertEqual(
            outcome.values,
            [
                jsonObject(
                    ("id", .string("1")), ("userId", .string("u")), ("state", .string("a")), ("createdAt", .string("t"))
                ),
                jsonObject(
                    ("id", .string("2")), ("userId", .string("u")), ("contexte", .array([.string("x")])),
                    ("state", .string("a")), ("createdAt", .string("t"))),
                jsonObject(
                    ("id", .string("3")), ("user", .string("u")), ("state", .string("a")), ("createdAt", .string("t"))),
                jsonObject(
                    ("id", .string("4")), ("userId", .string("u")), ("state", .string("a")), ("createdAt", .string("t"))
                ),
                jsonObject(
                    ("id", .string("5")), ("userId", jsonObject(("id", .string("6")), ("userId", .string("v")))),
                    ("state", .string("b"))),
                jsonObject(
                    ("id", .string("7")), ("userIdX", .string("u")), ("stat", .string("a")), ("createdAt", .string("t"))
                ),
                wideObject, wideObject,
            ])
    }

    /// A name remembered from an escape is never matched by raw bytes the scanner rejects: a raw
    /// newline where the record before had `\n`, a bare quote where it had `\"`.
    func testNamesWithEscapesAreNotMatchedByRawBytes() {
        assertSyntaxError("[{\"a\\nb\":1},\n{\"a\nb\":1}]", "control character U+000A in string", at: 16)
        assertSyntaxError(#"[{"a\"b":1},{"a"b":1}]"#, "unexpected character 'b'", at: 16)
        // A name remembered whole, then cut short by the end of the input.
        assertSyntaxError(#"[{"userId":1},{"userId"#, "unterminated string", at: 15)
    }
}

/// The seeded generator of the CSV tests, so that a failure repeats.
extension SplitMix64: RandomNumberGenerator {}
