import Foundation
import Time

/// A name from the schema (a table's, an index's) as a quoted SQL identifier, written alike for
/// SQLite and PostgreSQL: in double quotes, each double quote in it doubled.
func quotedSQLIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

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
    /// The SQL a migration step gives for this backend when it cannot be translated word for word.
    var dialect: SQLDialect { get }

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws
    /// Compiles a statement for repeated use.
    func prepare(_ sql: String) throws -> any StoreStatement
    /// Compiles a query whose rows are read whole (`Database.prepare(readingWhole:)`).
    func prepare(_ sql: String, readingWhole: Bool) throws -> any StoreStatement

    /// Opens a transaction; `immediate` takes the write lock at once where the backend has one.
    func begin(immediate: Bool) throws
    /// Opens a writing transaction if the write lock is free now; false (nothing open) otherwise.
    func beginWithoutWaiting() throws -> Bool
    var isInTransaction: Bool { get }
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { get }

    /// A number that changes whenever a writing transaction of another connection commits (see
    /// `Database.changeToken()`).
    func changeToken() throws -> Int64
    /// Called just before a writing transaction commits, for a backend that counts changes itself.
    func willCommitWrites() throws

    /// Whether a table of that name exists (the store's own catalogue, never `sqlite_master` in callers).
    func tableExists(_ name: String) throws -> Bool
    /// The names of the tables that hold data (not the backend's internal ones), in byte order.
    func tableNames() throws -> [String]
    /// The secondary indexes of a table as (name, the SQL that creates it again), by name.
    func secondaryIndexes(of table: String) throws -> [(name: String, sql: String)]
    /// The SQL of one migration step (in SQLite's words) as this backend runs it.
    func schemaSQL(_ sql: String) -> String
    /// Throws when the database belongs to another application; marks it as `report`'s otherwise.
    func checkApplication() throws
    func markApplication() throws
    /// The `id` (an `INTEGER PRIMARY KEY`) the next row of `table` is to get, taken inside a
    /// writing transaction so that the row itself can be inserted later in it (`Database.reserveId`).
    func reserveId(in table: String) throws -> Int64
    /// For a bulk load in the current writing transaction (`Database.beginBulkLoad`): a statement
    /// that keeps the schema's last page in memory until it is reset, where a backend needs it.
    func holdSchemaPage() throws -> (any StoreStatement)?

    /// The import write path (`UpsertWriter`, `ChildRows`): SQLite's prepared statements,
    /// PostgreSQL's COPY into staging tables.
    func upsertWriter(
        table: String, columns: [String], key: [String], context: WriterContext
    ) throws
        -> any StoreRowWriter
    func childRowsWriter(
        table: String, parentColumn: String, columns: [String], context: WriterContext
    ) throws
        -> any StoreChildRowsWriter
    /// Reads and drops the result of work sent without waiting (a merge), before a rollback.
    func abandonPendingWork()

    /// Whether the database spreads tables over several nodes (a Citus coordinator).
    func isDistributedDatabase() throws -> Bool

    /// The shard each of `values` of `table`'s distribution column falls in, in their order, where
    /// the table is distributed (a Citus coordinator); nil where it is not (one node holds it all).
    func shards(of values: [String], in table: String) throws -> [Int64]?

    /// A second connection whose transaction, begun, reads the snapshot of this connection's
    /// reading transaction (`Database.withSnapshotReader`); nil where there is none to share.
    func openSnapshotReader() throws -> (any StoreConnection)?

    /// Lays tables out over the nodes of a distributed database (`Database.distribute`), inside
    /// the caller's transaction; throws on a backend that is not one.
    func distribute(_ plan: [TableDistribution]) throws -> [DistributionStep]

    /// After imports committed: brings the planner's statistics of the tables they loaded up to
    /// date where the server keeps them apart from the data (PostgreSQL's ANALYZE); nothing on
    /// SQLite, whose plans here come from its indexes.
    func refreshStatistics() throws
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
    /// The column's text as bytes, valid only inside `body` (no `String` made); empty for NULL.
    func withText<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result
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

/// Which backend a `Database` talks to (messages and tests name it; the code outside `Store`
/// never branches on it: a difference between backends is a capability of the connection).
public enum StoreKind: String, Sendable {
    case sqlite, postgresql
}

/// The SQL a backend speaks. A migration step is written in SQLite's words, which every backend
/// translates (`StoreConnection.schemaSQL`); a step that cannot be translated word for word (a
/// trigger, a function) also gives its text in another dialect (`Migration.dialects`). Citus, the
/// distributed PostgreSQL, speaks PostgreSQL's.
public enum SQLDialect: String, Sendable, Hashable {
    case sqlite, postgresql
}

/// An error of a backend that can say, in one line, what a person should do about it.
public protocol StoreFailure: Error, CustomStringConvertible {
    /// `report.sqlite is locked by another process …` for the known cases, the plain description otherwise.
    func advice(database: String) -> String
}
