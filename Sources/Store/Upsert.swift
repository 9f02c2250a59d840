import Time
/// Builds `INSERT … ON CONFLICT(key) DO UPDATE SET <every other column> = excluded.<column>`.
///
/// Every column is overwritten, so a later record replaces the earlier one whole: an optional
/// field absent from the later record becomes NULL rather than keeping the earlier value.
/// Table and column names come from the code, never from data; values are always bound.
public enum Upsert {
    public static func sql(table: String, columns: [String], key: [String] = ["id"]) -> String {
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let updates = columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders)) "
            + "ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(updates)"
    }

    /// Prepares the upsert once, for reuse on every record.
    public static func prepare(
        _ database: Database, table: String, columns: [String], key: [String] = ["id"]
    ) throws -> Statement {
        try database.prepare(sql(table: table, columns: columns, key: key))
    }
}

/// The rows of one nested list (a flow's contexts, a booking's service lines), replaced whole with
/// their parent: deleted and re-inserted on every upsert, so that a later record with a shorter
/// list leaves no stale rows. Positions count from 0, as the paths of error messages do.
public final class ChildRows {
    private let delete: Statement
    private let insert: Statement

    public init(database: Database, table: String, parentColumn: String, columns: [String]) throws {
        delete = try database.prepare("DELETE FROM \(table) WHERE \(parentColumn) = ?")
        let all = [parentColumn, "position"] + columns
        insert = try database.prepare(
            "INSERT INTO \(table) (\(all.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: all.count).joined(separator: ", ") + ")")
    }

    public func replace(parent: String, rows: [[SQLValue]]) throws {
        try delete.bind([.text(parent)])
        try delete.run()
        for (position, row) in rows.enumerated() {
            try insert.bind([.text(parent), .integer(Int64(position))] + row)
            try insert.run()
        }
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
