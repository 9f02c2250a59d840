import ArgumentParsing
import DomainInterface
import Foundation
import Import
import ReportApp
import Store
import Writers

/// `report status`: what the database holds, as aligned text, `--json` or `--csv`.
public enum StatusCommand: Command {
    public static let spec = CommandSpec(
        name: "status",
        abstract: "Show what the database holds: kinds, counts, date ranges, what can be reported, last imports.",
        options: [
            CommonOptions.database.spec, CommonOptions.busyTimeout.spec, CommonOptions.quiet.spec, json.spec, csv.spec,
            reportable.spec,
        ])

    static let json = Flag(
        "json", help: "Print one JSON object (kinds, counts, date ranges, last imports), for monitoring.")
    static let csv = Flag("csv", help: "Print the kinds table as CSV (kind, records, from, to), for scripts.")
    static let reportable = Flag(
        "reportable",
        help: "With --csv: print what can be reported instead (domain, command, name, from, to, count, unit).")

    /// How `status` prints, read from the arguments once.
    enum Format {
        case text, json, csv

        init(_ arguments: ParsedArguments) throws(UsageError) {
            switch (arguments[StatusCommand.json], arguments[StatusCommand.csv]) {
            case (true, true): throw UsageError("--json and --csv are two formats of one output: give one")
            case (true, false): self = .json
            case (false, true): self = .csv
            case (false, false): self = .text
            }
        }
    }

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let format = try Format(context.arguments)
        let database = try DatabaseAccess.forReading(
            try context.databaseSettings(), modules: context.modules, mode: .readOnly)
        let path = database.path  // a PostgreSQL URL with its password masked
        let summary = try StatusCommand.summary(of: database, path: path, modules: context.modules)
        let console = context.console
        if format == .json {
            let text = try summary.json()
            try console.withOutputSink { try $0.write(text) }
            return .success
        }
        if format == .csv {
            let table = context.arguments[StatusCommand.reportable] ? summary.scopesTable : summary.kindsTable
            try console.withOutputSink { try CSVWriter().writeTable(table, to: $0) }
            return .success
        }
        if context.arguments[StatusCommand.reportable] {
            throw UsageError("--reportable is a table of --csv: add --csv")
        }
        console.output("database \(path)")
        let lines =
            [["kind", "records", "from", "to"]] + summary.kinds.map { [$0.name, String($0.records), $0.from, $0.to] }
        console.output(StatusCommand.align(lines))
        if !summary.scopes.isEmpty {
            console.output("")
            console.output("what can be reported:")
            console.output(StatusCommand.align(StatusCommand.scopeLines(summary.scopes, withDomain: true)))
        }
        if let files = summary.filesImported {
            console.output("")
            console.output(
                "\(files) files imported, \(summary.rejectedRecords ?? 0) rejected records kept; last imports:")
            let rows =
                [["finished", "file", "kind", "records", "rejected"]]
                + summary.lastImports.map {
                    [$0.finishedAt, $0.file, $0.kind, String($0.records), String($0.rejected)]
                }
            console.output(StatusCommand.align(rows))
        }
        return .success
    }

    /// The kinds (in the modules' order, with the date range each module declares), counts and
    /// last imports.
    static func summary(of database: Database, path: String, modules: [DomainModule]) throws -> StatusSummary {
        var summary = StatusSummary(database: path)
        for module in modules {
            summary.kinds += try module.holdings(database).map {
                .init(name: $0.kind.name, records: $0.records, from: $0.from, to: $0.to)
            }
        }
        for module in modules { summary.scopes += try module.reportScopes(database) }
        if let imports = try ImportLog.summary(database) {
            summary.filesImported = imports.filesImported
            summary.rejectedRecords = imports.rejectedRecords
            summary.lastImports = imports.lastImports.map {
                .init(
                    finishedAt: $0.finishedAt, file: $0.file, kind: $0.kind, records: $0.records,
                    accepted: $0.accepted, rejected: $0.rejected)
            }
        }
        return summary
    }

    /// The scopes as text rows under a header: `report fleet --event salon2016  Mondial…  2016-10-01 …`.
    static func scopeLines(_ scopes: [ReportScope], withDomain: Bool) -> [[String]] {
        let header = withDomain ? ["report", "name", "from", "to", "data"] : ["options", "name", "from", "to", "data"]
        return [header]
            + scopes.map { scope in
                [
                    withDomain ? "report \(scope.domain) \(scope.options)" : scope.options, scope.name,
                    scope.from.description, scope.to.description, "\(scope.count) \(scope.unit)",
                ]
            }
    }

    /// Columns padded to their widest cell.
    static func align(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = first.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
