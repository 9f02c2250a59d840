import JSON
import Store
/// Stores the records of one export kind in two steps: `validate` checks a record whole (pure,
/// on the reader thread), `store` upserts the validated value (on the database thread).
///
/// Splitting them lets validation run beside SQLite on the second core. `validate` throws a
/// `FieldError` for an invalid record, so nothing is ever half-stored and a rejected record never
/// changes a valid one; `store` must replace an earlier row with the same key *whole* (children
/// included).
public protocol KindImporter: AnyObject, SendableMetatype {
    /// The validated record, handed from the reader thread to the database thread.
    associatedtype Validated: Sendable

    /// Prepares the importer's statements on `database`.
    init(database: Database) throws

    /// Checks every field of a record (an object: the pipeline rejects any other value first).
    ///
    /// The records' initialisers read every field into a local and assign them all at the end:
    /// assigning each stored property with `try` made the compiler copy the finished record once
    /// and destroy the copy, a retain and a release per `String` field (4 % of a task's cost).
    static func validate(_ record: RecordReader) throws(FieldError) -> Validated

    /// Upserts a validated record.
    /// - Parameter sequence: increases with import order and position in the file; stored so that
    ///   "the latest imported" can break ties in analysis.
    func store(_ record: Validated, sequence: Int64) throws
}

extension KindImporter {
    /// Checks a record built in memory (any JSON value: non-objects are rejected).
    public static func validate(_ record: JSONValue) throws(FieldError) -> Validated {
        try validate(RecordReader(record: record))
    }

    /// Validates then stores one record (tests and single-threaded callers).
    public func importRecord(_ record: JSONValue, sequence: Int64) throws {
        try store(Self.validate(record), sequence: sequence)
    }

    /// The validation with its types erased: what `report check` runs, with no database.
    ///
    /// The box's class is taken once, here, and each record's box made through it: this code is
    /// generic and not specialized (see `erased`), so `ValidatedBox(value)` per record asked the
    /// runtime for the class's metadata each time, a hash-table look-up of about 330 instructions
    /// on the reader thread (3 % of a task's, callgrind, docs/BENCHMARKS.md).
    public static var erasedValidator: RecordValidator {
        let boxClass = ValidatedBox<Validated>.self
        return { (record: RecordReader) throws(FieldError) in
            ValidatedRecord(boxed: boxClass.init(try Self.validate(record)))
        }
    }

    /// The importer with its types erased, for the import pipeline.
    ///
    /// The box's class is looked up once, here: this code is generic and not specialized (the
    /// importer's type comes from a table of `any KindImporter.Type`), so `as? ValidatedBox<…>`
    /// per record asked the runtime for the class's metadata each time, a hash-table look-up on
    /// the database thread (about 1 % of the 1M-task import's samples).
    public var erased: ErasedKindImporter {
        let boxClass = ObjectIdentifier(ValidatedBox<Validated>.self)
        return ErasedKindImporter(
            validate: Self.erasedValidator,
            store: { validated, sequence in
                guard ObjectIdentifier(type(of: validated.box)) == boxClass else {
                    throw KindMismatch(expected: String(describing: Validated.self))
                }
                try self.store(
                    unsafeDowncast(validated.box, to: ValidatedBox<Validated>.self).value, sequence: sequence)
            })
    }
}

/// A validated record of some kind, on its way from the reader thread to the database thread.
///
/// Boxed in a class of its type: the database thread gets it back with a class cast, where a cast
/// out of `any Sendable` copied the record (a retain per string field) on SQLite's thread.
public struct ValidatedRecord: Sendable {
    let box: AnyObject & Sendable
    init<Value: Sendable>(_ value: Value) { box = ValidatedBox(value) }
    init<Value: Sendable>(boxed box: ValidatedBox<Value>) { self.box = box }
}

final class ValidatedBox<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A kind's validation, with its types erased: Sendable, it runs on the reader thread.
public typealias RecordValidator = @Sendable (RecordReader) throws(FieldError) -> ValidatedRecord

/// A kind's importer as two closures: `validate` is Sendable (it runs on the reader thread),
/// `store` stays on the thread that owns the connection.
public struct ErasedKindImporter {
    public let validate: @Sendable (RecordReader) throws(FieldError) -> ValidatedRecord
    public let store: (ValidatedRecord, Int64) throws -> Void

    /// Validates then stores one record (tests and single-threaded callers).
    public func importRecord(_ record: JSONValue, sequence: Int64) throws {
        try store(validate(RecordReader(record: record)), sequence)
    }
}

/// A validated record handed to the importer of another kind: a wiring mistake, not bad data.
struct KindMismatch: Error, CustomStringConvertible {
    let expected: String
    var description: String { "internal error: a record validated for another kind reached the \(expected) importer" }
}

/// What a domain (habits, bookings, fleet) gives the import layer: its kinds with the importer
/// of each, its schema. The domain's whole declaration (`DomainModule`) holds one of these.
public struct ImportModule: Sendable {
    public let domain: DomainName
    /// In the order `report status` lists them.
    public let kinds: [ExportKind]
    public let migrations: [Migration]
    private let importers: [ExportKind: any KindImporter.Type]

    public init(
        domain: DomainName, importers: KeyValuePairs<ExportKind, any KindImporter.Type>, migrations: [Migration]
    ) {
        self.domain = domain
        kinds = importers.map(\.key)
        self.importers = Dictionary(importers.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.migrations = migrations
    }

    /// How a record of `kind` is validated: no database needed (`report check`).
    public func validator(for kind: ExportKind) throws -> RecordValidator {
        guard let type = importers[kind] else { throw KindOutsideDomain(kind: kind, domain: domain) }
        return type.erasedValidator
    }

    /// The importer of `kind`, its statements prepared on `database`.
    public func makeImporter(_ kind: ExportKind, _ database: Database) throws -> ErasedKindImporter {
        guard let type = importers[kind] else { throw KindOutsideDomain(kind: kind, domain: domain) }
        return try type.init(database: database).erased
    }
}

/// Asked for an importer of a kind that belongs to another domain: a wiring mistake, not bad data.
public struct KindOutsideDomain: Error, CustomStringConvertible {
    public let kind: ExportKind
    public let domain: DomainName
    public init(kind: ExportKind, domain: DomainName) {
        self.kind = kind
        self.domain = domain
    }
    public var description: String { "the \(domain.rawValue) module has no importer for \(kind.name)" }
}
