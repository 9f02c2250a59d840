import DomainInterface
import Foundation
import ArgumentParsing
import Import
import Store
import Time

/// `report status`: what the database holds.
public enum StatusCommand: Command {
    public static let spec = CommandSpec(
        name: "status",
        abstract: "Show what the database holds: kinds, counts, date ranges, last imports.",
        options: [CommonOptions.database, CommonOptions.busyTimeout, CommonOptions.quiet])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let path = context.databasePath
        let database = try DatabaseAccess.forReading(context, mode: .readOnly)
        let console = context.console
        console.output("database \(path)")
        let tables = Set(try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].string })
        var lines: [[String]] = [["kind", "records", "from", "to"]]
        for module in context.modules {
          for kind in module.kinds where tables.contains(kind.name) {
            let count = try database.scalarInt("SELECT COUNT(*) FROM \"\(kind.name)\"") ?? 0
            var range = ("", "")
            if let column = module.statusColumns[kind] {
                let sql = "SELECT MIN(\(column.column)), MAX(\(column.column)) FROM \"\(kind.name)\""
                if let row = try database.rows(sql).first { range = (column.render(row[0]), column.render(row[1])) }
            }
            lines.append([kind.name, String(count), range.0, range.1])
          }
        }
        console.output(StatusCommand.align(lines))
        if tables.contains("import_log") {
            let recent = try database.rows("SELECT file, kind, records, accepted, rejected, finished_at FROM import_log ORDER BY id DESC LIMIT 10")
            let rejects = try database.scalarInt("SELECT COUNT(*) FROM import_rejects") ?? 0
            let files = try database.scalarInt("SELECT COUNT(*) FROM import_log") ?? 0
            console.output("")
            console.output("\(files) files imported, \(rejects) rejected records kept; last imports:")
            var rows: [[String]] = [["finished", "file", "kind", "records", "rejected"]]
            for row in recent {
                rows.append([row[5].string ?? "", row[0].string ?? "", row[1].string ?? "",
                             String(row[2].int ?? 0), String(row[4].int ?? 0)])
            }
            console.output(StatusCommand.align(rows))
        }
        return .success
    }

    /// Columns padded to their widest cell.
    static func align(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = first.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
