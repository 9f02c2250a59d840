import JSON

#if canImport(Glibc)
import Glibc
#endif

/// Fuzz target `json_reader`: any bytes through `JSONRecordReader`, as an array/wrapper file and
/// as JSON Lines, with a tiny read buffer chosen by the first byte so that every token, escape and
/// multi-byte character gets cut by refills somewhere.
///
/// Invariants (a violation aborts, which libFuzzer reports as a crash):
/// - no trap, no ASan report, no hang: the reader ends with nil or an error;
/// - every offset (a record's, a syntax error's, a not-a-wrapper's) lies within the input;
/// - record indexes are 1, 2, 3…; offsets increase; JSON Lines lines increase, start at 1 and a
///   line's failure names that line;
/// - after an error, `next()` throws the same error again;
/// - the tiny buffer and the default 64 KiB buffer give the very same records and error;
/// - a parsed record written back as JSON (`jsonText`) reads back as the same value;
/// - JSON Lines reading throws only for a UTF-16/UTF-32 file; a file said to be empty has no record;
/// - when `startsWithObjectLines` says a file is JSON Lines, reading it so gives at least two
///   records, the first one a valid object.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bufferSize = Int(data[0] % 32) + 1
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    for jsonLines in [false, true] {
        let small = readAll(input, jsonLines: jsonLines, bufferSize: bufferSize)
        check(small, inputSize: input.count, jsonLines: jsonLines)
        let large = readAll(input, jsonLines: jsonLines, bufferSize: 64 << 10)
        require(small == large, "buffer size \(bufferSize) and 64 KiB disagree (jsonLines \(jsonLines))")
        if !jsonLines && JSONRecordReader.startsWithObjectLines(source: MemoryByteSource(input)) {
            let lines = readAll(input, jsonLines: true, bufferSize: bufferSize)
            guard lines.records.count >= 2, case .success(.object)? = lines.records.first?.value else {
                fail("startsWithObjectLines, but JSON Lines reading gives \(lines.records.count) records")
            }
        }
        for record in small.records {
            guard case .success(let value) = record.value else { continue }
            let again = readAll(Array(value.jsonText.utf8), jsonLines: true, bufferSize: 64 << 10)
            require(
                again.error == nil && again.records.count == 1, "jsonText of record \(record.index) is not one record")
            if case .success(let reread)? = again.records.first?.value {
                require(reread == value, "jsonText of record \(record.index) reads back differently")
            } else {
                fail("jsonText of record \(record.index) is not valid JSON")
            }
        }
    }
    return 0
}

/// Everything one reader yields: its records, then its error (nil when it ended cleanly).
struct Outcome: Equatable {
    var records: [JSONRecord] = []
    var error: String?
    var errorOffset: Int?
    var layout: JSONLayout?
    var emptiness: JSONEmptiness?
}

func readAll(_ input: [UInt8], jsonLines: Bool, bufferSize: Int) -> Outcome {
    let reader = JSONRecordReader(source: MemoryByteSource(input), jsonLines: jsonLines, bufferSize: bufferSize)
    var outcome = Outcome()
    do {
        // Each call consumes at least one byte or ends, so the input's size bounds the loop.
        while let record = try reader.next() {
            outcome.records.append(record)
            require(outcome.records.count <= input.count + 1, "more records than bytes")
        }
        require((try? reader.next()) == nil, "next() after the end returned a record")
    } catch {
        let (message, offset) = describe(error)
        outcome.error = message
        outcome.errorOffset = offset
        do {
            _ = try reader.next()
            fail("next() after an error did not throw")
        } catch let again {
            require(describe(again).message == message, "next() after an error threw another error")
        }
    }
    outcome.layout = reader.layout
    outcome.emptiness = reader.emptiness
    require(reader.bytesConsumed <= input.count, "consumed \(reader.bytesConsumed) bytes of \(input.count)")
    return outcome
}

func describe(_ error: any Error) -> (message: String, offset: Int?) {
    switch error {
    case let syntax as JSONSyntaxError: return ("syntax: \(syntax)", syntax.byteOffset)
    case let notWrapper as NotAWrapper: return ("\(notWrapper)", notWrapper.byteOffset)
    case let layout as JSONLayoutError: return ("layout: \(layout)", layout.byteOffset)
    default: return ("other: \(error)", nil)
    }
}

func check(_ outcome: Outcome, inputSize: Int, jsonLines: Bool) {
    var previousOffset = -1
    var previousLine = 0
    for (position, record) in outcome.records.enumerated() {
        require(record.index == position + 1, "record \(position + 1) has index \(record.index)")
        require(
            record.byteOffset > previousOffset && record.byteOffset < inputSize,
            "record \(record.index) at offset \(record.byteOffset) (previous \(previousOffset), size \(inputSize))")
        previousOffset = record.byteOffset
        if jsonLines {
            guard let line = record.line else { fail("JSON Lines record \(record.index) without a line") }
            require(line > previousLine, "record \(record.index) on line \(line) after line \(previousLine)")
            previousLine = line
            if case .failure(let syntax) = record.value {
                require(
                    syntax.line == line,
                    "record \(record.index) on line \(line) fails on line \(String(describing: syntax.line))")
                require(
                    syntax.byteOffset >= record.byteOffset && syntax.byteOffset <= inputSize,
                    "line \(line) error at \(syntax.byteOffset), record at \(record.byteOffset), size \(inputSize)")
            }
        } else {
            require(record.line == nil, "array record \(record.index) has a line")
            if case .failure = record.value { fail("array record \(record.index) is a failure") }
        }
    }
    if let offset = outcome.errorOffset {
        require(offset >= 0 && offset <= inputSize, "error at offset \(offset) of \(inputSize): \(outcome.error ?? "")")
    }
    if let error = outcome.error {
        require(!error.hasPrefix("other:"), "unexpected error type: \(error)")
        require(!jsonLines || error.hasPrefix("layout: looks like UTF-"), "JSON Lines reading threw: \(error)")
    }
    if outcome.emptiness != nil {
        require(outcome.records.isEmpty && outcome.error == nil, "an empty file with records or an error")
    }
    if jsonLines {
        require(outcome.layout == .jsonLines, "JSON Lines reader reports layout \(String(describing: outcome.layout))")
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    var text = "json_reader invariant broken: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
}
