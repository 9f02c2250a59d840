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
    /// The date column `report status` shows a range of, per kind (kinds absent here show none).
    public let statusColumns: [ExportKind: StatusColumn]
    /// The reports a night owes at as-of, read from `database` where that depends on the data
    /// (the fleet's open events); throws when the data cannot be read.
    public let nightlyReports: @Sendable (_ asOf: Timestamp, _ database: Database) throws -> [ReportRequest]
    /// What can be reported from the data (`report status`, and the list `report fleet` prints
    /// without `--event`): the fleet's events, the bookings months, the habits date range.
    public let reportScopes: @Sendable (_ database: Database) throws -> [ReportScope]

    public init(
        imports: ImportModule, report: DomainReport, statusColumns: [ExportKind: StatusColumn],
        nightlyReports: @escaping @Sendable (Timestamp, Database) throws -> [ReportRequest],
        reportScopes: @escaping @Sendable (Database) throws -> [ReportScope] = { _ in [] }
    ) {
        self.imports = imports
        self.report = report
        self.statusColumns = statusColumns
        self.nightlyReports = nightlyReports
        self.reportScopes = reportScopes
    }

    public var name: DomainName { imports.domain }
    public var kinds: [ExportKind] { imports.kinds }
    public var migrations: [Migration] { imports.migrations }
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
