import ArgumentParsing
import DomainInterface

/// `report habits|bookings|fleet`: one command per registered domain, made from the domain's
/// `DomainReport`. The domain checks its own options and names the analysis; this adds the
/// options every report shares, reads one snapshot of the database and writes the formats asked for.
enum ReportCommand {
    static func entry(for module: DomainModule) -> CommandEntry {
        let command = module.report.command
        let spec = CommandSpec(
            name: command.name, abstract: command.abstract, discussion: command.discussion,
            options: command.options.filter { $0.name != "help" } + [
                CommonOptions.asOf, CommonOptions.database, CommonOptions.busyTimeout,
            ]
                + ReportOutput.options + [CommonOptions.quiet])
        return CommandEntry(spec: spec) { context in
            let request = try module.report.request(context.arguments, try context.asOf())
            if module.report.requiresData { try ReportPreconditions.requireData(of: module, context) }
            return try ReportOutput.write(try DatabaseAccess.report(request, context), context)
        }
    }
}
