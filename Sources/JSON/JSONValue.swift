/// A JSON value as a tree: what `JSONRecordReader.next()` gives for a record, made from the
/// record's tape (`JSONTape.value(at:)`; the import validates from the tape and makes one only for
/// a message), and what tests build. Numbers keep what validation needs: integers exactly, and
/// the literal text of any other number so that an error can quote it (`1e999`, `4.0`,
/// `12345678901234567890`).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in Int64.
    case integer(Int64)
    /// Any other number: a fraction, an exponent, or an integer too large for Int64.
    /// `value` may be infinite for literals like `1e999`; `literal` is the text as written.
    case number(Double, literal: String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value as JSON text, cut to `limit` characters (for error messages; never the whole record).
    public func excerpt(limit: Int = 60) -> String {
        var text = ""
        JSONValue.render(self, into: &text, limit: limit)
        if text.count > limit { return String(text.prefix(limit - 1)) + "…" }
        return text
    }

    /// The value as compact JSON text, whole (for storing a small list in one column): the same
    /// text `excerpt` starts with, written byte by byte into one buffer (it runs for every task
    /// with contexts, on the import's reader thread).
    public var jsonText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        JSONValue.write(self, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): bytes.append(contentsOf: String(number).utf8)
        case .number(_, let literal): bytes.append(contentsOf: literal.utf8)
        case .string(let string): writeQuoted(string, into: &bytes)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeQuoted(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(member.value, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// `string` as a JSON string literal, escaped as `quoted` escapes it.
    private static func writeQuoted(_ string: String, into bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { writeQuoted(utf8: $0, into: &bytes) }
    }

    /// The same for a string's UTF-8 bytes (a string on a record's tape).
    static func writeQuoted(utf8 string: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: their bytes go in at once.
        if !string.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }) {
            bytes.append(contentsOf: string)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0x0F)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func render(_ value: JSONValue, into text: inout String, limit: Int) {
        if limit != Int.max, text.count > limit { return }
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .integer(let number): text += String(number)
        case .number(_, let literal): text += literal
        case .string(let string): text += quoted(string, limit: limit)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                render(item, into: &text, limit: limit)
                if limit != Int.max, text.count > limit { return }
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { text += "," }
                text += quoted(member.key, limit: limit) + ":"
                render(member.value, into: &text, limit: limit)
                if limit != Int.max, text.count > limit { return }
            }
            text += "}"
        }
    }

    private static func quoted(_ string: String, limit: Int) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(string.utf8.count + 2)
        var characters = 0
        for byte in string.utf8 {
            // Count characters by their first byte, so a cut never splits a UTF-8 sequence.
            if byte & 0xC0 != 0x80 {
                if characters > limit { break }
                characters += 1
            }
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0x0F)],
                ]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A JSON object with its members in file order. Duplicated names are kept (a record that repeats
/// a field is invalid, SPEC §1), so the importer can say which name was repeated.
public struct JSONObject: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(members: [Member] = []) { self.members = members }

    /// The first member with this name (records have few fields: a linear scan is fastest).
    /// Names match byte for byte, as JSON compares them: `é` written precomposed (NFC) and as `e`
    /// with a combining accent (NFD) are two different names, although Swift's `==` calls them equal.
    public subscript(key: String) -> JSONValue? {
        for member in members where JSONObject.sameName(member.key, key) { return member.value }
        return nil
    }

    /// The first name that appears twice, byte for byte, if any.
    public var duplicateKey: String? {
        if members.count <= 16 {
            for i in members.indices.dropFirst() {
                for j in 0..<i where JSONObject.sameName(members[j].key, members[i].key) { return members[i].key }
            }
            return nil
        }
        var seen = Set<[UInt8]>()
        for member in members where !seen.insert(Array(member.key.utf8)).inserted { return member.key }
        return nil
    }

    /// Whether two member names are the same bytes (not merely canonically equivalent): never
    /// Swift's `==`, which calls the NFC and NFD spellings of one word equal. Records are looked
    /// up on their tape (`JSONTapeView.hasName`); this serves trees built in memory.
    public static func sameName(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8)
    }
}
