import DomainInterface
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
    /// What can be reported: the modules' `reportScopes`, in module order.
    var scopes: [ReportScope] = []

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
        object["reportable"] = scopes.map {
            [
                "domain": $0.domain, "options": $0.options, "name": $0.name, "from": $0.from.description,
                "to": $0.to.description, "count": $0.count, "unit": $0.unit,
            ] as [String: Any]
        }
        object["files_imported"] = filesImported ?? 0
        object["rejected_records"] = rejectedRecords ?? 0
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// What can be reported, as a CSV table (`status --csv --reportable`).
    var scopesTable: Table {
        Table(
            name: "reportable",
            columns: [
                Column("domain"), Column("command"), Column("name"), Column("from", .date), Column("to", .date),
                Column("count", .integer), Column("unit"),
            ],
            // The whole command, so that the cell does not start with `--` (which CSV-injection
            // guarding would prefix with `'`).
            rows: scopes.map {
                [
                    .text($0.domain), .text("report \($0.domain) \($0.options)"), .text($0.name), .day($0.from),
                    .day($0.to),
                    .integer($0.count), .text($0.unit),
                ]
            })
    }

    /// The kinds table as a CSV table of the dashboard contract's rules (RFC 4180, injection-safe).
    var kindsTable: Table {
        Table(
            name: "status", columns: [Column("kind"), Column("records", .integer), Column("from"), Column("to")],
            rows: kinds.map { [.text($0.name), .integer($0.records), .text($0.from), .text($0.to)] })
    }
}
