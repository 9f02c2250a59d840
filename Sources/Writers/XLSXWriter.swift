import ByteOutput
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReportModel

/// Renders a `Report` as one XLSX workbook (SPEC §6.2): a Summary sheet with the headline figures
/// and native charts, a "Heat map" sheet when the report has one (hidden when the grid is small
/// enough to print on the Summary), then one sheet per table whose outputs include `.xlsx`, the
/// `quality` table last.
///
/// The file appears atomically: libxlsxwriter writes a hidden temporary file beside the target,
/// which is renamed over it only when complete, so a dashboard or a person never opens half a
/// workbook, and a failure leaves the previous file (if any) untouched.
public struct XLSXWriter: Sendable {
    /// Data rows per sheet before a table continues on `Title (2)`: Excel's limit, lowered by tests.
    var dataRowsPerSheet = XLSXTableSheet.maximumDataRowsPerSheet

    public init() {}

    /// Writes `report` to `url` (an `.xlsx` file path whose folder exists), replacing any file there.
    public func write(_ report: Report, to url: URL) throws {
        let target = try XLSXOutputPath(url)
        let temporary = target.temporarySibling()
        var succeeded = false
        defer { if !succeeded { unlink(temporary) } }
        let workbook = try XLSXWorkbook(
            path: temporary, temporaryDirectory: target.directory,
            zip64: XLSXWriter.needsZip64(report))
        defer { workbook.discard() }
        try fill(workbook, with: report)
        do {
            try workbook.close()
        } catch var failure as OutputError {
            failure.path = target.path  // the user knows the file by its final name, not the temporary one
            throw failure
        } catch let failure as XLSXError where failure.path == temporary {
            throw XLSXError(
                code: failure.code, message: failure.message, sheet: failure.sheet, cell: failure.cell,
                path: target.path)
        }
        try OutputFiles.moveIntoPlace(temporary, at: target.path)
        succeeded = true
    }

    private func fill(_ workbook: XLSXWorkbook, with report: Report) throws {
        try workbook.setProperties(
            title: report.title, subject: "\(report.kind) report, \(report.scope)",
            comments: "Made by report \(report.toolVersion)",
            created: Int64(report.asOf.seconds.rounded(.down)))
        let log = XLSXWriteLog()
        let printSetup = XLSXPrintSetup(title: report.title, scope: report.scope)
        var names = XLSXSheetNames()
        let summaryName = names.claim(XLSXSummarySheet.title)
        let summary = XLSXCellWriter(sheet: try workbook.addSheet(named: summaryName), sheetName: summaryName, log: log)
        var heatMapSheet: XLSXCellWriter?
        // A heat map with no cell above 0 is a sentence on the Summary, not a sheet of blanks.
        if let heatMap = report.heatMap, let sentence = ChartAbsence.sentence(for: heatMap) {
            log.note(sentence)
        } else if let heatMap = report.heatMap {
            let name = names.claim(XLSXHeatMapSheet.title)
            let cells = XLSXCellWriter(sheet: try workbook.addSheet(named: name), sheetName: name, log: log)
            try XLSXHeatMapSheet(heatMap: heatMap, workbook: workbook, cells: cells, printSetup: printSetup).write()
            heatMapSheet = cells
        }
        var placed: [String: XLSXPlacedTable] = [:]
        for table in XLSXWriter.sheetOrder(report.tables) {
            var sheet = XLSXTableSheet(
                table: table, workbook: workbook, log: log, dataRowsPerSheet: dataRowsPerSheet,
                printSetup: printSetup)
            sheet.hidden = !XLSXWriter.printsAlone(table, in: report)
            let place = try sheet.write(names: &names)
            if placed[table.name] == nil { placed[table.name] = place }
        }
        try XLSXSummarySheet(report: report, workbook: workbook, cells: summary, printSetup: printSetup)
            .write(placed: placed, heatMapSheet: heatMapSheet)
    }

    /// Whether a table's sheet prints on pages of its own. Not: a table that only feeds a chart
    /// (the chart on the Summary shows it), a table the report keeps off paper
    /// (`Table.printsInWorkbook`), and a table of at most one row (the Summary prints it, see
    /// `onSummary`). Such sheets stay in the workbook, hidden: a spreadsheet program prints no
    /// hidden sheet, and charts still draw from them.
    static func printsAlone(_ table: Table, in report: Report) -> Bool {
        table.printsInWorkbook && !feedsAChartOnly(table, in: report) && !onSummary(table)
    }

    /// A table outside the CSV contract whose data a chart draws.
    static func feedsAChartOnly(_ table: Table, in report: Report) -> Bool {
        !table.outputs.contains(.csv) && report.charts.contains { $0.table == table.name }
    }

    /// A table of at most one row, printed on the Summary as label and value lines.
    static func onSummary(_ table: Table) -> Bool {
        guard let count = table.rows.count else { return false }
        return count <= 1 && table.columns.count <= 12
    }

    /// The tables that go into the workbook, in report order with `quality` moved last.
    static func sheetOrder(_ tables: [Table]) -> [Table] {
        let included = tables.filter { $0.outputs.contains(.xlsx) }
        return included.filter { $0.name != "quality" } + included.filter { $0.name == "quality" }
    }

    /// ZIP64 lifts the 4 GB limit on one zipped part; it is only switched on when a sheet could
    /// get near it (a row count not known in advance, or many cells), since a classic zip is what
    /// every reader handles best.
    static func needsZip64(_ report: Report) -> Bool {
        var cells = 0
        for table in report.tables where table.outputs.contains(.xlsx) {
            guard let count = table.rows.count else { return true }
            cells += count * max(table.columns.count, 1)
        }
        return cells > 20_000_000
    }
}

/// A checked output path: a file in an existing, writable folder, not a folder itself.
///
/// Checked before libxlsxwriter runs, because the library reports a bad path by printing to
/// stderr as well as by returning an error, and cron must see one clear line from us instead.
struct XLSXOutputPath {
    let path: String
    let directory: String
    let fileName: String

    init(_ url: URL) throws {
        guard url.isFileURL else {
            throw XLSXError.invalid(
                "the output must be a local file, not \(url.absoluteString)", path: url.absoluteString)
        }
        let path = url.standardizedFileURL.path
        let fileName = (path as NSString).lastPathComponent
        let directory = (path as NSString).deletingLastPathComponent
        guard !fileName.isEmpty, fileName != "/", fileName != ".", fileName != "..", !path.hasSuffix("/"),
            !path.contains("\u{0}")
        else {
            throw XLSXError.invalid("the output path does not name a file", path: path)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw XLSXError.invalid(
                "the output folder \(directory) does not exist; create it or choose another -o",
                path: path)
        }
        guard access(directory, W_OK) == 0 else {
            throw XLSXError.invalid(
                "the output folder \(directory) is not writable (permission denied or read-only file system); choose "
                    + "a writable folder with -o",
                path: path)
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw XLSXError.invalid("the output path is a folder; give a file name ending in .xlsx", path: path)
        }
        self.path = path
        self.directory = directory
        self.fileName = fileName
    }

    /// A hidden name beside the target, unique to this process and call (`TemporaryNames`).
    func temporarySibling() -> String {
        TemporaryNames.sibling(of: URL(fileURLWithPath: directory).appendingPathComponent(fileName)).path
    }
}
