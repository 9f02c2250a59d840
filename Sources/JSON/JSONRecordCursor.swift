/// The layout state machine behind `JSONRecordReader`: a struct, so that one exclusive access to
/// the reader's stored cursor covers a whole `next()` instead of one per scanner call.
struct JSONRecordCursor {
    var layout: JSONLayout?
    /// The members of a wrapper other than its records: scalars and objects, in file order.
    var wrapperMetadata: [JSONObject.Member] = []
    /// Set when the file ended without a record or any JSON value.
    var emptiness: JSONEmptiness?
    var scanner: JSONScanner
    /// The file's first bytes, to tell UTF-16 and UTF-32 from UTF-8.
    let leadingBytes: LeadingBytesSource?

    enum State {
        case start
        case jsonLines
        case arrayElements(first: Bool, inWrapper: Bool)
        case wrapperMembers(first: Bool, recordsSeen: Bool)
        case trailing(afterWrapper: Bool)
        case finished
        case failed(any Error)
    }

    let jsonLines: Bool
    var state = State.start
    /// The tape the record being read is appended to (`next(onto:)`), nil for the scanner's own.
    private var batch: JSONTape?
    private var recordCount = 0
    /// JSON Lines: the 1-based line of the next unread byte.
    private var line = 1
    /// Whether a UTF-8 byte order mark was skipped (for `emptiness`).
    var skippedByteOrderMark = false
    /// The first member of the top-level object that is itself an object, for the reason given
    /// when no member is an array of records.
    private var firstObjectMember: String?

    init(scanner: JSONScanner, jsonLines: Bool, leadingBytes: LeadingBytesSource? = nil) {
        self.scanner = scanner
        self.jsonLines = jsonLines
        self.leadingBytes = leadingBytes
    }

    /// The next record, or nil at the end of the file; after an error, that error again. With
    /// `batch`, the record is appended to that tape, else it is read onto the scanner's own.
    mutating func next(onto batch: JSONTape?) throws -> JSONTapeRecord? {
        if case .failed(let error) = state { throw error }
        self.batch = batch
        do {
            return try step()
        } catch {
            if error is NotAWrapper { layout = nil }
            state = .failed(error)
            throw error
        }
    }

    private mutating func step() throws -> JSONTapeRecord? {
        while true {
            switch state {
            case .start:
                if jsonLines {
                    layout = .jsonLines
                    try refuseForeignEncoding()
                    scanner.lineMode = true
                    state = .jsonLines
                    if let badStart = try skipByteOrderMarkOfLines() { return badStart }
                    continue
                }
                try refuseForeignEncoding()
                try skipByteOrderMark()
                guard let byte = try scanner.significantByte() else {
                    layout = .jsonLines
                    noteEmptiness()
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
                    throw try notRecords(startingWith: byte)
                }
            case .jsonLines:
                return try nextLine()
            case .arrayElements(let first, let inWrapper):
                guard let byte = try scanner.significantByte() else { throw try scanner.endOfInput() }
                if byte == UInt8(ascii: "]") {
                    scanner.position += 1
                    state =
                        inWrapper ? .wrapperMembers(first: false, recordsSeen: true) : .trailing(afterWrapper: false)
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
                if afterWrapper {
                    try checkTextAfterTheObject()
                } else if try scanner.significantByte() != nil {
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
    private mutating func nextElement(inWrapper: Bool) throws -> JSONTapeRecord {
        guard let byte = try scanner.significantByte() else { throw try scanner.endOfInput() }
        if inWrapper && byte != UInt8(ascii: "{"), let kind = JSONRecordCursor.kindOfValue(startingWith: byte) {
            throw NotAWrapper(
                reason:
                    "element \(recordCount + 1) of member \(JSONRecordCursor.quoted(layout?.recordsMember ?? "")) is "
                    + "\(kind), not an object",
                byteOffset: scanner.offset)
        }
        let recordStart = scanner.offset
        let tape = batch ?? scanner.recordTape
        let root = try scanner.parseRecord(recordStart: recordStart, into: tape, appending: batch != nil)
        state = .arrayElements(first: false, inWrapper: inWrapper)
        recordCount += 1
        return JSONTapeRecord(index: recordCount, line: nil, byteOffset: recordStart, tape: .success(tape), root: root)
    }

    /// One member of a top-level object (or its end), deciding whether it is a wrapper: one array
    /// of objects (the records) beside members that are scalars or objects (metadata, kept).
    private mutating func readWrapperMember(first: Bool, recordsSeen: Bool) throws {
        guard let byte = try scanner.significantByte() else { throw try scanner.endOfInput() }
        if byte == UInt8(ascii: "}") {
            if !recordsSeen {
                let reason =
                    firstObjectMember.map {
                        "member \(JSONRecordCursor.quoted($0)) is an object, and no member is an array of records"
                    }
                    ?? "no member is an array of records"
                throw NotAWrapper(reason: reason, byteOffset: scanner.offset)
            }
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
        if valueByte == UInt8(ascii: "[") {
            if let recordsMember = layout?.recordsMember {
                throw NotAWrapper(
                    reason:
                        "members \(JSONRecordCursor.quoted(recordsMember)) and \(JSONRecordCursor.quoted(key)) are "
                        + "both arrays",
                    byteOffset: scanner.offset)
            }
            scanner.position += 1
            layout = .wrapper(key: key)
            state = .arrayElements(first: true, inWrapper: true)
            return
        }
        if valueByte == UInt8(ascii: "{") && firstObjectMember == nil { firstObjectMember = key }
        let value = try scanner.parseValue(recordStart: scanner.offset)
        wrapperMetadata.append(JSONObject.Member(key: key, value: value))
        state = .wrapperMembers(first: false, recordsSeen: recordsSeen)
    }

    /// What may follow a wrapper: whitespace, or (JSON Lines in a `.json` file, for the caller to
    /// confirm) another object at the start of a later line. Anything else is a syntax error.
    private mutating func checkTextAfterTheObject() throws {
        scanner.lineMode = true
        defer { scanner.lineMode = false }
        var afterNewline = false
        while true {
            if let byte = try scanner.significantByte() {
                if afterNewline && byte == UInt8(ascii: "{") {
                    throw NotAWrapper(
                        reason: "another object follows", byteOffset: scanner.offset, isFollowedByObject: true)
                }
                let unexpected = try scanner.unexpectedCharacter()
                throw JSONSyntaxError(
                    message: unexpected.message + " after the end of the object", byteOffset: unexpected.byteOffset)
            }
            guard try scanner.peek() == 0x0A else { return }
            scanner.position += 1
            afterNewline = true
        }
    }

    /// What kind of JSON value `byte` starts (so that a wrong element is "not a wrapper" rather
    /// than a syntax error), nil when it starts none.
    static func kindOfValue(startingWith byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "{"): return "an object"
        case 0x22: return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return nil
        }
    }

    /// A member name in quotes, as JSON writes it, for messages.
    static func quoted(_ name: String) -> String { JSONValue.string(name).excerpt() }

    // MARK: JSON Lines

    /// The record on the next non-blank line.
    private mutating func nextLine() throws -> JSONTapeRecord? {
        while true {
            guard try scanner.significantByte() != nil else {
                if try scanner.peek() == 0x0A {
                    scanner.position += 1
                    line += 1
                    continue
                }
                if recordCount == 0 { noteEmptiness() }
                state = .finished
                return nil
            }
            recordCount += 1
            let recordLine = line
            let recordStart = scanner.offset
            do {
                let tape = batch ?? scanner.recordTape
                let root = try scanner.parseRecord(recordStart: recordStart, into: tape, appending: batch != nil)
                if try scanner.significantByte() != nil { throw try scanner.unexpectedCharacter() }
                if try scanner.peek() == 0x0A {
                    scanner.position += 1
                    line += 1
                }
                return JSONTapeRecord(
                    index: recordCount, line: recordLine, byteOffset: recordStart, tape: .success(tape), root: root)
            } catch let syntaxError as JSONSyntaxError {
                return try rejectLine(syntaxError, line: recordLine, start: recordStart)
            }
        }
    }

    /// The bad line as one failed record, and the reader moved to the start of the next line.
    private mutating func rejectLine(
        _ syntaxError: JSONSyntaxError, line recordLine: Int, start: Int
    ) throws -> JSONTapeRecord {
        if try scanner.skipLine() { line += 1 }
        return JSONTapeRecord(
            index: recordCount, line: recordLine, byteOffset: start, tape: .failure(syntaxError.onLine(recordLine)))
    }

    // MARK: Byte order mark

    /// Skips a leading U+FEFF encoded in UTF-8. Any other character starting with its first byte
    /// is an error (no JSON text starts with a non-ASCII character).
    private mutating func skipByteOrderMark() throws {
        guard try scanner.peek() == 0xEF else { return }
        let at = scanner.offset
        let scalar = try scanner.decodeScalarSlowly()
        if scalar != "\u{FEFF}" {
            throw JSONSyntaxError(message: "unexpected character \(JSONScanner.describe(scalar))", byteOffset: at)
        }
        skippedByteOrderMark = true
    }

    /// The same for JSON Lines, where a bad start is a bad first line rather than a fatal error.
    private mutating func skipByteOrderMarkOfLines() throws -> JSONTapeRecord? {
        do {
            try skipByteOrderMark()
            return nil
        } catch let syntaxError as JSONSyntaxError {
            recordCount += 1
            return try rejectLine(syntaxError, line: 1, start: 0)
        }
    }
}
