import JSON
import XCTest

@testable import Import

/// `report check` reads each batch onto a tape of its own: a batch is queued at its count of
/// records or once its tape holds `batchBytes`, and either way every record comes out, in order,
/// validated from the right place on the right tape.
final class RecordPipelineBatchTests: XCTestCase {
    /// Ten records of about 100 KB each, every third with a bad `n`, and one line that is not JSON.
    private func lines() -> [UInt8] {
        let text = (1...10).map { number in
            if number == 5 { return #"{"id": "r5", "n": "# }
            let n = number % 3 == 0 ? "\"x\"" : "\(number)"
            return #"{"id": "r\#(number)", "n": \#(n), "text": "\#(String(repeating: "ab", count: 50_000))"}"#
        }
        return Array((text.joined(separator: "\n") + "\n").utf8)
    }

    private func run(validatesOnReader: Bool, batchBytes: Int) throws -> (outcomes: [String], batches: Int) {
        let reader = JSONRecordReader(source: MemoryByteSource(lines()), jsonLines: true)
        let pipeline = RecordPipeline(
            reader: reader,
            validate: { (record: RecordReader) throws(FieldError) in
                ValidatedRecord(try record.id("id") + "=" + String(try record.integer("n")))
            },
            validatesOnReader: validatesOnReader, batchBytes: batchBytes)
        var outcomes: [String] = []
        while let item = try pipeline.next() {
            switch item.result {
            case .success(let record):
                outcomes.append("\(item.index): " + ((record.box as? ValidatedBox<String>)?.value ?? "?"))
            case .failure(let rejection):
                outcomes.append("\(item.index): \(rejection.recordId ?? "-") \(rejection.field) \(rejection.rule)")
            }
        }
        return (outcomes, pipeline.queuedBatchCount)
    }

    func testBigRecordsSplitABatchAndComeOutAsTheyWouldWhole() throws {
        let whole = try run(validatesOnReader: true, batchBytes: 16 << 20)
        let split = try run(validatesOnReader: false, batchBytes: 150_000)
        let unsplit = try run(validatesOnReader: false, batchBytes: 16 << 20)
        XCTAssertEqual(whole.outcomes.count, 10)
        XCTAssertEqual(whole.outcomes[0], "1: r1=1")
        XCTAssertEqual(whole.outcomes[2], "3: r3 n must be an integer")
        XCTAssertTrue(whole.outcomes[4].hasPrefix("5: - (record) invalid JSON"), whole.outcomes[4])
        XCTAssertEqual(whole.outcomes[9], "10: r10=10")
        XCTAssertEqual(split.outcomes, whole.outcomes)
        XCTAssertEqual(unsplit.outcomes, whole.outcomes)
        // Two records of 100 KB pass 150,000 bytes; the bad line adds nothing to its tape.
        XCTAssertEqual(split.batches, 5)
        XCTAssertEqual(unsplit.batches, 1)
    }
}
