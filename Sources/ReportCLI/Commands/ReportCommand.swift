import ArgumentParsing
import DomainInterface

/// `report habits|bookings|fleet`: one command per registered domain, made from the domain's
/// `DomainReport`. The domain checks its own options and names the analysis; this adds the
/// options every report shares, reads one snapshot of the database and writes the formats asked for.
enum ReportCommand {
    static let allowEmpty = OptionSpec.flag(
        "allow-empty", help: "Write the report and exit 0 when its period holds no data (else exit 5, nothing written)."
    )

    static func entry(for module: DomainModule) -> CommandEntry {
        let command = module.report.command
        let spec = CommandSpec(
            name: command.name, abstract: command.abstract, discussion: command.discussion,
            options: command.options.filter { $0.name != "help" } + [
                CommonOptions.asOf, CommonOptions.database, CommonOptions.busyTimeout,
            ]
                + ReportOutput.options + [allowEmpty, CommonOptions.quiet])
        return CommandEntry(spec: spec) { context in
            let request: ReportRequest
            do {
                request = try module.report.request(context.arguments, try context.asOf())
            } catch let needed as ScopeRequired {
                return try listScopes(of: module, needed, context)
            }
            if module.report.requiresData { try ReportPreconditions.requireData(of: module, context) }
            let report = try DatabaseAccess.report(request, context)
            // A period without data is one line and exit 5 (SPEC §7), unless the caller takes it.
            if let line = report.emptyPeriod {
                guard context.arguments.flag("allow-empty") else { throw EmptyPeriod(line) }
                context.console.info("report \(command.name): " + line)
            }
            return try ReportOutput.write(report, context)
        }
    }

    /// `report fleet` without `--event`: the events on standard output, one a line. When a report
    /// was asked for (a format, `--table`), a usage error with the same list, so that a script
    /// never takes the list for its report.
    static func listScopes(
        of module: DomainModule, _ needed: ScopeRequired, _ context: CommandContext
    ) throws
        -> ExitCode
    {
        let scopes = try DatabaseAccess.withSnapshot(context) { try module.reportScopes($0) }
        let arguments = context.arguments
        if arguments.flag("xlsx") || arguments.flag("csv") || arguments.flag("md") || arguments.value("table") != nil {
            let known = scopes.map { $0.options + " (" + $0.range + ")" }
            throw UsageError(
                needed.description + "; "
                    + (known.isEmpty
                        ? "the database holds no \(module.name) data" : "give one of: " + known.joined(separator: ", "))
            )
        }
        guard !scopes.isEmpty else {
            throw CommandFailure(
                "\(context.databasePath) holds no \(module.name) data; import its exports first ("
                    + module.kinds.map(\.name).joined(separator: ", ") + ")")
        }
        context.console.output(StatusCommand.align(StatusCommand.scopeLines(scopes, withDomain: false)))
        return .success
    }
}
