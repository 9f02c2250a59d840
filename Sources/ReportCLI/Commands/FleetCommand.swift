import Fleet
import Foundation
import ArgumentParsing
import ReportModel

/// `report fleet --event ID`: the fleet manager's report of one motor show.
public enum FleetCommand: Command {
    public static let spec = CommandSpec(
        name: "fleet",
        abstract: "Fleet report of one event: utilization, loans, late returns, damage.",
        discussion: """
            Utilization is the union of each car's loans within the event's opening hours, to date at
            --as-of. Files: fleet-<event>.xlsx, fleet-<event>/ (CSV), fleet-<event>.md (+ SVG charts).
            """,
        options: [
            .value("event", "ID", help: "The event (required), e.g. salon2016."),
            .value("grace-minutes", "N", help: "Minutes after the planned return before a return is late (default 15)."),
            CommonOptions.asOf, CommonOptions.database, CommonOptions.busyTimeout,
        ] + ReportOutput.options + [CommonOptions.quiet])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        guard let event = context.arguments.value("event") else {
            throw UsageError("--event is required; see `report status` for the imported events")
        }
        var grace = 15
        if let text = context.arguments.value("grace-minutes") {
            guard let value = Int(text), value >= 0, value <= 10_000 else {
                throw UsageError("--grace-minutes: invalid number \"\(text)\" (0 to 10000)")
            }
            grace = value
        }
        let options = FleetOptions(eventId: event, asOf: try context.asOf(), graceMinutes: grace)
        return try ReportOutput.write(try makeReport(options, context), context)
    }

    /// The report of one event, read from the context's database (also used by `report nightly`).
    static func makeReport(_ options: FleetOptions, _ context: CommandContext) throws -> Report {
        try ReportOutput.withDatabase(context) { try FleetAnalysis.report(database: $0, options: options) }
    }
}
