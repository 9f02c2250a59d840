import Foundation
import ReportModel
import Time
import Writers

/// `report-bench [ROWS] [OUTPUT.xlsx] [--csv]`: the XLSX (or CSV) benchmark table.
func runWriterBench(_ commandLine: [String]) {
    let writeCSV = commandLine.contains("--csv")
    let arguments = commandLine.filter { $0 != "--csv" }
    let rowCount = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
    let output = URL(fileURLWithPath: arguments.count > 2 ? arguments[2] : "bench-swift.xlsx")

    /// 2016-10-01T08:00:00+02:00, the first check-out.
    let firstCheckOut: Int64 = 1_475_301_600
    let groups = ["Premium", "Sport", "Electric", "Utility", "Classic"]

    /// `P-000042`: zero-padded without Foundation's formatter.
    @Sendable func plate(_ number: Int) -> String {
        let digits = String(number)
        return "P-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    let rows = Rows(count: rowCount) {
        var index = 0
        return AnyIterator {
            guard index < rowCount else { return nil }
            defer { index += 1 }
            let i = index
            return [
                .text(plate(i % 50_000)),
                .integer(Int64(i)),
                .number(Double(i % 1_000) / 8),
                .timestamp(Timestamp(seconds: firstCheckOut + Int64(i) * 37, offsetSeconds: 7_200)),
                .number(Double(i % 997) / 997),
                .text(groups[i % 5]),
                .integer(Int64(i * 7_919 % 1_000)),
                .number(Double(i % 10_000) * 0.25),
            ]
        }
    }

    let table = Table(
        name: "loans",
        columns: [
            Column("plate"), Column("loan", .integer), Column("hours", .duration), Column("out_at", .timestamp),
            Column("utilization", .percent, dataBar: true), Column("group"), Column("km", .integer),
            Column("revenue_eur", .euros),
        ], rows: rows)
    let report = Report(
        kind: "bench", title: "XLSX benchmark", scope: "\(rowCount)",
        asOf: Timestamp(seconds: firstCheckOut, offsetSeconds: 7_200), tables: [table])
    do {
        if writeCSV {
            _ = try CSVWriter().write(report, to: output)
        } else {
            try XLSXWriter().write(report, to: output)
        }
    } catch {
        FileHandle.standardError.write(Data("report-bench: \(error)\n".utf8))
        exit(1)
    }
}
