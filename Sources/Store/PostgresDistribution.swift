/// Citus's side of `Database.distribute`: the extension's functions on a coordinator, and the
/// query shapes a distributed table needs.
extension PostgresConnection {
    /// Citus's own answer for each value (`get_shard_id_for_distribution_column`, computed on the
    /// coordinator from its metadata: no worker is asked), each value a bound parameter.
    func shards(of values: [String], in table: String) throws -> [Int64]? {
        guard try isDistributed(table) else { return nil }
        if values.isEmpty { return [] }
        let list = Array(repeating: "?::text", count: values.count).joined(separator: ", ")
        let found = try rows(
            "SELECT get_shard_id_for_distribution_column(?::regclass, v.value) "
                + "FROM unnest(ARRAY[\(list)]) WITH ORDINALITY AS v(value, n) ORDER BY v.n",
            [.text(table)] + values.map { .text($0) })
        guard found.count == values.count else {
            throw StoreError("\(location): \(found.count) shards for \(values.count) values of \(table)")
        }
        return try found.map { row in
            guard let shard = row.first?.int else { throw StoreError("\(location): no shard for a value of \(table)") }
            return shard
        }
    }

    /// Whether Citus lays the table out over several nodes.
    func isDistributed(_ table: String) throws -> Bool { try citusMethod(table).map { $0 != "n" } ?? false }

    /// Whether Citus copies the table whole to every node.
    func isReferenceTable(_ table: String) throws -> Bool { try citusMethod(table) == "n" }

    /// How Citus holds a table: `n` a reference table, `h` distributed by hash, nil a table of the
    /// coordinator alone (asked once per table and connection; forgotten by `distribute`).
    private func citusMethod(_ table: String) throws -> String? {
        if let known = citusMethods[table] { return known.isEmpty ? nil : known }
        var method = ""
        if try isDistributedDatabase() {
            method =
                try scalar(
                    "SELECT partmethod::text FROM pg_catalog.pg_dist_partition WHERE logicalrelid = to_regclass(?)",
                    [.text(table)])?.string ?? ""
        }
        citusMethods[table] = method
        return method.isEmpty ? nil : method
    }

    /// Citus is installed in this database (asked once per connection).
    func isDistributedDatabase() throws -> Bool {
        if let known = citusInstalled { return known }
        let installed = try scalar("SELECT count(*) FROM pg_catalog.pg_extension WHERE extname = 'citus'")?.int == 1
        citusInstalled = installed
        return installed
    }

    func distribute(_ plan: [TableDistribution]) throws -> [DistributionStep] {
        guard try isDistributedDatabase() else {
            throw StoreError(
                "\(location) is a PostgreSQL database without Citus; distributing tables needs a Citus coordinator "
                    + "(CREATE EXTENSION citus, then citus_add_node for each worker; docs/SCALE.md)")
        }
        citusMethods.removeAll()
        var steps: [DistributionStep] = []
        for entry in plan {
            let table = entry.table
            guard try tableExists(table) else {
                throw StoreError("\(location): no table \(table) to distribute; run `report import` first")
            }
            if let method = try scalar(
                "SELECT partmethod::text FROM pg_catalog.pg_dist_partition WHERE logicalrelid = to_regclass(?)",
                [.text(table)])?.string
            {
                let column = try scalar(
                    "SELECT column_to_column_name(logicalrelid, partkey) FROM pg_catalog.pg_dist_partition "
                        + "WHERE logicalrelid = to_regclass(?)", [.text(table)])?.string
                steps.append(
                    DistributionStep(
                        table: table,
                        outcome: method == "n" ? "already a reference table" : "already distributed by \(column ?? "?")"
                    ))
                continue
            }
            switch entry {
            case .reference:
                _ = try scalar("SELECT create_reference_table(?)", [.text(table)])
                steps.append(DistributionStep(table: table, outcome: "reference table"))
            case .distributed(_, let column, let colocatedWith):
                try widenPrimaryKey(of: table, toInclude: column)
                _ = try scalar(
                    "SELECT create_distributed_table(?, ?, colocate_with => ?)",
                    [.text(table), .text(column), .text(colocatedWith ?? "none")])
                steps.append(DistributionStep(table: table, outcome: "distributed by \(column)"))
            }
        }
        return steps
    }

    /// Citus keeps a key unique within a shard only, so a distributed table's primary key must
    /// hold its distribution column: `(id)` becomes `(id, user_id)`. The column goes last, so that
    /// the widened key is still an index led by the old key: the import's merge and `ChildRows`
    /// find a record's earlier rows by that key on every shard through it, and a shard's table
    /// carries the same B-trees as on PostgreSQL alone. (Until this layout the column went first,
    /// `(user_id, id)`, and an index on `(id)` was kept beside it: one B-tree more for every row an
    /// import writes on a worker, docs/BENCHMARKS.md. Tables laid out that way keep it, and
    /// `secondaryIndexes` still counts that index as the key's.) Where a report reads by the
    /// distribution column, the table has an index led by that column (`tasks_user_date`,
    /// `bookings_customer`, `assignments_event_plate`, …), as on PostgreSQL alone.
    private func widenPrimaryKey(of table: String, toInclude column: String) throws {
        guard
            let constraint = try scalar(
                "SELECT conname::text FROM pg_catalog.pg_constraint WHERE conrelid = to_regclass(?) AND contype = 'p'",
                [.text(table)])?.string
        else { return }
        let keyColumns = try rows(
            """
            SELECT a.attname::text FROM pg_catalog.pg_constraint k
            JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS c(number, position) ON true
            JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = c.number
            WHERE k.conrelid = to_regclass(?) AND k.contype = 'p' ORDER BY c.position
            """, [.text(table)]
        ).compactMap { $0[0].string }
        if keyColumns.contains(column) { return }
        let widened = (keyColumns + [column]).map(quotedSQLIdentifier).joined(separator: ", ")
        try execute(
            "ALTER TABLE \(quotedSQLIdentifier(table)) DROP CONSTRAINT \(quotedSQLIdentifier(constraint)), "
                + "ADD PRIMARY KEY (\(widened))")
    }
}
