/// One whole JSON value (a record) onto a tape, with an explicit stack of open containers: a
/// 100,000-deep file ends with a clean error at `maxDepth`, never a stack overflow.
extension JSONScanner {
    /// Reads the value starting at the next significant byte as a tree (wrapper metadata, tests;
    /// records go to a tape, `parseRecord`). Same grammar, limits and errors as `parseRecord`.
    mutating func parseValue(recordStart: Int) throws -> JSONValue {
        try parseRecord(recordStart: recordStart, into: treeTape)
        return treeTape.value(at: 0)
    }

    /// Reads the value starting at the next significant byte onto `tape`, emptied first unless
    /// `appending` (a batch of records on one tape); returns the value's entry. After an error
    /// the tape holds what it held before this value (nothing, unless appending).
    @discardableResult
    mutating func parseRecord(recordStart: Int, into tape: JSONTape, appending: Bool = false) throws -> Int {
        // The tape's storage is taken out for the record and put back after (see `JSONTape.Storage`).
        var storage = tape.storage
        defer { tape.storage = storage }
        if !appending { storage.removeAll() }
        let mark = storage.mark
        do {
            try parseRecord(recordStart: recordStart, onto: &storage)
            return mark.entries
        } catch {
            storage.truncate(to: mark)
            throw error
        }
    }

    /// Appends the value starting at the next significant byte to `tape`. `recordStart` is the
    /// offset of the record's first byte, for the record size limit. Depth counts the record's own
    /// containers: a record `{}` has depth 1, and opening container number `maxDepth + 1` is an
    /// error. The stack of open containers is explicit: a 100,000-deep file ends with a clean error
    /// at `maxDepth`, never a stack overflow.
    private mutating func parseRecord(recordStart: Int, onto tape: inout JSONTape.Storage) throws {
        openContainers.removeAll(keepingCapacity: true)
        // The open container (an entry index), -1 at the top level; whether it is an object.
        var container = -1
        var inObject = false
        var name = JSONTape.noName

        nextValue: while true {
            guard let byte = try significantByte() else { throw try endOfInput() }
            if offset - recordStart > maxRecordBytes {
                throw error("record longer than \(maxRecordBytes) bytes", at: recordStart)
            }
            if container >= 0 { tape.countItem(of: container) }
            switch byte {
            case 0x22:
                let text = try parseString(into: &tape)
                _ = tape.append(.string, name: name, start: text.start, count: text.count)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                if openContainers.count + (container >= 0 ? 1 : 0) >= maxDepth {
                    throw error("nesting deeper than \(maxDepth)", at: offset)
                }
                position += 1
                guard let inside = try significantByte() else { throw try endOfInput() }
                let index = tape.append(isObject ? .object : .array, name: name)
                if inside == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    break
                }
                if container >= 0 { openContainers.append(container) }
                container = index
                inObject = isObject
                if isObject { name = try parseName(into: &tape) }
                continue nextValue
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parseNumber(onto: &tape, name: name)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                switch try parseLiteral(byte) {
                case .bool(let flag): _ = tape.append(.bool, flag: flag, name: name)
                default: _ = tape.append(.null, name: name)
                }
            default:
                throw try unexpectedCharacter()
            }

            // A value is complete: close the containers that end here.
            while true {
                if container < 0 { return }
                guard let delimiter = try significantByte() else { throw try endOfInput() }
                if delimiter == UInt8(ascii: ",") {
                    position += 1
                    if inObject { name = try parseName(into: &tape) }
                    continue nextValue
                }
                guard delimiter == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw try unexpectedCharacter()
                }
                position += 1
                tape.close(container)
                guard let outer = openContainers.popLast() else { return }
                container = outer
                inObject = tape.entries[outer].kind == .object
            }
        }
    }

    /// A member name and its colon, the name's bytes appended to `tape`.
    @inline(__always)
    mutating func parseName(into tape: inout JSONTape.Storage) throws -> (start: Int32, count: Int32) {
        try expectNameQuote()
        let name = try parseString(into: &tape)
        try expectColon()
        return name
    }

    /// A member name and its colon (a wrapper's members).
    mutating func parseKey() throws -> String {
        try expectNameQuote()
        let key = try parseString()
        try expectColon()
        return key
    }

    /// The opening quote of a member name, left unconsumed (the string readers start on it).
    @inline(__always)
    private mutating func expectNameQuote() throws {
        guard let quote = try significantByte() else { throw try endOfInput() }
        guard quote == 0x22 else { throw try unexpectedCharacter() }
    }

    /// The colon after a member name, consumed.
    @inline(__always)
    private mutating func expectColon() throws {
        guard let colon = try significantByte() else { throw try endOfInput() }
        guard colon == UInt8(ascii: ":") else { throw try unexpectedCharacter() }
        position += 1
    }
}
