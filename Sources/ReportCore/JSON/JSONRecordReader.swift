/// Reads the records of an export file one at a time, with a fixed buffer, whatever the file's size.
///
/// The layout (SPEC §1) is JSON Lines when the caller says so (a `.jsonl` / `.ndjson` name);
/// otherwise it is decided by content after an optional UTF-8 byte order mark and whitespace:
/// - `[` starts an **array**: each element is one record (any JSON value; the importer rejects
///   non-objects). Anything but whitespace after the closing `]` is an error.
/// - `{` starts a **wrapper**: scalar members around exactly one array whose elements are the
///   records. Records are yielded as they are parsed, before the object's end is seen. When the
///   object turns out not to be a wrapper (a second array, an object member, an element that is
///   not an object, no array at all, text after the object), `next()` throws `NotAWrapper`: the
///   caller discards the records it got and reads the file again with `jsonLines: true`, so
///   `{"id":1}\n{"id":2}` is read as two JSON Lines records. A syntax error met before that is
///   known is fatal, like any syntax error of an array or a wrapper.
/// - An empty or whitespace-only file is a valid file with zero records; its layout is `.jsonLines`.
/// - Anything else is a syntax error.
///
/// In **JSON Lines**, each line (ended by `\n` or `\r\n`) holds one value; blank lines are skipped
/// but counted. A line that is not valid JSON (syntax, UTF-8, depth, length) is one record whose
/// value is `.failure`, and reading goes on after the next newline, found without keeping the line.
///
/// Errors: `next()` throws `JSONSyntaxError` for malformed arrays and wrappers, `NotAWrapper` as
/// above, and `JSONReadError` (or the source's own error) when reading fails. After throwing, it
/// throws the same error again.
///
/// Not Sendable: it owns a buffer and a file position; use one reader per file and task.
public final class JSONRecordReader {
    /// The file's layout, known after the first `next()`. Nil again after `NotAWrapper`.
    public private(set) var layout: JSONLayout?
    /// Scalar members of a wrapper object, in file order: those before the array are known when
    /// the first record arrives, those after it once `next()` has returned nil.
    public private(set) var wrapperScalars: [JSONObject.Member] = []
    /// Bytes of the file read so far, for a progress line.
    public var bytesConsumed: Int { scanner.offset }

    private enum State {
        case start
        case jsonLines
        case arrayElements(first: Bool, inWrapper: Bool)
        case wrapperMembers(first: Bool, recordsSeen: Bool)
        case trailing(afterWrapper: Bool)
        case finished
        case failed(any Error)
    }

    private var scanner: JSONScanner
    private let buffer: UnsafeMutablePointer<UInt8>
    private let jsonLines: Bool
    private var state = State.start
    private var recordCount = 0
    /// JSON Lines: the 1-based line of the next unread byte.
    private var line = 1

    /// - Parameters:
    ///   - jsonLines: read one value per line instead of deciding the layout by content.
    ///   - maxDepth: how many arrays and objects may nest inside one record (the record included).
    ///   - maxStringBytes: the longest string (and number literal) accepted, in UTF-8 bytes.
    ///   - maxRecordBytes: the longest record accepted, so that one huge line or element cannot
    ///     exhaust memory as a tree.
    ///   - bufferSize: the fixed read buffer (tests use tiny ones to split every token).
    public init(source: ByteSource, jsonLines: Bool, maxDepth: Int = 512, maxStringBytes: Int = 16 << 20,
                maxRecordBytes: Int = 64 << 20, bufferSize: Int = 64 << 10) {
        let capacity = max(1, bufferSize)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        scanner = JSONScanner(source: source, bytes: buffer, capacity: capacity, maxDepth: max(0, maxDepth),
                              maxStringBytes: max(0, maxStringBytes), maxRecordBytes: max(0, maxRecordBytes))
        self.jsonLines = jsonLines
    }

    deinit { buffer.deallocate() }

    /// The next record, or nil at the end of the file.
    public func next() throws -> JSONRecord? {
        if case .failed(let error) = state { throw error }
        do {
            return try step()
        } catch {
            if error is NotAWrapper { layout = nil }
            state = .failed(error)
            throw error
        }
    }

    private func step() throws -> JSONRecord? {
        while true {
            switch state {
            case .start:
                if jsonLines {
                    layout = .jsonLines
                    scanner.lineMode = true
                    state = .jsonLines
                    if let badStart = try skipByteOrderMarkOfLines() { return badStart }
                    continue
                }
                try skipByteOrderMark()
                guard let byte = try scanner.significantByte() else {
                    layout = .jsonLines
                    state = .finished
                    return nil
                }
                if byte == UInt8(ascii: "[") {
                    scanner.position += 1
                    layout = .array
                    state = .arrayElements(first: true, inWrapper: false)
                } else if byte == UInt8(ascii: "{") {
                    scanner.position += 1
                    state = .wrapperMembers(first: true, recordsSeen: false)
                } else {
                    throw try scanner.unexpectedCharacter()
                }
            case .jsonLines:
                return try nextLine()
            case .arrayElements(let first, let inWrapper):
                guard let byte = try scanner.significantByte() else { throw try scanner.endOfInput() }
                if byte == UInt8(ascii: "]") {
                    scanner.position += 1
                    state = inWrapper ? .wrapperMembers(first: false, recordsSeen: true) : .trailing(afterWrapper: false)
                    continue
                }
                if !first {
                    guard byte == UInt8(ascii: ",") else { throw try scanner.unexpectedCharacter() }
                    scanner.position += 1
                }
                return try nextElement(inWrapper: inWrapper)
            case .wrapperMembers(let first, let recordsSeen):
                try readWrapperMember(first: first, recordsSeen: recordsSeen)
            case .trailing(let afterWrapper):
                if try scanner.significantByte() != nil {
                    if afterWrapper { throw NotAWrapper(reason: "text after the object", byteOffset: scanner.offset) }
                    throw try scanner.unexpectedCharacter()
                }
                state = .finished
                return nil
            case .finished:
                return nil
            case .failed(let error):
                throw error
            }
        }
    }

    /// One element of the records array, whose separator has been consumed.
    private func nextElement(inWrapper: Bool) throws -> JSONRecord {
        guard let byte = try scanner.significantByte() else { throw try scanner.endOfInput() }
        if inWrapper && byte != UInt8(ascii: "{") && JSONRecordReader.startsValue(byte) {
            throw NotAWrapper(reason: "an element of the array is not an object", byteOffset: scanner.offset)
        }
        let recordStart = scanner.offset
        let value = try scanner.parseValue(recordStart: recordStart)
        state = .arrayElements(first: false, inWrapper: inWrapper)
        recordCount += 1
        return JSONRecord(index: recordCount, line: nil, byteOffset: recordStart, value: .success(value))
    }

    /// One member of a top-level object (or its end), deciding whether it is a wrapper.
    private func readWrapperMember(first: Bool, recordsSeen: Bool) throws {
        guard let byte = try scanner.significantByte() else { throw try scanner.endOfInput() }
        if byte == UInt8(ascii: "}") {
            if !recordsSeen { throw NotAWrapper(reason: "no array in the object", byteOffset: scanner.offset) }
            scanner.position += 1
            state = .trailing(afterWrapper: true)
            return
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw try scanner.unexpectedCharacter() }
            scanner.position += 1
        }
        let key = try scanner.parseKey()
        guard let valueByte = try scanner.significantByte() else { throw try scanner.endOfInput() }
        switch valueByte {
        case UInt8(ascii: "["):
            if recordsSeen { throw NotAWrapper(reason: "a second array", byteOffset: scanner.offset) }
            scanner.position += 1
            layout = .wrapper(key: key)
            state = .arrayElements(first: true, inWrapper: true)
        case UInt8(ascii: "{"):
            throw NotAWrapper(reason: "an object member", byteOffset: scanner.offset)
        default:
            let value = try scanner.parseValue(recordStart: scanner.offset)
            wrapperScalars.append(JSONObject.Member(key: key, value: value))
            state = .wrapperMembers(first: false, recordsSeen: recordsSeen)
        }
    }

    /// Whether `byte` can start a JSON value (so that a wrong element is "not a wrapper" rather
    /// than a syntax error).
    private static func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"), 0x22, UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }

    // MARK: JSON Lines

    /// The record on the next non-blank line.
    private func nextLine() throws -> JSONRecord? {
        while true {
            guard try scanner.significantByte() != nil else {
                if try scanner.peek() == 0x0A {
                    scanner.position += 1
                    line += 1
                    continue
                }
                state = .finished
                return nil
            }
            recordCount += 1
            let recordLine = line
            let recordStart = scanner.offset
            do {
                let value = try scanner.parseValue(recordStart: recordStart)
                if try scanner.significantByte() != nil { throw try scanner.unexpectedCharacter() }
                if try scanner.peek() == 0x0A {
                    scanner.position += 1
                    line += 1
                }
                return JSONRecord(index: recordCount, line: recordLine, byteOffset: recordStart, value: .success(value))
            } catch let syntaxError as JSONSyntaxError {
                return try rejectLine(syntaxError, line: recordLine, start: recordStart)
            }
        }
    }

    /// The bad line as one failed record, and the reader moved to the start of the next line.
    private func rejectLine(_ syntaxError: JSONSyntaxError, line recordLine: Int, start: Int) throws -> JSONRecord {
        if try scanner.skipLine() { line += 1 }
        return JSONRecord(index: recordCount, line: recordLine, byteOffset: start,
                          value: .failure(syntaxError.onLine(recordLine)))
    }

    // MARK: Byte order mark

    /// Skips a leading U+FEFF encoded in UTF-8. Any other character starting with its first byte
    /// is an error (no JSON text starts with a non-ASCII character).
    private func skipByteOrderMark() throws {
        guard try scanner.peek() == 0xEF else { return }
        let at = scanner.offset
        let scalar = try scanner.decodeScalarSlowly()
        if scalar != "\u{FEFF}" {
            throw JSONSyntaxError(message: "unexpected character \(JSONScanner.describe(scalar))", byteOffset: at)
        }
    }

    /// The same for JSON Lines, where a bad start is a bad first line rather than a fatal error.
    private func skipByteOrderMarkOfLines() throws -> JSONRecord? {
        do {
            try skipByteOrderMark()
            return nil
        } catch let syntaxError as JSONSyntaxError {
            recordCount += 1
            return try rejectLine(syntaxError, line: 1, start: 0)
        }
    }
}
