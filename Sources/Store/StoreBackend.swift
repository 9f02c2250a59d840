import Time

/// What a store backend (SQLite, PostgreSQL) provides to `Database` and `Statement`, which are the
/// only types domains, importers and commands name.
///
/// The split keeps every C call of a library in its backend's files (`sqlite3_*` in the SQLite
/// ones, `PQ*` in the PostgreSQL ones) while the callers keep one vocabulary. SQL handed to a
/// backend uses `?` / `?N` placeholders and SQLite's type names; a backend translates what its
/// server spells differently (placeholders at prepare, DDL at migration).
public protocol StoreConnection: AnyObject {
    /// The database as messages name it: a file path, or a connection URL without its password.
    var location: String { get }
    var kind: StoreKind { get }

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws
    /// Compiles a statement for repeated use.
    func prepare(_ sql: String) throws -> any StoreStatement

    /// Opens a transaction; `immediate` takes the write lock at once where the backend has one.
    func begin(immediate: Bool) throws
    var isInTransaction: Bool { get }
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { get }

    /// Whether a table of that name exists (the store's own catalogue, never `sqlite_master` in callers).
    func tableExists(_ name: String) throws -> Bool
    /// The names of the tables that hold data (not the backend's internal ones), in byte order.
    func tableNames() throws -> [String]
    /// The secondary indexes of a table as (name, the SQL that creates it again), by name.
    func secondaryIndexes(of table: String) throws -> [(name: String, sql: String)]
    /// The row triggers a bulk load may lift, as (name, the SQL that creates it again), by name.
    func bulkLiftableTriggers(of table: String) throws -> [(name: String, sql: String)]
    /// The SQL of one migration step as this backend runs it.
    func schemaSQL(_ sql: String) -> String
    /// Throws when the database belongs to another application; marks it as `report`'s otherwise.
    func checkApplication() throws
    func markApplication() throws
    /// Inserts one row with an `INTEGER PRIMARY KEY` named `id` and returns that id.
    func insertReturningId(_ sql: String, _ parameters: [SQLValue]) throws -> Int64
}

/// A compiled statement of a backend: parameters bound by 1-based index, rows read by 0-based column.
public protocol StoreStatement: AnyObject {
    func bind(_ value: SQLValue, at index: Int32) throws
    /// Clears the previous run (and its bindings) so the statement can run again.
    func reset()
    /// Steps once: true when a row is available.
    func step() throws -> Bool
    /// Binds parameters 1…n to `row` and runs the statement to completion, ignoring rows: an
    /// import's write of one row.
    func run(row: [SQLValue]) throws
    var columnCount: Int { get }
    func isNull(_ column: Int) -> Bool
    func int64(_ column: Int) -> Int64
    func double(_ column: Int) -> Double
    func string(_ column: Int) -> String
    /// A `YYYY-MM-DD` column parsed from its bytes (no `String` made); nil for NULL or another text.
    func day(_ column: Int) -> Day?
    func value(_ column: Int) -> SQLValue
}

extension StoreStatement {
    public func run(row: [SQLValue]) throws {
        reset()
        for (offset, value) in row.enumerated() { try bind(value, at: Int32(offset + 1)) }
        while try step() {}
    }
}

/// Which backend a `Database` talks to.
public enum StoreKind: String, Sendable {
    case sqlite, postgresql
}

/// An error of a backend that can say, in one line, what a person should do about it.
public protocol StoreFailure: Error, CustomStringConvertible {
    /// `report.sqlite is locked by another process …` for the known cases, the plain description otherwise.
    func advice(database: String) -> String
}
