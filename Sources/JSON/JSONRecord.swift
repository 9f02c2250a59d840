/// How the records of an export file are laid out (SPEC §1).
public enum JSONLayout: Sendable, Equatable {
    /// `[ record, record, … ]`
    case array
    /// `{"exported_at": "…", "<key>": [ record, … ]}`: one array of records among scalar members.
    case wrapper(key: String)
    /// One record per line (`.jsonl`, `.ndjson`, or a `.json` file whose first line is an object and
    /// whose next non-blank line starts another one).
    case jsonLines

    /// The name kept in `import_log.layout`.
    public var name: String {
        switch self {
        case .array: return "array"
        case .wrapper: return "wrapper"
        case .jsonLines: return "json lines"
        }
    }

    /// The wrapper's member that holds the records, nil for other layouts.
    public var recordsMember: String? {
        if case .wrapper(let key) = self { return key }
        return nil
    }
}

/// One record of an export file, with the position an error message needs.
public struct JSONRecord: Sendable, Equatable {
    /// 1-based position of the record in the file (blank JSON Lines lines are not records).
    public let index: Int
    /// 1-based line of the record (JSON Lines only; blank lines count).
    public let line: Int?
    /// Absolute offset of the record's first byte.
    public let byteOffset: Int
    /// The record, or (JSON Lines only) why its line is not valid JSON: one bad line is one
    /// rejected record, and reading goes on with the next line.
    public let value: Result<JSONValue, JSONSyntaxError>

    public init(index: Int, line: Int?, byteOffset: Int, value: Result<JSONValue, JSONSyntaxError>) {
        self.index = index
        self.line = line
        self.byteOffset = byteOffset
        self.value = value
    }
}

/// One record of an export file as the reader scanned it, on a tape: the reader's own, which the
/// next record reuses (read the fields first), or one the caller fills with a batch of records.
public struct JSONTapeRecord {
    /// 1-based position of the record in the file (blank JSON Lines lines are not records).
    public let index: Int
    /// 1-based line of the record (JSON Lines only; blank lines count).
    public let line: Int?
    /// Absolute offset of the record's first byte.
    public let byteOffset: Int
    /// The record, or (JSON Lines only) why its line is not valid JSON.
    public let tape: Result<JSONTape, JSONSyntaxError>
    /// The record's entry on its tape.
    public var root = 0

    /// The record with its value as a tree.
    public var record: JSONRecord {
        JSONRecord(index: index, line: line, byteOffset: byteOffset, value: tape.map { $0.value(at: root) })
    }
}

/// Malformed JSON, with the absolute byte offset where reading went wrong (and the line in JSON Lines).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `unexpected character 'x'`, `invalid UTF-8 byte 0xC3`, `unterminated string`.
    public let message: String
    /// Absolute offset in the file of the byte where the problem is (for an unterminated string, its
    /// opening quote; for an unexpected end, the offset of the end).
    public let byteOffset: Int
    /// The 1-based line, for JSON Lines.
    public let line: Int?

    /// A control character in `message` (the letter after a backslash, say) is shown as `U+0009`,
    /// so that messages and `import_rejects` never hold raw control bytes.
    public init(message: String, byteOffset: Int, line: Int? = nil) {
        self.message = JSONSyntaxError.visible(message)
        self.byteOffset = byteOffset
        self.line = line
    }

    public var description: String {
        if let line { return "\(message) at line \(line), byte \(byteOffset)" }
        return "\(message) at byte \(byteOffset)"
    }

    /// `message` with every control character written as its code point.
    static func visible(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return message }
        var text = ""
        for scalar in message.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                text += "U+" + JSONScanner.hex(scalar.value, digits: 4)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    func onLine(_ line: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, byteOffset: byteOffset, line: line)
    }
}

/// Thrown by `JSONRecordReader.next()` when a file that starts with a top-level object turns out
/// not to be a wrapper (a second array, an array element that is not an object, no array at all,
/// or another object on a line of its own after it).
///
/// The reader cannot tell by itself whether such a file is one JSON document that is not a wrapper
/// (a failure, SPEC §1 and docs/DECISIONS.md) or JSON Lines in a `.json` file: that holds only when
/// the first object fits on the first line and another object starts a later line, which
/// `JSONRecordReader.startsWithObjectLines(source:)` decides by reading the file's first lines
/// again. The caller discards whatever records it already received in both cases.
public struct NotAWrapper: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the object is not a wrapper: `member "b" is a second array`.
    public let reason: String
    /// Where that was noticed.
    public let byteOffset: Int
    /// The object was complete and another object followed it on a later line: when the file is
    /// not JSON Lines, that is a second document rather than a wrong wrapper.
    public let isFollowedByObject: Bool

    public init(reason: String, byteOffset: Int, isFollowedByObject: Bool = false) {
        self.reason = reason
        self.byteOffset = byteOffset
        self.isFollowedByObject = isFollowedByObject
    }

    /// The one line a failed file reports: `not a wrapper: member "meta" is a second array at byte
    /// 120; a wrapper holds one array of records beside scalar or object members`.
    public var description: String {
        if isFollowedByObject {
            return
                "another JSON value after the end of the object at byte \(byteOffset): a .json file holds one JSON "
                + "document (name a JSON Lines file .jsonl)"
        }
        return
            "not a wrapper: \(reason) at byte \(byteOffset); a wrapper holds one array of records beside scalar or "
            + "object members"
    }
}

/// A file whose content is well-formed but not records, or not UTF-8: it fails whole, with a
/// message saying what it is instead (`a JSON value, not records`, `looks like UTF-16; save it as UTF-8`).
public struct JSONLayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let byteOffset: Int

    public init(message: String, byteOffset: Int) {
        self.message = message
        self.byteOffset = byteOffset
    }

    public var description: String { message }
}

/// Why a file holds no record at all although it is not malformed: worth a warning, since a
/// crashed exporter leaves such files (an empty export is `[]` or a wrapper with an empty array).
public enum JSONEmptiness: String, Sendable, Equatable {
    /// Zero bytes.
    case noBytes = "the file is empty (0 bytes)"
    /// Only a UTF-8 byte order mark, perhaps with whitespace after it.
    case byteOrderMarkOnly = "the file holds only a byte order mark"
    /// Only spaces, tabs and line ends.
    case whitespaceOnly = "the file holds only whitespace"
}

/// A file could not be opened or read (an I/O failure, as opposed to malformed content).
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
