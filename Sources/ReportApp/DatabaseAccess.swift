import ArgumentParsing
import DomainInterface
import Import
import ReportModel
import Store

/// Where the database is and how long to wait for another process's lock: what every command
/// that opens a database is given, read once from the command line and the environment.
public struct DatabaseSettings: Sendable {
    /// A SQLite file path or a PostgreSQL URL.
    public let path: String
    public let busyTimeoutMilliseconds: Int32

    public init(path: String, busyTimeoutMilliseconds: Int32) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }
}

/// The one way the application opens a database, with one policy each for writing and reading:
///
/// - an import opens for writing: the file is created when missing and every registered
///   module's schema brought up to date (by the `Importer`).
/// - reports and `status` open an existing database and never migrate it (a report changes no
///   schema; the only thing one may write is a domain's own cache, such as the habits streak
///   state); a database whose schema is behind this release is refused with what to run. The
///   schema is checked once, when the connection opens; a command then does all its reading on
///   that connection, a report in one transaction: one snapshot, even while an import writes.
public enum DatabaseAccess {
    /// A database to import into, created when missing.
    public static func forWriting(_ settings: DatabaseSettings) throws -> Database {
        try Database(path: settings.path, busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds)
    }

    /// An existing database for reading; its schema must be current.
    public static func forReading(
        _ settings: DatabaseSettings, modules: [DomainModule], mode: Database.Mode = .readWrite
    ) throws -> Database {
        let database: Database
        do {
            database = try Database(
                path: settings.path, mode: mode, busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds,
                createIfMissing: false)
        } catch is DatabaseMissing {
            throw CommandFailure(
                "\(settings.path): no such database; run `report import PATH...` first, or give --db PATH")
        }
        try requireCurrentSchema(database, modules: modules)
        return database
    }

    /// Refuses a database that holds nothing of `report` yet, or whose schema is behind this
    /// release (reports never migrate).
    public static func requireCurrentSchema(_ database: Database, modules: [DomainModule]) throws {
        if try database.isEmpty() {
            throw CommandFailure(
                "\(database.path) is empty: it holds no report data yet; import exports into it first "
                    + "(`report import PATH...` with the same --db)")
        }
        if !(try Schema.pendingSteps(database, ImportLog.migrations(for: modules.map(\.imports)))).isEmpty {
            throw CommandFailure(
                "\(database.path): the database's schema is older than this release; "
                    + "import with this release (`report import PATH...`) to bring it up to date")
        }
    }
}

/// One report of a domain, read from one snapshot of an open database.
public enum ReportMaking {
    /// Checks that the domain holds data (when it requires it) and makes the report, both in one
    /// read transaction of `database`.
    public static func make(_ request: ReportRequest, of module: DomainModule, from database: Database) throws -> Report
    {
        try database.transaction(immediate: false) {
            if module.report.requiresData, !(try module.hasData(database)) { throw noData(of: module, database) }
            return try request.make(database)
        }
    }

    /// The failure of a report command on a database without any record of the domain: a quiet
    /// empty report would hide a broken export (issue 12). `report nightly` skips the domain instead.
    public static func noData(of module: DomainModule, _ database: Database) -> CommandFailure {
        CommandFailure(
            "\(database.path) holds no \(module.name) data; import its exports first ("
                + module.kinds.map(\.name).joined(separator: ", ") + ")")
    }
}
