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
        let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let values = Array(repeating: placeholders, count: max(1, rows)).joined(separator: ", ")
        let updates = columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values) "
            + "ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(updates)"
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
}
