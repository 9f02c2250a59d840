import ArgumentParsing
import DomainInterface
import ReportApp
import Store

/// `report distribute`: lays the tables of every registered domain out over a Citus cluster.
public enum DistributeCommand: Command {
    public static let spec = CommandSpec(
        name: "distribute",
        abstract: "Spread the big tables over the workers of a Citus coordinator (idempotent).",
        discussion: """
            Run once on a Citus coordinator (--db postgresql://…) after the first `report import`
            into it: each domain's big tables are split by the column their reports read by (habits
            by user, bookings by customer, fleet by event), the tables of a domain placed together;
            its small tables are copied to every worker. A table already laid out is left as it is,
            so running it again does nothing. Imports, reports and `report nightly` then run through
            the coordinator as before. See docs/SCALE.md.
            """,
        options: [CommonOptions.database.spec, CommonOptions.busyTimeout.spec, CommonOptions.quiet.spec])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let database = try DatabaseAccess.forReading(try context.databaseSettings(), modules: context.modules)
        let steps = try database.distribute(context.modules.flatMap(\.distribution))
        for step in steps { context.console.info("\(step.table): \(step.outcome)") }
        context.console.info("distributed \(steps.count) tables of \(database.path)")
        return .success
    }
}
