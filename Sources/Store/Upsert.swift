import Time
/// Builds `INSERT … ON CONFLICT(key) DO UPDATE SET <every other column> = excluded.<column>`.
///
/// Every column is overwritten, so a later record replaces the earlier one whole: an optional
/// field absent from the later record becomes NULL rather than keeping the earlier value.
/// Table and column names come from the code, never from data; values are always bound. The
/// statement of `UpsertWriter` on SQLite (and on PostgreSQL outside a transaction).
public enum Upsert {
    /// `rows`: how many rows the statement writes (`VALUES (…), (…), …`), in order.
    public static func sql(table: String, columns: [String], key: [String] = ["id"], rows: Int = 1) -> String {
        insert(table: table, columns: columns, rows: rows) + onConflict(columns: columns, key: key)
    }

    /// ` ON CONFLICT(key) DO UPDATE SET …` the other columns; `DO NOTHING` for a table that is its
    /// key (a row already there is the row).
    static func onConflict(columns: [String], key: [String]) -> String {
        let updates = columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return " ON CONFLICT(\(key.joined(separator: ", "))) "
            + (updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET \(updates)")
    }

    /// The upsert of every row of `source` (a table of the same columns) in the order of `key`,
    /// rows of one key in the order they were written to `source`, so that the last one wins.
    static func merge(table: String, columns: [String], key: [String], from source: String) -> String {
        let list = columns.joined(separator: ", ")
        // `WHERE true`: SQLite reads `ON` after a bare FROM clause as a join's constraint.
        return "INSERT INTO \(table) (\(list)) SELECT \(list) FROM \(source) WHERE true ORDER BY "
            + (key + ["rowid"]).joined(separator: ", ") + onConflict(columns: columns, key: key)
    }

    /// `INSERT INTO table (columns) VALUES (?, …), (?, …), …`: `rows` rows, in order.
    static func insert(table: String, columns: [String], rows: Int = 1) -> String {
        let values = Array(repeating: parameters(columns.count), count: max(1, rows)).joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values)"
    }

    /// `(?, ?, …)`: a list of `count` parameters.
    static func parameters(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }
}

extension SQLValue {
    public static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
    public static func optional(_ number: Int64?) -> SQLValue { number.map(SQLValue.integer) ?? .null }
    public static func optional(_ number: Double?) -> SQLValue { number.map(SQLValue.real) ?? .null }
    /// A boolean column as 0/1.
    public static func flag(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    /// An instant as microseconds since the epoch UTC (`<field>_us` columns).
    public static func instant(_ stamp: Timestamp) -> SQLValue { .integer(stamp.microseconds) }
    public static func optionalInstant(_ stamp: Timestamp?) -> SQLValue { stamp.map(instant) ?? .null }
    /// A calendar date as `YYYY-MM-DD`.
    public static func day(_ day: Day) -> SQLValue { .text(day.description) }
    /// Texts as PostgreSQL's text form of a `text[]` (`{"a","b"}`), bound where the server reads an
    /// array (`column = ANY(?)`): every element quoted, a backslash or a double quote in it escaped
    /// by a backslash, so that any text (a comma, a brace, a space, `NULL`) is read back as it is.
    public static func postgresTextArray(_ values: [String]) -> SQLValue {
        var literal = "{"
        for (number, value) in values.enumerated() {
            if number > 0 { literal += "," }
            literal += "\""
            for character in value.unicodeScalars {
                if character == "\\" || character == "\"" { literal += "\\" }
                literal.unicodeScalars.append(character)
            }
            literal += "\""
        }
        return .text(literal + "}")
    }
}
