import ReportCore

/// The fleet domain as the import layer sees it: its schema and one importer per kind
/// (`events`, `groups`, `drivers`, `assignments`, `loan_records`).
public enum FleetModule {
    public static let module = DomainModule(domain: .fleet, migrations: FleetSchema.migrations) { kind, database in
        try makeImporter(kind, database)
    }

    /// The importer of one fleet kind, its statements prepared on `database`.
    public static func makeImporter(_ kind: ExportKind, _ database: Database) throws -> any KindImporter {
        switch kind {
        case .events: return try EventImporter(database: database)
        case .groups: return try GroupImporter(database: database)
        case .drivers: return try DriverImporter(database: database)
        case .assignments: return try AssignmentImporter(database: database)
        case .loanRecords: return try LoanRecordImporter(database: database)
        default: throw KindOutsideDomain(kind: kind, domain: .fleet)
        }
    }
}

/// Asking the fleet module for another domain's kind is a wiring mistake of the caller.
