import Import
import Store

/// The fleet domain as the import layer sees it: its schema and one importer per kind
/// (`events`, `groups`, `drivers`, `assignments`, `loan_records`).
public enum FleetModule {
    public static let module = DomainModule(domain: .fleet, migrations: FleetSchema.migrations) { kind, database in
        try makeImporter(kind, database)
    }

    /// The importer of one fleet kind, its statements prepared on `database`.
    public static func makeImporter(_ kind: ExportKind, _ database: Database) throws -> ErasedKindImporter {
        switch kind {
        case .events: return try EventImporter(database: database).erased
        case .groups: return try GroupImporter(database: database).erased
        case .drivers: return try DriverImporter(database: database).erased
        case .assignments: return try AssignmentImporter(database: database).erased
        case .loanRecords: return try LoanRecordImporter(database: database).erased
        default: throw KindOutsideDomain(kind: kind, domain: .fleet)
        }
    }
}

