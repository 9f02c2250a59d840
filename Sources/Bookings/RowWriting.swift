import ReportCore

// The same small helpers as the habits domain's `RowWriting.swift`: each domain target depends on
// ReportCore only, so they are repeated rather than shared through a sibling domain.

/// The SQL that stores a record so that a later one with the same key replaces it whole:
/// `INSERT … ON CONFLICT(key) DO UPDATE SET <every other column> = excluded.<column>`.
enum UpsertSQL {
    static func make(table: String, columns: [String], key: [String]) -> String {
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let updates = columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders)) "
            + "ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))"
    }
}

/// The rows of one nested list (a booking's service lines), replaced whole with their parent:
/// deleted and re-inserted on every upsert, so that a later record with a shorter list leaves no
/// stale rows. Positions count from 0, as the paths of error messages do (`services[0]`).
final class ChildRows {
    private let delete: Statement
    private let insert: Statement

    init(database: Database, table: String, parentColumn: String, columns: [String]) throws {
        delete = try database.prepare("DELETE FROM \(table) WHERE \(parentColumn) = ?")
        let all = [parentColumn, "position"] + columns
        insert = try database.prepare("INSERT INTO \(table) (\(all.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: all.count).joined(separator: ", ") + ")")
    }

    func replace(parent: String, rows: [[SQLValue]]) throws {
        try delete.bind([.text(parent)])
        try delete.run()
        for (position, row) in rows.enumerated() {
            try insert.bind([.text(parent), .integer(Int64(position))] + row)
            try insert.run()
        }
    }
}

extension SQLValue {
    static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
    static func optional(_ number: Int64?) -> SQLValue { number.map(SQLValue.integer) ?? .null }
    /// An instant as microseconds since the epoch UTC (`<field>_us` columns).
    static func instant(_ stamp: Timestamp) -> SQLValue { .integer(stamp.microseconds) }
    static func optionalInstant(_ stamp: Timestamp?) -> SQLValue { stamp.map(instant) ?? .null }
}

/// Asked for an importer of a kind that belongs to another domain: a wiring mistake, not bad data.
struct KindOutsideDomain: Error, CustomStringConvertible {
    let kind: ExportKind
    let domain: ExportKind.Domain
    var description: String { "the \(domain.rawValue) module has no importer for \(kind.name)" }
}
