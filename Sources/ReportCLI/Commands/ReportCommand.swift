import ArgumentParsing
import DomainInterface
import Foundation
import ReportApp
import ReportModel
import Writers

/// `report habits|bookings|fleet`: one command per registered domain, made from the domain's
/// `DomainReport`. The domain checks its own options and names the analysis; this adds the
/// options every report shares, opens the database once (its schema checked once), makes the
/// report from one snapshot and writes the formats asked for.
enum ReportCommand {
    static func entry(for module: DomainModule) -> CommandEntry {
        let command = module.report.command
        let spec = CommandSpec(
            name: command.name, abstract: command.abstract, discussion: command.discussion,
            options: command.options.filter { $0.name != "help" } + [
                CommonOptions.asOf.spec, CommonOptions.database.spec, CommonOptions.busyTimeout.spec,
            ]
                + ReportDestination.options + [allowEmpty.spec, CommonOptions.quiet.spec])
        return CommandEntry(spec: spec) { context in
            let destination = try ReportDestination(context.arguments)
            let request: ReportRequest
            do {
                request = try module.report.request(context.arguments, try context.asOf())
            } catch let needed as ScopeRequired {
                return try listScopes(of: module, needed, destination: destination, context)
            }
            let database = try DatabaseAccess.forReading(try context.databaseSettings(), modules: context.modules)
            let report = try ReportMaking.make(request, of: module, from: database)
            // A period without data is one line and exit 5 (SPEC §7), unless the caller takes it.
            if let line = report.emptyPeriod {
                guard context.arguments[allowEmpty] else { throw EmptyPeriod(line) }
                context.console.info("report \(command.name): " + line)
            }
            return try destination.write(report, console: context.console)
        }
    }

    static let allowEmpty = Flag(
        "allow-empty", help: "Write the report and exit 0 when its period holds no data (else exit 5, nothing written)."
    )

    /// `report fleet` without `--event`: the events on standard output, one a line. When a report
    /// was asked for (a format, `--table`), a usage error with the same list, so that a script
    /// never takes the list for its report.
    static func listScopes(
        of module: DomainModule, _ needed: ScopeRequired, destination: ReportDestination, _ context: CommandContext
    ) throws -> ExitCode {
        let database = try DatabaseAccess.forReading(try context.databaseSettings(), modules: context.modules)
        let scopes = try database.transaction(immediate: false) { try module.reportScopes(database) }
        if case .markdownOnStandardOutput = destination {
            guard !scopes.isEmpty else { throw ReportMaking.noData(of: module, database) }
            context.console.output(StatusCommand.align(StatusCommand.scopeLines(scopes, withDomain: false)))
            return .success
        }
        let known = scopes.map { $0.options + " (" + $0.range + ")" }
        throw UsageError(
            needed.description + "; "
                + (known.isEmpty
                    ? "the database holds no \(module.name) data" : "give one of: " + known.joined(separator: ", ")))
    }
}

/// The options of every report command that say where the report goes, each declared once.
enum ReportOutputOptions {
    static let xlsx = Flag("xlsx", help: "Write the XLSX workbook.")
    static let csv = Flag("csv", help: "Write the CSV tables (one folder per report).")
    static let markdown = Flag("md", help: "Write the Markdown report and its charts (SVG and PNG).")
    static let output = Option<String>(
        "output", "DIR", short: "o",
        help: "The folder for the files (default: Reports/; created with its parents when missing).")
    static let bom = Flag("bom", help: "Start CSV files with a UTF-8 byte order mark (for Excel).")
    static let table = Option<String>(
        "table", "NAME", help: "Write only this CSV table, to standard output (for a dashboard loader).")
    static let schema = Flag(
        "schema", help: "With --table: print the table's schema (Frictionless Table Schema, JSON) instead of its rows.")
}

/// Where a report goes (SPEC §6), read once from the options: `--xlsx`, `--csv`, `--md`, any
/// combination, as files in a folder; one CSV table on standard output (`--table`); or, with no
/// format, the Markdown report on standard output.
enum ReportDestination {
    case markdownOnStandardOutput
    /// One CSV table on standard output, or its Table Schema (`--schema`).
    case table(name: String, csv: CSVOptions, schema: Bool)
    case files(Outputs, directory: String?, csv: CSVOptions)

    static let options = [
        ReportOutputOptions.xlsx.spec, ReportOutputOptions.csv.spec, ReportOutputOptions.markdown.spec,
        ReportOutputOptions.output.spec, ReportOutputOptions.bom.spec, ReportOutputOptions.table.spec,
        ReportOutputOptions.schema.spec,
    ]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let csv = CSVOptions(bom: arguments[ReportOutputOptions.bom])
        var formats: Outputs = []
        if arguments[ReportOutputOptions.xlsx] { formats.insert(.xlsx) }
        if arguments[ReportOutputOptions.csv] { formats.insert(.csv) }
        if arguments[ReportOutputOptions.markdown] { formats.insert(.markdown) }
        if let name = try arguments.value(ReportOutputOptions.table) {
            // --table prints one CSV table and writes no file: asking for files too is a mistake
            // that would otherwise pass in silence (issue 12).
            if formats.contains(.xlsx) || formats.contains(.markdown) {
                throw UsageError(
                    "--table prints one CSV table to standard output and writes no file; drop --xlsx and --md, or "
                        + "drop --table"
                )
            }
            self = .table(name: name, csv: csv, schema: arguments[ReportOutputOptions.schema])
            return
        }
        if arguments[ReportOutputOptions.schema] {
            throw UsageError(
                "--schema prints the schema of one CSV table: add --table NAME (a CSV folder has its schema in "
                    + CSVWriter.schemaFileName + ")")
        }
        if csv.bom, !formats.contains(.csv) { throw UsageError("--bom applies to CSV files: add --csv") }
        let directory = try arguments.value(ReportOutputOptions.output)
        if formats.isEmpty {
            if directory != nil { throw UsageError("-o/--output needs a format: --xlsx, --csv or --md") }
            self = .markdownOnStandardOutput
            return
        }
        self = .files(formats, directory: directory, csv: csv)
    }

    /// Writes the report; paths of written files go to standard error (`--quiet` drops them).
    func write(_ report: Report, console: Console) throws -> ExitCode {
        switch self {
        case .markdownOnStandardOutput:
            let markdown = MarkdownWriter().render(report, links: .none).markdown  // no picture file is written
            try console.withOutputSink { try $0.write(markdown) }
        case .table(let name, let csv, let schema):
            let writer = CSVWriter(options: csv)
            if name == "summary", report.table(named: name) == nil {
                try console.withOutputSink { sink in
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
            try console.withOutputSink { sink in
                if schema { try sink.write(writer.schema(of: table)) } else { try writer.writeTable(table, to: sink) }
            }
        case .files(let formats, let directory, let csv):
            let folder = try ReportFiles.outputDirectory(directory)
            let result = ReportFiles.write(report, formats: formats, csvOptions: csv, to: folder)
            for url in result.written { console.info("wrote " + ReportFiles.displayPath(url)) }
            if let failure = result.failure { throw failure }
        }
        return .success
    }
}
