import Foundation
import ArgumentParsing
import ReportModel
import Store
import Time
import Writers

/// A value set by another thread, read after it finished.
final class ConcurrentResult<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?

    func set(_ value: Result<Value, any Error>) {
        lock.lock(); defer { lock.unlock() }
        result = value
    }

    func get() -> Result<Value, any Error>? {
        lock.lock(); defer { lock.unlock() }
        return result
    }
}

/// Writes a `Report` in the formats a command asked for (SPEC §6): `--xlsx`, `--csv`, `--md`, any
/// combination, each file written aside and renamed into place; none given: the Markdown report on
/// standard output.
enum ReportOutput {
    static let defaultDirectory = "Reports"

    /// The options every report command shares.
    static let options: [OptionSpec] = [
        .flag("xlsx", help: "Write the XLSX workbook."),
        .flag("csv", help: "Write the CSV tables (one folder per report)."),
        .flag("md", help: "Write the Markdown report and its charts (SVG and PNG)."),
        .value(
            "output", "DIR", short: "o", help: "The folder for the files (default: Reports/, created when missing)."),
        .flag("bom", help: "Start CSV files with a UTF-8 byte order mark (for Excel)."),
        .value("table", "NAME", help: "Write only this CSV table, to standard output (for a dashboard loader)."),
        .flag(
            "schema",
            help: "With --table: print the table's schema (Frictionless Table Schema, JSON) instead of its rows."),
    ]

    /// Writes the report; paths of written files go to standard error (`--quiet` drops them).
    static func write(_ report: Report, _ context: CommandContext) throws -> ExitCode {
        let arguments = context.arguments
        let csvOptions = CSVOptions(bom: arguments.flag("bom"))
        if let name = arguments.value("table") {
            // --table prints one CSV table and writes no file: asking for files too is a mistake
            // that would otherwise pass in silence (issue 12).
            if arguments.flag("xlsx") || arguments.flag("md") {
                throw UsageError(
                    "--table prints one CSV table to standard output and writes no file; drop --xlsx and --md, or "
                        + "drop --table"
                )
            }
            let writer = CSVWriter(options: csvOptions)
            let schema = arguments.flag("schema")
            if name == "summary", report.table(named: name) == nil {
                try context.console.withOutputSink { sink in
                    if schema {
                        try sink.write(writer.summarySchema(report.figures))
                    } else {
                        try writer.writeSummary(report.figures, to: sink)
                    }
                }
                return .success
            }
            guard let table = report.table(named: name), table.outputs.contains(.csv) else {
                let names = report.tables.filter { $0.outputs.contains(.csv) }.map(\.name) + ["summary"]
                throw UsageError(
                    "--table: no CSV table \"\(name)\" in this report; tables: \(names.joined(separator: ", "))")
            }
            try context.console.withOutputSink { sink in
                if schema { try sink.write(writer.schema(of: table)) } else { try writer.writeTable(table, to: sink) }
            }
            return .success
        }
        if arguments.flag("schema") {
            throw UsageError(
                "--schema prints the schema of one CSV table: add --table NAME (a CSV folder has its schema in "
                    + CSVWriter.schemaFileName + ")")
        }
        if arguments.value("table") == nil, arguments.flag("bom"), !arguments.flag("csv") {
            throw UsageError("--bom applies to CSV files: add --csv")
        }
        let formats = (xlsx: arguments.flag("xlsx"), csv: arguments.flag("csv"), md: arguments.flag("md"))
        guard formats.xlsx || formats.csv || formats.md else {
            if arguments.value("output") != nil {
                throw UsageError("-o/--output needs a format: --xlsx, --csv or --md")
            }
            let markdown = MarkdownWriter().render(report, links: .none).markdown  // no picture file is written
            try context.console.withOutputSink { try $0.write(markdown) }
            return .success
        }
        let directory = try outputDirectory(arguments.value("output"))
        let result = try writeFiles(report, formats: formats, csvOptions: csvOptions, to: directory)
        for url in result.written { context.console.info("wrote " + displayPath(url)) }
        if let failure = result.failure { throw failure }
        return .success
    }

    /// Writes the report's files in the given formats into `directory`: the URLs written (workbook
    /// first) and the first error. Every format is attempted even when one fails, so a broken
    /// workbook does not cost the CSV tables. Shared by the report commands and `report nightly`.
    static func writeFiles(
        _ report: Report, formats: (xlsx: Bool, csv: Bool, md: Bool), csvOptions: CSVOptions,
        to directory: URL
    ) throws -> (written: [URL], failure: (any Error)?) {
        // The workbook (libxlsxwriter, single-threaded) is written on a second thread while the CSV
        // and Markdown files are written on this one: the formats are independent, and the rows of
        // a Report can be read by several writers at once.
        let workbook = ConcurrentResult<[URL]>()
        let group = DispatchGroup()
        if formats.xlsx {
            DispatchQueue.global().async(group: group) {
                workbook.set(Result { try XLSXWriter().write(report, into: directory) })
            }
        }
        let writers: [any ReportWriter] =
            (formats.csv ? [CSVWriter(options: csvOptions)] : [])
            + (formats.md ? [MarkdownWriter()] : [])
        var written: [URL] = []
        var firstError: (any Error)?
        do {
            for writer in writers { written += try writer.write(report, into: directory) }
        } catch {
            firstError = error
        }
        group.wait()
        switch workbook.get() {
        case .success(let urls): written.insert(contentsOf: urls, at: 0)
        case .failure(let error): firstError = firstError ?? error
        case nil: break
        }
        return (written, firstError)
    }

    /// A path relative to the current folder when it is below it (shorter log lines).
    static func displayPath(_ url: URL) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        return url.path.hasPrefix(current) ? String(url.path.dropFirst(current.count)) : url.path
    }

    /// The output folder: an explicit one must exist (a typo should not scatter reports); the
    /// default `Reports/` is created when missing.
    static func outputDirectory(_ explicit: String?) throws -> URL {
        let path = explicit ?? defaultDirectory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure("\(path): not a folder; give -o DIR") }
        } else if explicit == nil {
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw CommandFailure("\(path): cannot create the output folder (\(error.localizedDescription))")
            }
        } else {
            throw CommandFailure("\(path): no such output folder; create it or give another -o DIR")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
