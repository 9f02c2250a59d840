/// One whole JSON value (a record) as a tree, with an explicit stack of open containers: a
/// 100,000-deep file ends with a clean error at `maxDepth`, never a stack overflow.
extension JSONScanner {
    /// Reads the value starting at the next significant byte. `recordStart` is the offset of the
    /// record's first byte, for the record size limit. Depth counts the record's own containers:
    /// a record `{}` has depth 1, and opening container number `maxDepth + 1` is an error.
    mutating func parseValue(recordStart: Int) throws -> JSONValue {
        openArrays.removeAll(keepingCapacity: true)
        openObjects.removeAll(keepingCapacity: true)
        openKinds.removeAll(keepingCapacity: true)
        var depth = 0
        var inObject = false
        var items: [JSONValue] = []
        var members: [JSONObject.Member] = []
        var key = ""
        var value: JSONValue

        nextValue: while true {
            guard let byte = try significantByte() else { throw try endOfInput() }
            if offset - recordStart > maxRecordBytes {
                throw error("record longer than \(maxRecordBytes) bytes", at: recordStart)
            }
            switch byte {
            case 0x22:
                value = .string(try parseString())
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                if depth >= maxDepth { throw error("nesting deeper than \(maxDepth)", at: offset) }
                position += 1
                guard let inside = try significantByte() else { throw try endOfInput() }
                if inside == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                    break
                }
                if depth > 0 {
                    openKinds.append(inObject)
                    if inObject {
                        openObjects.append((members, key))
                    } else {
                        openArrays.append(items)
                    }
                }
                depth += 1
                inObject = isObject
                // Records are small objects: room for a typical one at once, not 1, 2, 4, 8… .
                if isObject {
                    members = []
                    members.reserveCapacity(12)
                    key = try parseKey(position: depth == 1 ? 0 : -1)
                } else {
                    items = []
                    items.reserveCapacity(4)
                }
                continue nextValue
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                value = try parseLiteral(byte)
            default:
                throw try unexpectedCharacter()
            }

            // A value is complete: store it in its container, then close containers that end here.
            while true {
                if depth == 0 { return value }
                if inObject {
                    members.append(JSONObject.Member(key: key, value: value))
                } else {
                    items.append(value)
                }
                guard let delimiter = try significantByte() else { throw try endOfInput() }
                if delimiter == UInt8(ascii: ",") {
                    position += 1
                    if inObject { key = try parseKey(position: depth == 1 ? members.count : -1) }
                    continue nextValue
                }
                guard delimiter == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw try unexpectedCharacter()
                }
                position += 1
                value = inObject ? .object(JSONObject(members: members)) : .array(items)
                depth -= 1
                if depth > 0 {
                    // Moved back out of the stacks, so that appending does not copy them.
                    inObject = openKinds.removeLast()
                    if inObject {
                        (members, key) = openObjects.removeLast()
                    } else {
                        items = openArrays.removeLast()
                    }
                }
            }
        }
    }

    /// A member name and its colon. `position` is the member's place in a record (its top-level
    /// object), whose name is likely the one the record before had there; -1 elsewhere.
    mutating func parseKey(position memberPosition: Int = -1) throws -> String {
        guard let quote = try significantByte() else { throw try endOfInput() }
        guard quote == 0x22 else { throw try unexpectedCharacter() }
        let key: String
        if memberPosition >= 0,
            let (name, count) = names.match(memberPosition, at: bytes + position + 1, available: limit - position - 1)
        {
            position += count + 2
            key = name
        } else {
            key = try parseString()
            if memberPosition >= 0 { names.remember(memberPosition, key) }
        }
        guard let colon = try significantByte() else { throw try endOfInput() }
        guard colon == UInt8(ascii: ":") else { throw try unexpectedCharacter() }
        position += 1
        return key
    }
}
