/// What the PostgreSQL backend reads from its catalogue, in the connection's current schema (the
/// first of its `search_path`), and the functions of SQLite the domains' SQL uses.
extension PostgresConnection {
    func scalar(_ sql: String, _ parameters: [SQLValue] = []) throws -> SQLValue? {
        let statement = PostgresStatement(connection: self, sql: sql)
        for (offset, value) in parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
        guard try statement.step() else { return nil }
        return statement.value(0)
    }

    func rows(_ sql: String, _ parameters: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = PostgresStatement(connection: self, sql: sql)
        for (offset, value) in parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
        var result: [[SQLValue]] = []
        while try statement.step() { result.append((0..<statement.columnCount).map { statement.value($0) }) }
        return result
    }

    /// Ordinary and partitioned tables, and foreign tables (the shards of a partitioned one);
    /// partitions are not listed, their parent is.
    private static let dataTables = """
        SELECT c.relname FROM pg_catalog.pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'f') AND NOT c.relispartition
        """

    func tableExists(_ name: String) throws -> Bool {
        try scalar("SELECT EXISTS (\(Self.dataTables) AND c.relname = ?)", [.text(name)])?.int ?? 0 != 0
    }

    /// The store's own `store_changes` is not one of them.
    func tableNames() throws -> [String] {
        try rows(Self.dataTables + " AND c.relname <> 'store_changes' ORDER BY c.relname COLLATE \"C\"")
            .compactMap { $0[0].string }
    }

    /// Indexes that back no constraint (a primary key stays), as `pg_get_indexdef` writes them,
    /// but for a distributed table's own key in the layout Citus tables had until 2026-12-07: the
    /// index on its primary key's columns after the first, the key before `report distribute`
    /// widened it (`(id)` kept beside the primary key `(user_id, id)`; a table widened since has
    /// the key `(id, user_id)` and no such index). The import's merge finds a record's earlier rows
    /// by that key on every shard; loaded without it, a big file into a table holding rows made
    /// every flush's delete scan the table (a fleet file imported again on Citus: 384 s for one
    /// flush of 50,000 records instead of about one). The rule goes by columns alone, so it would
    /// keep, too, an index on a widened key's last column alone (the distribution column): no
    /// schema has one, and one kept through a load is only slower, not wrong.
    func secondaryIndexes(of table: String) throws -> [(name: String, sql: String)] {
        try rows(
            """
            SELECT i.relname, pg_catalog.pg_get_indexdef(x.indexrelid)
            FROM pg_catalog.pg_index x
            JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid
            JOIN pg_catalog.pg_class t ON t.oid = x.indrelid
            WHERE t.relname = ? AND t.relnamespace = current_schema()::regnamespace
              AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conindid = x.indexrelid)
              AND NOT EXISTS (
                SELECT 1 FROM pg_catalog.pg_constraint p
                WHERE p.conrelid = x.indrelid AND p.contype = 'p' AND cardinality(p.conkey) > 1
                  AND x.indpred IS NULL AND x.indexprs IS NULL
                  AND array_to_string(p.conkey[2:], ' ') = x.indkey::text)
            ORDER BY i.relname COLLATE "C"
            """, [.text(table)]
        ).compactMap { row in
            guard let name = row[0].string, let sql = row[1].string else { return nil }
            return (name, sql)
        }
    }

    func schemaSQL(_ sql: String) -> String { PostgresSQL.schema(sql) }

    /// A PostgreSQL database holds other applications' tables beside `report`'s: nothing to refuse.
    func checkApplication() throws {}

    /// Two functions of SQLite the domains' SQL uses, defined once with the schema: `unixepoch(date)`
    /// (seconds at 00:00 UTC of a `YYYY-MM-DD`: the habits analysis reads day ordinals with it;
    /// immutable, so that a plan may use it) and the aggregate `TOTAL` (a double-precision sum that
    /// is 0.0 over no rows and never overflows: the money sums of bookings).
    func markApplication() throws {
        try execute(
            """
            CREATE OR REPLACE FUNCTION unixepoch(day text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $$ SELECT (day::date - DATE '1970-01-01')::bigint * 86400 $$;
            CREATE OR REPLACE AGGREGATE total(double precision) (SFUNC = float8pl, STYPE = double precision,
                INITCOND = '0', COMBINEFUNC = float8pl, PARALLEL = SAFE)
            """)
    }

    /// The next value of the `id` column's identity, as an insert without an id would take it.
    func reserveId(in table: String) throws -> Int64 {
        let sql = "SELECT nextval(pg_get_serial_sequence(?, 'id'))"
        guard let id = try scalar(sql, [.text(table)])?.int else {
            throw PostgresError(state: "", message: "no identity for the id of \(table)", sql: sql, location: location)
        }
        return id
    }

    /// The server keeps what a load writes in its own buffers and WAL: nothing to hold.
    func holdSchemaPage() throws -> (any StoreStatement)? { nil }
}
