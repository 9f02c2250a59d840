/// How a table is laid out on a distributed database (Citus, distributed PostgreSQL): the same
/// rows on every node (a small table every query joins), or split into shards by one column, the
/// tables of one group in the same shards by the same value (colocated: a user's tasks on the
/// node that holds the user), so that a query naming one value runs on one node.
public enum TableDistribution: Sendable, Equatable {
    /// Copied whole to every node.
    case reference(table: String)
    /// Split by `column`; placed with the shards of `colocatedWith` (nil: the first of its group).
    case distributed(table: String, column: String, colocatedWith: String?)

    public var table: String {
        switch self {
        case .reference(let table), .distributed(let table, _, _): return table
        }
    }
}

/// What `Database.distribute` did to one table.
public struct DistributionStep: Sendable, Equatable {
    public let table: String
    /// `reference`, `distributed by user_id`, or `already distributed by user_id`.
    public let outcome: String
}

extension Database {
    /// The shard each of `values` of `table`'s distribution column falls in, in their order, on a
    /// distributed database; nil on SQLite and single PostgreSQL. Values of one shard, asked about
    /// together (`column IN (…)`), make a query one worker answers, where a list spread over every
    /// shard is planned and run on each (a plan per shard, each with the whole list).
    public func shards(of values: [String], in table: String) throws -> [Int64]? {
        try connection.shards(of: values, in: table)
    }

    /// Lays the tables out on a Citus coordinator as `plan` says: idempotent (a table already laid
    /// out is left alone), each table's primary key first widened to start with its distribution
    /// column where it does not hold it (Citus can only keep a key unique within a shard; the
    /// import's writer deletes a record's earlier row by its key on every shard, so a record that
    /// moves to another user, customer or event is still stored once). One transaction: a table
    /// that cannot be laid out leaves every other as it was. Throws, in one line, on a database
    /// that is not a Citus coordinator.
    public func distribute(_ plan: [TableDistribution]) throws -> [DistributionStep] {
        try transaction { try connection.distribute(plan) }
    }

    /// After a committed import: the statistics of the tables it loaded brought up to date where
    /// the backend keeps them (`StoreConnection.refreshStatistics`), so that a report run right
    /// after is planned from them.
    public func refreshStatistics() throws { try connection.refreshStatistics() }

    /// `distribute` on a distributed database (a Citus coordinator), nothing elsewhere: what an
    /// import runs after bringing the schema up to date, so that tables made on a Citus cluster
    /// are laid out before any row goes in (moving rows into shards later costs a copy of each).
    @discardableResult
    public func layOut(_ plan: [TableDistribution]) throws -> [DistributionStep] {
        guard !plan.isEmpty, try connection.isDistributedDatabase() else { return [] }
        return try distribute(plan)
    }
}
