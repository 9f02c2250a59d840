import Import
import XCTest

@testable import JSON

/// Records are read from the reader's tape (`JSONTape`, issue 13), and every answer is the one the
/// plain code on a tree gives: a field found by its name's bytes is the first member of that name,
/// the repeated-name check names the name a pairwise scan names, the tape makes back the value it
/// read (and its JSON text), and a record validated on the reader's tape gives what the same record
/// built in memory gives.
final class JSONLookupTests: XCTestCase {
    /// Names that meet in every way a lookup cares about: lengths that collide modulo 64 (2, 66),
    /// the empty name, NFC and NFD spellings of one word (equal to Swift's `==`, two names to JSON),
    /// a prefix of another name, long names, and small and heap-held strings.
    private let names: [String] = [
        "", "a", "id", "userId", "user", "state", "date", "createdAt", "completedAt",
        "ab_cdefghijklmnopq", "ab_cdefghijklmnopq_rstuvwxyz_01234", "caf\u{E9}", "cafe\u{301}",
        String(repeating: "x", count: 64), String(repeating: "x", count: 66), String(repeating: "y", count: 15),
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

    /// The first member's value with this name byte for byte, `null` read as absent, found the slow way.
    private func firstValue(_ members: [JSONObject.Member], _ name: String) -> JSONValue? {
        let value = members.first { Array($0.key.utf8) == Array(name.utf8) }?.value
        return value == .null ? nil : value
    }

    /// Reads `text` as an array file and hands each record on the reader's tape to `body`.
    private func eachRecordOnTape(_ text: String, _ body: (JSONTape) throws -> Void) throws {
        let reader = JSONRecordReader(source: MemoryByteSource(Array(text.utf8)), jsonLines: false, bufferSize: 7)
        while let record = try reader.nextOnTape() { try body(try record.tape.get()) }
    }

    /// A random value of a few levels: every kind of the tape, strings that need escapes.
    private func randomValue(_ generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth < 3 ? 9 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator))
        case 3: return .number(2.5, literal: "2.5")
        case 4:
            return .string(
                ["", "plain", "tab\there", "quote\" and \\", "é ü 🚗", "\u{1}"].randomElement(using: &generator)!)
        case 5: return .number(1.2345678901234567e19, literal: "12345678901234567890")
        case 6, 7:
            return .array(
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            return .object(
                JSONObject(
                    members: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        JSONObject.Member(
                            key: names.randomElement(using: &generator)!,
                            value: randomValue(&generator, depth: depth + 1))
                    }))
        }
    }

    func testLookupsOnTheReadersTapeFindWhatAScanFindsInRandomObjects() throws {
        var generator = SplitMix64(seed: 13)
        for round in 0..<1500 {
            let count = Int.random(in: 0...(round % 10 == 0 ? 40 : 12), using: &generator)
            // Heap-held copies of some names, so that equal names are not always the same storage.
            let members = (0..<count).map { position in
                let name = names.randomElement(using: &generator)!
                let key = Bool.random(using: &generator) ? name : String(decoding: Array(name.utf8), as: UTF8.self)
                let value: JSONValue = position % 5 == 4 ? .null : .integer(Int64(position))
                return JSONObject.Member(key: key, value: value)
            }
            let object = JSONObject(members: members)
            XCTAssertEqual(object.duplicateKey, firstRepeated(members))
            for name in names {
                let found = object[name]
                XCTAssertEqual(found == .null ? nil : found, firstValue(members, name))
            }
            try eachRecordOnTape("[" + JSONValue.object(object).jsonText + "]") { tape in
                XCTAssertEqual(tape.value(at: 0), .object(object))
                do {
                    let reader = try RecordReader(record: tape)
                    XCTAssertNil(firstRepeated(members), "\(members.map(\.key))")
                    for name in names {
                        XCTAssertEqual(reader.value(name), firstValue(members, name), "\(name) in \(members)")
                    }
                } catch let error as FieldError {
                    XCTAssertEqual(error.rule, "repeated field")
                    let repeated = try XCTUnwrap(firstRepeated(members))
                    XCTAssertEqual(error.field, repeated.isEmpty ? "\"\"" : repeated)
                }
            }
        }
    }

    func testTheTapeMakesBackTheValueAndTheTextItRead() throws {
        var generator = SplitMix64(seed: 7)
        // Lists of strings first: written in one piece when no string needs an escape.
        var values: [JSONValue] = [
            .array([]), .array([.string("Maison"), .string("Trajet")]), .array([.string("é ü 🚗"), .string("")]),
            .array([.string("a\"b"), .string("c")]), .array([.string("tab\t")]), .array([.string("x"), .integer(1)]),
        ]
        for _ in 0..<500 { values.append(randomValue(&generator)) }
        var read: [JSONValue] = []
        try eachRecordOnTape("[" + values.map(\.jsonText).joined(separator: ",\n") + "]") { tape in
            let value = tape.value(at: 0)
            read.append(value)
            XCTAssertEqual(tape.jsonText(at: 0), value.jsonText)
            XCTAssertEqual(JSONTape(value).jsonText(at: 0), value.jsonText)
            XCTAssertEqual(JSONTape(value).value(at: 0), value)
        }
        XCTAssertEqual(read, values)
        XCTAssertEqual(JSONTape(values[1]).jsonText(at: 0), #"["Maison","Trajet"]"#)
        XCTAssertEqual(JSONTape(values[3]).jsonText(at: 0), #"["a\"b","c"]"#)
    }

    /// One huge record does not keep its memory for the rest of the file: the next record gives
    /// the tape's storage back.
    func testTheTapeGivesBackWhatAHugeRecordTook() throws {
        let huge = "[" + Array(repeating: "\"value-long\"", count: 200_000).joined(separator: ",") + "]"
        let reader = JSONRecordReader(
            source: MemoryByteSource(Array("[\(huge), {\"id\":1}]".utf8)), jsonLines: false)
        let first = try XCTUnwrap(reader.nextOnTape())
        let tape = try first.tape.get()
        XCTAssertEqual(tape.itemCount(at: 0), 200_000)
        XCTAssertGreaterThan(tape.storage.entryCapacity, 200_000)
        XCTAssertGreaterThan(tape.storage.byteCapacity, 2_000_000)
        let second = try XCTUnwrap(reader.nextOnTape())
        XCTAssertTrue(try second.tape.get() === tape)
        XCTAssertEqual(tape.value(at: 0), jsonObject(("id", .integer(1))))
        XCTAssertEqual(tape.storage.entryCapacity, JSONTape.Storage.initialEntries)
        XCTAssertEqual(tape.storage.byteCapacity, JSONTape.Storage.initialBytes)
    }

    /// Items and their elements keep the tape of a record built in memory alive after the reader
    /// they came from is gone, and read lists in place.
    func testItemsOfARecordBuiltInMemoryKeepItsTape() throws {
        let items = try RecordReader(
            JSONObject(members: [
                .init(key: "list", value: .array([.string("a"), .array([.integer(1), .number(2.5, literal: "2.5")])]))
            ])
        ).items("list")
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0].value, .string("a"))
        XCTAssertNil(items[0].elements)
        XCTAssertNil(items[0].finiteNumber)
        let inner = try XCTUnwrap(items[1].elements)
        XCTAssertEqual(inner.count, 2)
        XCTAssertEqual(inner.map(\.finiteNumber), [1, 2.5])
    }

    func testNamesOfOneLengthAreStillTold() throws {
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

    /// Names are compared with word loads that overlap: every length from 0 to 40, and a
    /// difference at every position of it, must be told apart, and equal bytes found equal.
    func testNameBytesAreComparedAtEveryPosition() {
        for count in 0...40 {
            let name = (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            let same = name
            name.withUnsafeBufferPointer { a in
                same.withUnsafeBufferPointer { b in
                    XCTAssertTrue(JSONTapeView.equalBytes(a.baseAddress!, b.baseAddress!, count), "length \(count)")
                }
            }
            for position in 0..<count {
                var other = name
                other[position] ^= 0x20
                name.withUnsafeBufferPointer { a in
                    other.withUnsafeBufferPointer { b in
                        XCTAssertFalse(
                            JSONTapeView.equalBytes(a.baseAddress!, b.baseAddress!, count),
                            "length \(count), position \(position)")
                    }
                }
            }
        }
        // Through the reader: names of 8 to 16 bytes that differ only in their middle.
        let names = ["createdAt", "created_t", "completedAt", "completedAu", "interior_clean", "interior_cleam"]
        let members = names.enumerated().map { JSONObject.Member(key: $1, value: .integer(Int64($0))) }
        let reader = try? RecordReader(JSONObject(members: Array(members.prefix(5))))
        for (index, name) in names.enumerated().prefix(5) {
            XCTAssertEqual(reader?.value(name), .integer(Int64(index)))
        }
        XCTAssertNil(reader?.value("interior_cleam"))
        XCTAssertNil(reader?.value("createdAu"))
    }

    func testObjectsOfManyMembersAreCheckedWhole() throws {
        let members = (0..<300).map { JSONObject.Member(key: "field\($0)", value: .integer(Int64($0))) }
        let reader = try RecordReader(JSONObject(members: members))
        for position in [0, 15, 16, 17, 254, 255, 256, 299] {
            XCTAssertEqual(reader.value("field\(position)"), .integer(Int64(position)))
        }
        XCTAssertNil(reader.value("field300"))
        let repeated = members + [JSONObject.Member(key: "field7", value: .null)]
        XCTAssertEqual(JSONObject(members: repeated).duplicateKey, "field7")
        XCTAssertThrowsError(try RecordReader(JSONObject(members: repeated))) {
            XCTAssertEqual(($0 as? FieldError)?.description, "field field7: repeated field")
        }
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
