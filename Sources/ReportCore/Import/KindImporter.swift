/// Stores the records of one export kind: validates each record whole, then upserts it.
///
/// A domain gives one per kind. `importRecord` must throw a `FieldError` *before* writing anything
/// when the record is invalid (a rejected record never half-stores or changes a valid one), and
/// must replace an earlier row with the same key *whole* (children included).
public protocol KindImporter: AnyObject {
    /// - Parameters:
    ///   - record: the record as read from the file (any JSON value: non-objects are rejected).
    ///   - sequence: increases with import order and position in the file; stored so that
    ///     "the latest imported" can break ties in analysis.
    func importRecord(_ record: JSONValue, sequence: Int64) throws
}

/// What a domain (habits, bookings, fleet) gives the import layer: its schema and its importers.
public struct DomainModule: Sendable {
    public let domain: ExportKind.Domain
    public let migrations: [Migration]
    /// Prepares the statements of one kind's importer on a connection.
    public let makeImporter: @Sendable (ExportKind, Database) throws -> any KindImporter

    public init(domain: ExportKind.Domain, migrations: [Migration],
                makeImporter: @escaping @Sendable (ExportKind, Database) throws -> any KindImporter) {
        self.domain = domain
        self.migrations = migrations
        self.makeImporter = makeImporter
    }
}

/// Asked for an importer of a kind that belongs to another domain: a wiring mistake, not bad data.
public struct KindOutsideDomain: Error, CustomStringConvertible {
    public let kind: ExportKind
    public let domain: ExportKind.Domain
    public init(kind: ExportKind, domain: ExportKind.Domain) {
        self.kind = kind
        self.domain = domain
    }
    public var description: String { "the \(domain.rawValue) module has no importer for \(kind.name)" }
}
