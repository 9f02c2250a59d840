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
            On a Citus coordinator (--db postgresql://…), each domain's big tables are split by the
            column their reports read by (habits by user, bookings by customer, fleet by event), the
            tables of a domain placed together, and its small tables copied to every worker. An
            import into a coordinator does this itself before its first row; this command lays out
            a database filled before Citus was installed in it (Citus moves the rows into shards).
            A table already laid out is left as it is, so running it again changes nothing. One
            line per table on standard output. See docs/SCALE.md.
            """,
        options: [CommonOptions.database.spec, CommonOptions.busyTimeout.spec, CommonOptions.quiet.spec])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let database = try DatabaseAccess.forReading(try context.databaseSettings(), modules: context.modules)
        let steps = try database.distribute(context.modules.flatMap(\.distribution))
        for step in steps { context.console.output("\(step.table): \(step.outcome)") }
        context.console.info("laid out \(steps.count) tables of \(database.path)")
        return .success
    }
}
