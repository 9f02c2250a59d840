import XCTest
import JSON
@testable import JSON

/// Everything a reader produced for one input: its records, how it stopped, and what it learned.
struct JSONReadOutcome: Equatable {
    enum Ending: Equatable {
        case end
        case syntax(JSONSyntaxError)
        case notAWrapper
        case layout(JSONLayoutError)
        case other(String)
    }

    var records: [JSONRecord] = []
    var ending: Ending = .end
    var layout: JSONLayout?
    var wrapperMetadata: [JSONObject.Member] = []
    /// Why the reader said the object is not a wrapper, when it did.
    var notAWrapper: NotAWrapper?
    var emptiness: JSONEmptiness?
    var bytesConsumed = 0

    var values: [JSONValue] {
        records.compactMap { try? $0.value.get() }
    }
}

/// Buffer sizes that split every token of the corpus in every possible place, plus the real one.
let jsonTestBufferSizes = [1, 2, 3, 7, 64, 64 << 10]

enum JSONTestInput {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

/// Reads `input` to its end with one buffer size.
func readJSON(
    _ input: [UInt8], jsonLines: Bool = false, bufferSize: Int, maxDepth: Int = 512,
    maxStringBytes: Int = 16 << 20, maxRecordBytes: Int = 64 << 20
) -> JSONReadOutcome {
    let reader = JSONRecordReader(
        source: MemoryByteSource(input), jsonLines: jsonLines, maxDepth: maxDepth,
        maxStringBytes: maxStringBytes, maxRecordBytes: maxRecordBytes,
        bufferSize: bufferSize)
    var outcome = JSONReadOutcome()
    do {
        while let record = try reader.next() { outcome.records.append(record) }
    } catch let error as JSONSyntaxError {
        outcome.ending = .syntax(error)
    } catch let notAWrapper as NotAWrapper {
        outcome.ending = .notAWrapper
        outcome.notAWrapper = notAWrapper
    } catch let layoutError as JSONLayoutError {
        outcome.ending = .layout(layoutError)
    } catch {
        outcome.ending = .other(String(describing: error))
    }
    outcome.layout = reader.layout
    outcome.wrapperMetadata = reader.wrapperMetadata
    outcome.emptiness = reader.emptiness
    outcome.bytesConsumed = reader.bytesConsumed
    return outcome
}

/// Reads `input` with every test buffer size, asserts that they all agree, and returns the outcome.
func readJSONWithEveryBuffer(
    _ input: [UInt8], jsonLines: Bool = false, maxDepth: Int = 512,
    maxStringBytes: Int = 16 << 20, maxRecordBytes: Int = 64 << 20,
    file: StaticString = #filePath, line: UInt = #line
) -> JSONReadOutcome {
    let reference = readJSON(
        input, jsonLines: jsonLines, bufferSize: 64 << 10, maxDepth: maxDepth,
        maxStringBytes: maxStringBytes, maxRecordBytes: maxRecordBytes)
    for size in jsonTestBufferSizes.dropLast() {
        let outcome = readJSON(
            input, jsonLines: jsonLines, bufferSize: size, maxDepth: maxDepth,
            maxStringBytes: maxStringBytes, maxRecordBytes: maxRecordBytes)
        var comparable = outcome
        var comparableReference = reference
        // How far the reader got before an error depends on how much it had buffered.
        if reference.ending != .end {
            comparable.bytesConsumed = 0
            comparableReference.bytesConsumed = 0
        }
        XCTAssertEqual(comparable, comparableReference, "buffer size \(size)", file: file, line: line)
    }
    return reference
}

func readJSON(
    _ text: String, jsonLines: Bool = false, maxDepth: Int = 512, maxStringBytes: Int = 16 << 20,
    maxRecordBytes: Int = 64 << 20, file: StaticString = #filePath, line: UInt = #line
) -> JSONReadOutcome {
    readJSONWithEveryBuffer(
        Array(text.utf8), jsonLines: jsonLines, maxDepth: maxDepth,
        maxStringBytes: maxStringBytes, maxRecordBytes: maxRecordBytes, file: file, line: line)
}

/// An object value with members in the given order.
func jsonObject(_ members: (String, JSONValue)...) -> JSONValue {
    .object(JSONObject(members: members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
}

func jsonNumber(_ literal: String) -> JSONValue {
    .number(Double(literal) ?? .nan, literal: literal)
}

/// Asserts that reading `input` fails with exactly this message at exactly this offset.
func assertSyntaxError(
    _ input: [UInt8], _ message: String, at byteOffset: Int, jsonLines: Bool = false,
    maxDepth: Int = 512, maxStringBytes: Int = 16 << 20, maxRecordBytes: Int = 64 << 20,
    file: StaticString = #filePath, line: UInt = #line
) {
    let outcome = readJSONWithEveryBuffer(
        input, jsonLines: jsonLines, maxDepth: maxDepth, maxStringBytes: maxStringBytes,
        maxRecordBytes: maxRecordBytes, file: file, line: line)
    XCTAssertEqual(
        outcome.ending, .syntax(JSONSyntaxError(message: message, byteOffset: byteOffset)),
        file: file, line: line)
}

func assertSyntaxError(
    _ text: String, _ message: String, at byteOffset: Int, maxDepth: Int = 512,
    maxStringBytes: Int = 16 << 20, maxRecordBytes: Int = 64 << 20,
    file: StaticString = #filePath, line: UInt = #line
) {
    assertSyntaxError(
        Array(text.utf8), message, at: byteOffset, maxDepth: maxDepth, maxStringBytes: maxStringBytes,
        maxRecordBytes: maxRecordBytes, file: file, line: line)
}
