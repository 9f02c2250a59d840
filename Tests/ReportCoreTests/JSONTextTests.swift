import JSON
import XCTest

/// `jsonText` (what the `contexte` column stores) writes the same JSON as the error excerpts do,
/// escapes included, and reads back as the value it came from.
final class JSONTextTests: XCTestCase {
    private let values: [JSONValue] = [
        .array([.string("Fitness"), .string("Maison & jardin")]),
        .array([]),
        .string("quote \" backslash \\ slash / tab \t newline \n return \r"),
        .string("control \u{01}\u{1F} delete \u{7F} é 漢字 🙂 e\u{301}"),
        .object(JSONObject(members: [.init(key: "k\"ey", value: .array([.null, .bool(true), .bool(false)]))])),
        .array([.integer(-42), .number(1.5, literal: "1.50"), .number(.infinity, literal: "1e999")]),
    ]

    func testSameTextAsTheExcerptWithoutALimit() {
        for value in values {
            XCTAssertEqual(value.jsonText, value.excerpt(limit: .max), "\(value)")
        }
    }

    func testEscapesAsJSONRequires() {
        XCTAssertEqual(JSONValue.array([.string("a\"b"), .string("c\\d")]).jsonText, #"["a\"b","c\\d"]"#)
        XCTAssertEqual(JSONValue.string("\u{01}\t\u{7F}").jsonText, #""\u0001\t\u007f""#)
        XCTAssertEqual(JSONValue.array([.string("Fitness"), .string("é")]).jsonText, #"["Fitness","é"]"#)
    }

    func testReadsBackAsTheSameValue() {
        for value in values where value != values[5] {
            let outcome = readJSON("[" + value.jsonText + "]")
            XCTAssertEqual(outcome.values, [value], value.jsonText)
        }
    }
}
