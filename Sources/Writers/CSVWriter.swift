import ByteOutput
import Foundation
import ReportModel

/// Options of the CSV output.
public struct CSVOptions: Sendable, Equatable {
    /// Start every file with a UTF-8 byte order mark (`--bom`), for spreadsheet programs that
    /// otherwise guess a legacy encoding.
    public var bom: Bool

    public init(bom: Bool = false) { self.bom = bom }
}

/// Writes the CSV tables of a report: the dashboard contract of SPEC §6.1.
///
/// RFC 4180: comma separators, `\r\n` after every record (the RFC's line break, which every CSV
/// reader accepts), fields quoted only when they hold `,` `"` CR or LF, quotes doubled. UTF-8,
/// header row always present. Numbers are formatted by the column's type (see `CSVFields`);
/// text cells that a spreadsheet would run as a formula get a leading `'`.
///
/// Rows are streamed from `table.rows` through a 64 KiB buffer, so a table of any length is
/// written with a small, flat memory footprint.
public struct CSVWriter: Sendable {
    public var options: CSVOptions

    public init(options: CSVOptions = CSVOptions()) { self.options = options }

    /// The schema file written beside the CSV files of a folder.
    public static let schemaFileName = "datapackage.json"

    /// Writes `<directory>/<sanitized baseName>/<table>.csv` for every table with `.csv` in its
    /// outputs, plus `summary.csv` from `report.figures` (unless a table is itself named
    /// `summary`), and their schema `datapackage.json` (`TableSchema`), as one folder swapped in
    /// atomically. Returns the final file URLs in order, the schema last.
    ///
    /// Throws `OutputError` when the directory is missing or not writable, or when two tables
    /// would write the same file.
    public func write(_ report: Report, to directory: URL) throws -> [URL] {
        let folder = try OutputFiles.location(of: report.baseName, in: directory)
        let tables = report.tables.filter { $0.outputs.contains(.csv) }
        var names: [String] = []
        for table in tables {
            let name = OutputFiles.fileName(table.name, extension: "csv")
            guard !names.contains(name) else {
                throw OutputError(
                    path: folder.appendingPathComponent(name).path, reason: .duplicateName,
                    operation: "name the CSV files")
            }
            names.append(name)
        }
        let summaryName = OutputFiles.fileName("summary", extension: "csv")
        let writesSummary = !names.contains(summaryName)
        try OutputFiles.writeFolder(at: folder) { temporary in
            var resources: [(table: Table?, file: String, schema: JSONText)] = []
            for (table, name) in zip(tables, names) {
                var digits: [Int?] = []
                try OutputFiles.writeFile(at: temporary.appendingPathComponent(name)) { sink in
                    digits = try writeTable(table, to: sink)
                }
                resources.append((table, name, TableSchema.schema(of: table, fractionDigits: digits)))
            }
            if writesSummary {
                try OutputFiles.writeFile(at: temporary.appendingPathComponent(summaryName)) { sink in
                    try writeSummary(report.figures, to: sink)
                }
                resources.append((nil, summaryName, TableSchema.summarySchema(report.figures)))
            }
            let package = TableSchema.package(report, resources: resources, bom: options.bom).rendered()
            try OutputFiles.writeFile(at: temporary.appendingPathComponent(Self.schemaFileName), contents: package)
        }
        return (names + (writesSummary ? [summaryName] : []) + [Self.schemaFileName]).map {
            folder.appendingPathComponent($0)
        }
    }

    /// The Table Schema (JSON) of one table as `writeTable` writes it, for `--table NAME --schema`:
    /// the one the table has in `datapackage.json`. `summary` without a table of that name is
    /// the schema of `summary.csv`.
    public func schema(of table: Table) -> String {
        TableSchema.schema(of: table, fractionDigits: CSVWriter.timestampFractionDigits(of: table)).rendered()
    }

    /// The Table Schema of `summary.csv`.
    public func summarySchema(_ figures: [Figure]) -> String { TableSchema.summarySchema(figures).rendered() }

    /// Writes one table (BOM if asked, header, rows) and flushes the sink: to a file, or to
    /// `ByteSink.standardOutput()` for piping. Returns the fractional digits written in each
    /// timestamp column (nil for the others), which the schema states.
    @discardableResult
    public func writeTable(_ table: Table, to sink: ByteSink) throws -> [Int?] {
        var fields = CSVFields()
        if options.bom { fields.appendByteOrderMark() }
        for (index, column) in table.columns.enumerated() {
            if index > 0 { fields.appendSeparator() }
            fields.appendText(column.name)
        }
        fields.appendLineEnd()
        let types = table.columns.map(\.type)
        let fractionDigits = CSVWriter.timestampFractionDigits(of: table)
        let rows = table.rows.makeIterator()
        while let row = rows.next() {
            // Every record has exactly the header's fields (RFC 4180): a short row gets empty
            // fields, values past the last column (an analyzer bug) are not written.
            for index in 0..<types.count {
                if index > 0 { fields.appendSeparator() }
                fields.append(
                    index < row.count ? row[index] : .empty, as: types[index],
                    fractionDigits: fractionDigits[index])
            }
            fields.appendLineEnd()
            if fields.bytes.count >= ByteSink.chunkSize { try fields.drain(into: sink) }
        }
        try fields.drain(into: sink)
        try sink.flush()
        return fractionDigits
    }

    /// The fractional digits of each column's timestamps (nil for a column without any): the
    /// most any of its values needs, 0, 3 or 6, so that every row of a column has one format
    /// and pandas' `to_datetime` or DuckDB's `read_csv_auto` read it as timestamps (a column
    /// mixing `…15:47:28+02:00` and `…15:47:28.859000+02:00` stays text there). It costs one
    /// more pass over the rows, made only for a table with a timestamp column.
    static func timestampFractionDigits(of table: Table) -> [Int?] {
        var digits = [Int?](repeating: nil, count: table.columns.count)
        let indices = table.columns.indices.filter { table.columns[$0].type == .timestamp }
        guard !indices.isEmpty else { return digits }
        for index in indices { digits[index] = 0 }
        let rows = table.rows.makeIterator()
        while let row = rows.next() {
            for index in indices where index < row.count {
                if case .timestamp(let timestamp) = row[index], let current = digits[index],
                    current < 6
                {
                    digits[index] = max(current, timestamp.fractionDigitsNeeded)
                }
            }
        }
        return digits
    }

    /// Writes `summary.csv`: a `metric,value` header, then one row per figure, its value
    /// formatted by the figure's own type.
    public func writeSummary(_ figures: [Figure], to sink: ByteSink) throws {
        var fields = CSVFields()
        if options.bom { fields.appendByteOrderMark() }
        fields.appendText("metric")
        fields.appendSeparator()
        fields.appendText("value")
        fields.appendLineEnd()
        for figure in figures {
            fields.appendText(figure.metric)
            fields.appendSeparator()
            fields.append(figure.value, as: figure.type)
            fields.appendLineEnd()
        }
        try fields.drain(into: sink)
        try sink.flush()
    }
}
