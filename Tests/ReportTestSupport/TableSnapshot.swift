import Store

/// Every row of a database's tables, for "nothing changed" assertions before and after a
/// rejection, a fault or a check: the one snapshot helper of every test target, on either backend.
public enum TableSnapshot {
    /// The rows of `tables` (default: every table the store lists), minus `excluding`, each table
    /// ordered by all its columns so that two snapshots of the same data are equal.
    public static func of(
        _ database: Database, tables: [String]? = nil,
        excluding: Set<String> = []
    ) throws -> [String: [[SQLValue]]] {
        var result: [String: [[SQLValue]]] = [:]
        for table in try tables ?? database.tableNames() where !excluding.contains(table) {
            let columns = try database.prepare("SELECT * FROM \"\(table)\" LIMIT 0").columnCount
            let order = (1...max(columns, 1)).map(String.init).joined(separator: ", ")
            result[table] = try database.rows("SELECT * FROM \"\(table)\" ORDER BY \(order)")
        }
        return result
    }
}
