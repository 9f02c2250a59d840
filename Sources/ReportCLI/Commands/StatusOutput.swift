import Foundation
import ReportModel

/// What `report status` found, kept apart from how it is shown: aligned text for people,
/// `--json` for monitoring, `--csv` (the kinds table) for scripts and dashboards.
struct StatusSummary {
    struct Kind {
        let name: String
        let records: Int
        let from: String
        let to: String
    }

    struct ImportRow {
        let finishedAt: String
        let file: String
        let kind: String
        let records: Int
        let accepted: Int
        let rejected: Int
    }

    let database: String
    var kinds: [Kind] = []
    /// nil when the database has no import log yet.
    var filesImported: Int?
    var rejectedRecords: Int?
    var lastImports: [ImportRow] = []

    /// One JSON object, keys sorted, so that a monitor can diff two runs.
    func json() throws -> String {
        var object: [String: Any] = [
            "database": database,
            "kinds": kinds.map {
                ["kind": $0.name, "records": $0.records, "from": $0.from, "to": $0.to] as [String: Any]
            },
            "last_imports": lastImports.map {
                [
                    "finished_at": $0.finishedAt, "file": $0.file, "kind": $0.kind, "records": $0.records,
                    "accepted": $0.accepted, "rejected": $0.rejected,
                ] as [String: Any]
            },
        ]
        object["files_imported"] = filesImported ?? 0
        object["rejected_records"] = rejectedRecords ?? 0
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The kinds table as a CSV table of the dashboard contract's rules (RFC 4180, injection-safe).
    var kindsTable: Table {
        Table(
            name: "status", columns: [Column("kind"), Column("records", .integer), Column("from"), Column("to")],
            rows: kinds.map { [.text($0.name), .integer($0.records), .text($0.from), .text($0.to)] })
    }
}
