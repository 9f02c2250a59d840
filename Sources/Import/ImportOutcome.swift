import JSON
/// How one file's import ended.
public struct FileOutcome: Sendable {
    public enum Status: Sendable, Equatable {
        /// Stored (some records may have been rejected).
        case imported
        /// Validated only (`report check`): nothing stored.
        case checked
        /// Same SHA-256 as an earlier import: not read again.
        case skipped(reason: String)
        /// Nothing of the file was stored.
        case failed(reason: String)
    }

    public let file: String
    public let kind: ExportKind?
    public var status: Status
    public var records = 0
    public var accepted = 0
    public var rejected = 0
    /// The first rejections as one-line messages (all of them are in `import_rejects`).
    public var rejectMessages: [String] = []
    /// How the records were laid out, once the file was read (nil for an empty file): a wrapper
    /// names the member its records were taken from, for the per-file line.
    public var layout: JSONLayout?
    /// Problems that do not fail the file (an empty file), one line each, without the file name.
    public var warnings: [String] = []

    public init(file: String, kind: ExportKind?, status: Status) {
        self.file = file
        self.kind = kind
        self.status = status
    }

    public var failed: Bool { if case .failed = status { return true } else { return false } }
}

/// One rejected record: where it is, which field, which value, which rule.
public struct Rejection: Error, Sendable, Equatable {
    public let position: Int
    public let line: Int?
    public let recordId: String?
    public let field: String
    public let value: String
    public let rule: String

    /// `record 17 (line 18, id 1042)`: where in the file.
    public var location: String {
        var text = "record \(position)"
        if let line {
            text += " (line \(line)" + (recordId.map { ", id \($0)" } ?? "") + ")"
        } else if let recordId {
            text += " (id \(recordId))"
        }
        return text
    }

    /// `record 17 (id 1042): field starts_at: invalid date "2016-13-42"`: where in the file, and why.
    public var detail: String { location + ": " + FieldError(field: field, value: value, rule: rule).description }

    /// `bookings.json record 17 (id 1042): field starts_at: invalid date "2016-13-42"`.
    public func message(file: String) -> String { file + " " + detail }
}
