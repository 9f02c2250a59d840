import ReportCore

/// Builds `INSERT … ON CONFLICT(key) DO UPDATE SET <every other column> = excluded.<column>`.
///
/// Every column is overwritten, so a later record replaces the earlier one whole: an optional
/// field absent from the later record becomes NULL rather than keeping the earlier value.
enum Upsert {
    static func sql(table: String, key: [String], columns: [String]) -> String {
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let updates = columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders)) "
            + "ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(updates)"
    }

    /// Prepares the upsert once, for reuse on every record.
    static func prepare(_ database: Database, table: String, key: [String] = ["id"], columns: [String]) throws -> Statement {
        try database.prepare(sql(table: table, key: key, columns: columns))
    }
}

extension SQLValue {
    /// An optional text column.
    static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
    /// An optional REAL column.
    static func optional(_ number: Double?) -> SQLValue { number.map(SQLValue.real) ?? .null }
    /// A boolean column as 0/1.
    static func flag(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}
