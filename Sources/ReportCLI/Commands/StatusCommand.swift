import Foundation
import ReportCore

/// `report status`: what the database holds.
public enum StatusCommand: Command {
    public static let spec = CommandSpec(
        name: "status",
        abstract: "Show what the database holds: kinds, counts, date ranges, last imports.",
        options: [CommonOptions.database, CommonOptions.busyTimeout, CommonOptions.quiet])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let path = context.databasePath
        let busyTimeout = try context.busyTimeoutMilliseconds()
        guard StoreLocation.isPostgreSQL(path) || FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path): no such database; run `report import PATH...` first, or give --db PATH")
        }
        let database = try Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeout)
        let console = context.console
        console.output("database \(database.path)")
        let tables = Set(try database.tableNames())
        var lines: [[String]] = [["kind", "records", "from", "to"]]
        for kind in ExportKind.allCases where tables.contains(kind.name) {
            let count = try database.scalarInt("SELECT COUNT(*) FROM \"\(kind.name)\"") ?? 0
            var range = ("", "")
            if let column = StatusCommand.dateColumns[kind] {
                if let row = try database.rows("SELECT MIN(\(column.sql)), MAX(\(column.sql)) FROM \"\(kind.name)\"").first {
                    range = (column.render(row[0]), column.render(row[1]))
                }
            }
            lines.append([kind.name, String(count), range.0, range.1])
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

    /// How to show each kind's date range: a column holding dates, or microseconds since the epoch.
    struct DateColumn {
        let sql: String
        let isMicroseconds: Bool
        func render(_ value: SQLValue) -> String {
            if isMicroseconds, let micros = value.int { return Timestamp(microseconds: micros).description }
            return value.string ?? ""
        }
    }

    static let dateColumns: [ExportKind: DateColumn] = [
        .users: DateColumn(sql: "created_at_us", isMicroseconds: true),
        .flows: DateColumn(sql: "date", isMicroseconds: false),
        .tasks: DateColumn(sql: "date", isMicroseconds: false),
        .focusSessions: DateColumn(sql: "started_at_us", isMicroseconds: true),
        .logins: DateColumn(sql: "at_us", isMicroseconds: true),
        .moods: DateColumn(sql: "date", isMicroseconds: false),
        .slots: DateColumn(sql: "starts_at_us", isMicroseconds: true),
        .customers: DateColumn(sql: "created_at_us", isMicroseconds: true),
        .bookings: DateColumn(sql: "starts_at_us", isMicroseconds: true),
        .events: DateColumn(sql: "starts_on", isMicroseconds: false),
        .assignments: DateColumn(sql: "planned_time_out_us", isMicroseconds: true),
        .loanRecords: DateColumn(sql: "recorded_at_us", isMicroseconds: true),
    ]

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
