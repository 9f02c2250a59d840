import ArgumentParsing
import Foundation
import DomainInterface
import Import
import ReportModel
import Store

/// The one way the commands open a database, with one policy each for writing and reading:
///
/// - `import` and `nightly` open for writing: the file is created when missing and every
///   registered module's schema brought up to date (by the `Importer`).
/// - reports and `status` open an existing database and never migrate it (a report changes no
///   schema; the only thing one may write is a domain's own cache, such as the habits streak
///   state); a database whose schema is behind this release is refused with what to run.
///   A report reads in one transaction: one snapshot, even while an import writes. A domain's
///   own transaction nests inside it as a savepoint.
enum DatabaseAccess {
    /// A database to import into, created when missing.
    static func forWriting(_ context: CommandContext) throws -> Database {
        try Database(path: context.databasePath, busyTimeoutMilliseconds: try context.busyTimeoutMilliseconds())
    }

    /// An existing database for reading; its schema must be current.
    static func forReading(_ context: CommandContext, mode: Database.Mode = .readWrite) throws -> Database {
        let path = context.databasePath
        let busyTimeout = try context.busyTimeoutMilliseconds()
        let database: Database
        do {
            database = try Database(
                path: path, mode: mode, busyTimeoutMilliseconds: busyTimeout, createIfMissing: false)
        } catch is DatabaseMissing {
            throw CommandFailure("\(path): no such database; run `report import PATH...` first, or give --db PATH")
        }
        if !(try Schema.pendingSteps(database, ImportLog.migrations(for: context.modules.map(\.imports)))).isEmpty {
            throw CommandFailure(
                "\(database.path): the database's schema is older than this release; "
                    + "import with this release (`report import PATH...`) to bring it up to date")
        }
        return database
    }

    /// `body` over one read snapshot of the context's database.
    static func withSnapshot<T>(_ context: CommandContext, _ body: (Database) throws -> T) throws -> T {
        let database = try forReading(context)
        return try database.transaction(immediate: false) { try body(database) }
    }

    /// The report a request makes, read from one snapshot.
    static func report(_ request: ReportRequest, _ context: CommandContext) throws -> Report {
        try withSnapshot(context) { try request.make($0) }
    }
}
