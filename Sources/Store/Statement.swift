import Time

/// A value bound to or read from the store.
public enum SQLValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }

    public var int: Int64? { if case .integer(let value) = self { return value } else { return nil } }
    public var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }
    public var string: String? { if case .text(let value) = self { return value } else { return nil } }
}

/// A compiled statement, reused for every row of an import, over whichever backend the database
/// has. Not Sendable: it belongs to its connection's thread.
public final class Statement {
    let backend: any StoreStatement
    public let sql: String
    /// The connection's buffering writers, flushed before this runs when it names their tables.
    private let pending: PendingWrites

    init(_ backend: any StoreStatement, sql: String, pending: PendingWrites) {
        self.backend = backend
        self.sql = sql
        self.pending = pending
    }

    /// Binds parameters 1…n after resetting the statement.
    public func bind(_ values: [SQLValue]) throws {
        backend.reset()
        for (offset, value) in values.enumerated() { try backend.bind(value, at: Int32(offset + 1)) }
    }

    /// Binds one parameter (1-based).
    public func bind(_ value: SQLValue, at index: Int32) throws { try backend.bind(value, at: index) }

    public func bind(_ text: String?, at index: Int32) throws { try bind(text.map(SQLValue.text) ?? .null, at: index) }
    public func bind(_ number: Int64?, at index: Int32) throws {
        try bind(number.map(SQLValue.integer) ?? .null, at: index)
    }
    public func bind(_ number: Double?, at index: Int32) throws {
        try bind(number.map(SQLValue.real) ?? .null, at: index)
    }

    /// Clears the previous run so the statement can run again.
    public func reset() { backend.reset() }

    /// Steps once: true when a row is available.
    @discardableResult
    public func step() throws -> Bool {
        if pending.isActive { try pending.flush(beforeRunning: sql) }
        return try backend.step()
    }

    /// Runs to completion, ignoring rows.
    public func run() throws { while try step() {} }

    public var columnCount: Int { backend.columnCount }

    public func isNull(_ column: Int) -> Bool { backend.isNull(column) }

    public func int64(_ column: Int) -> Int64 { backend.int64(column) }
    public func int64OrNil(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }
    public func double(_ column: Int) -> Double { backend.double(column) }
    public func doubleOrNil(_ column: Int) -> Double? { isNull(column) ? nil : double(column) }
    public func string(_ column: Int) -> String { backend.string(column) }
    public func stringOrNil(_ column: Int) -> String? { isNull(column) ? nil : string(column) }
    /// The column's text as bytes, valid only inside `body`: for callers that compare or hash a
    /// text and make a `String` only when they keep it. Empty for NULL (ask `isNull`).
    public func withText<Result>(
        _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows
        -> Result
    {
        try backend.withText(column, body)
    }
    /// A `YYYY-MM-DD` column as a `Day`, read from its bytes; nil for NULL or another text.
    public func day(_ column: Int) -> Day? { backend.day(column) }
    public func value(_ column: Int) -> SQLValue { backend.value(column) }
}
