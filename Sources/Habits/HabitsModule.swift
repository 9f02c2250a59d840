import Import

/// The habits domain as the import layer sees it: its schema and one importer per kind
/// (`users`, `flows`, `tasks`, `focus_sessions`, `logins`, `moods`).
public enum HabitsModule {
    public static let module = DomainModule(domain: .habits, migrations: HabitsSchema.migrations) { kind, database in
        switch kind {
        case .users: return try UsersImporter(database: database).erased
        case .flows: return try FlowsImporter(database: database).erased
        case .tasks: return try TasksImporter(database: database).erased
        case .focusSessions: return try FocusSessionsImporter(database: database).erased
        case .logins: return try LoginsImporter(database: database).erased
        case .moods: return try MoodsImporter(database: database).erased
        default: throw KindOutsideDomain(kind: kind, domain: .habits)
        }
    }
}
