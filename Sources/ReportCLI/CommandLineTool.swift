import ArgumentParsing
import DomainInterface
import Foundation
import ReportApp
import ReportModel
import Store

/// The `report` command line: dispatches to a subcommand and turns every error into one line on
/// standard error and an exit code (SPEC §7). Help goes to standard output.
///
/// The domains come from the caller (`report`'s main registers habits, bookings and fleet), so
/// nothing here names one: each module adds its report command and its part of status and nightly.
public enum CommandLineTool {
    /// The commands in the order help lists them: import, check, status, one report command per
    /// module, nightly, distribute.
    public static func commands(_ modules: [DomainModule]) -> [CommandEntry] {
        [CommandEntry(ImportCommand.self), CommandEntry(CheckCommand.self), CommandEntry(StatusCommand.self)]
            + modules.map(ReportCommand.entry) + [
                CommandEntry(NightlyCommand.self), CommandEntry(DistributeCommand.self),
            ]
    }

    public static func run(
        _ arguments: [String], modules: [DomainModule], console: Console = .standard(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ExitCode {
        let commands = commands(modules)
        // Every line on standard error is masked with the passwords of any connection string given,
        // in --db, in $REPORT_DB, or by mistake as another argument (issue 30).
        console.secrets = ConnectionSecrets(locations: arguments + [environment["REPORT_DB"] ?? ""])
        guard let first = arguments.first else {
            console.error(HelpFormatter.overview(commands: commands.map { $0.spec }).trimmingTrailingNewline())
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            if first == "help", arguments.count > 1,
                let command = commands.first(where: { $0.spec.name == arguments[1] })
            {
                console.output(HelpFormatter.help(for: command.spec))
            } else {
                console.output(HelpFormatter.overview(commands: commands.map { $0.spec }))
            }
            return .success
        }
        if first == "--version" {
            console.output("report \(ReportVersion.current)")
            return .success
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let names = commands.map { $0.spec.name }
            let hint = Suggestion.clause(for: first, among: names)
            console.error(
                "report: unknown command \"\(first)\""
                    + (hint.isEmpty
                        ? "; commands: \(names.joined(separator: ", ")); see `report --help`" : hint))
            return .usage
        }
        var databasePath = "the database"
        do {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec)
            if parsed[CommandSpec.help] {
                console.output(HelpFormatter.help(for: command.spec))
                return .success
            }
            console.quiet = parsed[CommonOptions.quiet]
            let context = CommandContext(
                arguments: parsed, console: console, environment: environment, modules: modules)
            databasePath = context.databasePath
            return try command.run(context)
        } catch {
            console.error("report \(command.spec.name): \(Self.describe(error, database: databasePath))")
            return exitCode(of: error)
        }
    }

    /// The exit code of an error: its own when it carries one (usage errors, domain errors), else 1.
    static func exitCode(of error: any Error) -> ExitCode {
        (error as? any ExitCodeError)?.exitCode ?? .failure
    }

    /// The one line for a failure: a database problem (locked, read-only, damaged, full) says
    /// which database and what to do; anything else is already written for the user.
    static func describe(_ error: any Error, database: String) -> String {
        FailureText.describe(error, database: database)
    }
}

extension String {
    func trimmingTrailingNewline() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
