import Import

/// The bookings domain as the import layer sees it: its schema and one importer per kind
/// (`services`, `slots`, `customers`, `bookings`).
public enum BookingsModule {
    public static let module = DomainModule(domain: .bookings, migrations: BookingsSchema.migrations) { kind, database in
        switch kind {
        case .services: return try ServicesImporter(database: database).erased
        case .slots: return try SlotsImporter(database: database).erased
        case .customers: return try CustomersImporter(database: database).erased
        case .bookings: return try BookingsImporter(database: database).erased
        default: throw KindOutsideDomain(kind: kind, domain: .bookings)
        }
    }
}
