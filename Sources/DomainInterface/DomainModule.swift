import ArgumentParsing
import Import
import Store
import Time

/// Everything a domain (habits, bookings, fleet) tells the application, in one value: its kinds,
/// schema and importers; its report command; what `report status` shows of its tables; the
/// reports `report nightly` owes for a night.
///
/// The executables register the modules (`report`'s main, the tests); the import layer, the
/// application and the command line iterate over them and name no domain.
public struct DomainModule: Sendable {
    public let imports: ImportModule
    /// `report <name>`: the domain's report command.
    public let report: DomainReport
    /// The table of each kind, in the kinds' order, and the column `report status` shows a range
    /// of (`statusColumns`; kinds absent there show none): the tables the domain owns, which the
    /// application never queries itself (`holdings`, `hasData`).
    public let tables: [KindTable]
    /// How the domain's tables are laid out on a distributed database (`report distribute`): the
    /// big ones split by the column their queries name (user, customer, event), colocated; the
    /// small ones copied to every node.
    public let distribution: [TableDistribution]
    /// The reports a night owes at as-of, read from `database` where that depends on the data
    /// (the fleet's open events); throws when the data cannot be read.
    public let nightlyReports: @Sendable (_ asOf: Timestamp, _ database: Database) throws -> [ReportRequest]
    /// What can be reported from the data (`report status`, and the list `report fleet` prints
    /// without `--event`): the fleet's events, the bookings months, the habits date range.
    public let reportScopes: @Sendable (_ database: Database) throws -> [ReportScope]

    public init(
        imports: ImportModule, report: DomainReport, statusColumns: [ExportKind: StatusColumn],
        distribution: [TableDistribution] = [],
        nightlyReports: @escaping @Sendable (Timestamp, Database) throws -> [ReportRequest],
        reportScopes: @escaping @Sendable (Database) throws -> [ReportScope] = { _ in [] }
    ) {
        self.imports = imports
        self.report = report
        tables = imports.kinds.map { KindTable($0, range: statusColumns[$0]) }
        self.distribution = distribution
        self.nightlyReports = nightlyReports
        self.reportScopes = reportScopes
    }

    public var name: DomainName { imports.domain }
    public var kinds: [ExportKind] { imports.kinds }
    public var migrations: [Migration] { imports.migrations }
}

/// The table a kind's records are stored in (its name, as every domain stores it today), and the
/// column whose range `report status` shows (none: no range).
public struct KindTable: Sendable {
    public let kind: ExportKind
    public let range: StatusColumn?
    public var table: String { kind.name }

    public init(_ kind: ExportKind, range: StatusColumn? = nil) {
        self.kind = kind
        self.range = range
    }
}

/// How many records of a kind a database holds, and the range of its status column.
public struct KindHolding: Sendable, Equatable {
    public let kind: ExportKind
    public let records: Int
    /// The first and last value of the status column as `status` prints them ("" for none).
    public let from: String
    public let to: String
}

extension DomainModule {
    /// Whether the database holds any record of any of the domain's kinds.
    public func hasData(_ database: Database) throws -> Bool {
        try tables.contains { try database.scalarInt("SELECT EXISTS (SELECT 1 FROM \"\($0.table)\")") == 1 }
    }

    /// Each kind whose table exists, in the domain's order: its count and range.
    public func holdings(_ database: Database) throws -> [KindHolding] {
        let existing = Set(try database.tableNames())
        return try tables.filter { existing.contains($0.table) }.map { table in
            let count = try database.scalarInt("SELECT COUNT(*) FROM \"\(table.table)\"") ?? 0
            var range = ("", "")
            if let column = table.range,
                let row = try database.rows(
                    "SELECT MIN(\(column.column)), MAX(\(column.column)) FROM \"\(table.table)\""
                ).first
            {
                range = (column.render(row[0]), column.render(row[1]))
            }
            return KindHolding(kind: table.kind, records: Int(count), from: range.0, to: range.1)
        }
    }
}

/// How `report status` shows a kind's date range: a column holding dates (`YYYY-MM-DD`), or
/// instants as microseconds since the epoch.
public struct StatusColumn: Sendable {
    public let column: String
    public let isMicroseconds: Bool

    public static func date(_ column: String) -> StatusColumn { StatusColumn(column: column, isMicroseconds: false) }
    public static func instant(_ column: String) -> StatusColumn { StatusColumn(column: column, isMicroseconds: true) }

    /// A value of the column as `status` prints it.
    public func render(_ value: SQLValue) -> String {
        if isMicroseconds, let micros = value.int { return Timestamp(microseconds: micros).description }
        return value.string ?? ""
    }
}
