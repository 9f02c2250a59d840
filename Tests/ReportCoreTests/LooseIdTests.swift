import Import
import JSON
import XCTest

/// The id a rejection names (`record 17 (id 1042)`) is at most 60 characters, whatever its JSON
/// type: the fuzzer found an 84-digit integer id shown whole.
final class LooseIdTests: XCTestCase {
    private struct NotARecord: Error {}

    private func record(_ json: String) throws -> JSONValue {
        let reader = JSONRecordReader(source: MemoryByteSource(Array(json.utf8)), jsonLines: true)
        guard let record = try reader.next(), case .success(let value) = record.value else {
            throw NotARecord()  // fails the test: the fixtures are valid JSON objects
        }
        return value
    }

    /// Integer ids are kept as their decimal text (`1042` and `"1042"` are one id), at every
    /// number of digits, both signs and both ends of Int64.
    func testIntegerIdsKeepTheirDecimalText() throws {
        var values: [Int64] = [0, 1, -1, 9, -9, Int64.max, Int64.min, Int64.min + 1, Int64.max - 1]
        var power: Int64 = 1
        for _ in 1...18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        var generator = SystemRandomNumberGenerator()
        values += (0..<2_000).map { _ in
            Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...62)
        }
        for value in values {
            let reader = try RecordReader(JSONObject(members: [.init(key: "id", value: .integer(value))]))
            XCTAssertEqual(try reader.id("id"), String(value))
            XCTAssertEqual(try reader.optionalId("id"), String(value))
        }
    }

    func testEveryIdIsCutAtSixtyCharacters() throws {
        let digits = String(repeating: "3", count: 84)
        let longInteger = try XCTUnwrap(RecordReader.looseId(record(#"{"id": \#(digits)}"#)))
        XCTAssertEqual(longInteger, String(repeating: "3", count: 59) + "…")
        let longText = try XCTUnwrap(RecordReader.looseId(record(#"{"id": "\#(digits)"}"#)))
        XCTAssertEqual(longText, longInteger)
        XCTAssertEqual(RecordReader.looseId(try record(#"{"id": 12345678901234567890}"#)), "12345678901234567890")
        XCTAssertEqual(RecordReader.looseId(try record(#"{"id": 1042}"#)), "1042")
        XCTAssertNil(RecordReader.looseId(try record(#"{"id": 1.5}"#)))
    }
}
