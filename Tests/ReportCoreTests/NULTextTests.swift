import JSON
import XCTest

@testable import Import

/// A record with a NUL in any string, where text cannot hold one (PostgreSQL): rejected before
/// validation, its field named by its path at any depth (a value or a member's name), the NUL
/// written `\u0000` in the value and in the record's id; every other record as before.
final class NULTextTests: XCTestCase {
    private let records = [
        #"{"id": "r1", "a": {"b": [1, {"c": "x\u0000"}]}}"#,
        #"{"id": "r2", "k\u0000": 1}"#,
        #"{"id": "r3", "n": "plain"}"#,
        #"{"x": ["ok", "y\u0000z"], "id": "r\u00004"}"#,
        #"{"id": "r5", "list": [[["deep\u0000"]]]}"#,
    ]

    private func outcomes(refusesNUL: Bool) throws -> [String] {
        let reader = JSONRecordReader(
            source: MemoryByteSource(Array((records.joined(separator: "\n") + "\n").utf8)), jsonLines: true)
        let pipeline = RecordPipeline(
            reader: reader,
            validate: { (record: RecordReader) throws(FieldError) in ValidatedRecord(try record.id("id")) },
            refusesNUL: refusesNUL)
        var outcomes: [String] = []
        while let item = try pipeline.next() {
            switch item.result {
            case .success(let record):
                let id = (record.box as? ValidatedBox<String>)?.value ?? "?"
                outcomes.append("\(item.index): stored " + id.replacingOccurrences(of: "\u{0}", with: "<NUL>"))
            case .failure(let rejection):
                outcomes.append(
                    "\(item.index): \(rejection.recordId ?? "-") | \(rejection.field) | \(rejection.value) | "
                        + rejection.rule)
            }
        }
        return outcomes
    }

    func testARecordWithANULAnywhereIsRejectedByItsPath() throws {
        let rule = "holds U+0000 (NUL), which PostgreSQL text cannot store"
        XCTAssertEqual(
            try outcomes(refusesNUL: true),
            [
                #"1: r1 | a.b[1].c | "x\u0000" | "# + rule,
                #"2: r2 | k\u0000 |  | "# + rule,
                "3: stored r3",
                #"4: r\u00004 | x[1] | "y\u0000z" | "# + rule,
                #"5: r5 | list[0][0][0] | "deep\u0000" | "# + rule,
            ])
        XCTAssertFalse(try outcomes(refusesNUL: true).joined().utf8.contains(0), "no NUL reaches a message")
    }

    func testWithoutTheRuleEveryRecordIsValidatedAsBefore() throws {
        XCTAssertEqual(
            try outcomes(refusesNUL: false),
            ["1: stored r1", "2: stored r2", "3: stored r3", "4: stored r<NUL>4", "5: stored r5"])
    }

    func testEscapedWritesEachNULOut() {
        XCTAssertEqual(NULText.escaped("a\u{0}b\u{0}"), #"a\u0000b\u0000"#)
        XCTAssertEqual(NULText.escaped("plain é"), "plain é")
    }
}
