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
