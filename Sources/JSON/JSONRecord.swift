/// How the records of an export file are laid out (SPEC §1).
public enum JSONLayout: Sendable, Equatable {
    /// `[ record, record, … ]`
    case array
    /// `{"exported_at": "…", "<key>": [ record, … ]}`: one array of records among scalar members.
    case wrapper(key: String)
    /// One record per line (`.jsonl`, `.ndjson`, or a top-level object that is not a wrapper).
    case jsonLines
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

/// Malformed JSON, with the absolute byte offset where reading went wrong (and the line in JSON Lines).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `unexpected character 'x'`, `invalid UTF-8 byte 0xC3`, `unterminated string`.
    public let message: String
    /// Absolute offset in the file of the byte where the problem is (for an unterminated string, its
    /// opening quote; for an unexpected end, the offset of the end).
    public let byteOffset: Int
    /// The 1-based line, for JSON Lines.
    public let line: Int?

    public init(message: String, byteOffset: Int, line: Int? = nil) {
        self.message = message
        self.byteOffset = byteOffset
        self.line = line
    }

    public var description: String {
        if let line { return "\(message) at line \(line), byte \(byteOffset)" }
        return "\(message) at byte \(byteOffset)"
    }

    func onLine(_ line: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, byteOffset: byteOffset, line: line)
    }
}

/// Thrown by `JSONRecordReader.next()` when a file that starts with a top-level object turns out
/// not to be a wrapper (a second array, an object member, an array element that is not an object,
/// no array at all, or more text after the object). SPEC §1 says such a file is JSON Lines: the
/// caller discards whatever records it already received and reads the file again with
/// `jsonLines: true`.
public struct NotAWrapper: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the object is not a wrapper, for logs (the caller's decision does not depend on it).
    public let reason: String
    /// Where that was noticed.
    public let byteOffset: Int

    public init(reason: String, byteOffset: Int) {
        self.reason = reason
        self.byteOffset = byteOffset
    }

    public var description: String { "not a wrapper object: \(reason) at byte \(byteOffset)" }
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
