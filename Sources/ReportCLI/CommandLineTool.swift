import Foundation
import ReportCore

/// The `report` command line: dispatches to a subcommand and turns every error into one line on
/// standard error and an exit code (SPEC §7). Help goes to standard output.
public enum CommandLineTool {
    public static let commands: [any Command.Type] = [
        ImportCommand.self, CheckCommand.self, StatusCommand.self,
        HabitsCommand.self, BookingsCommand.self, FleetCommand.self,
        NightlyCommand.self,
    ]

    public static func run(_ arguments: [String], console: Console = .standard(),
                           environment: [String: String] = ProcessInfo.processInfo.environment) -> ExitCode {
        guard let first = arguments.first else {
            console.error(HelpFormatter.overview(commands: commands.map { $0.spec }).trimmingTrailingNewline())
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            if first == "help", arguments.count > 1, let command = find(arguments[1]) {
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
        guard let command = find(first) else {
            console.error("report: unknown command \"\(first)\"; commands: \(commands.map { $0.spec.name }.joined(separator: ", ")); see `report --help`")
            return .usage
        }
        var databasePath = "the database"
        do {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec)
            if parsed.flag("help") {
                console.output(HelpFormatter.help(for: command.spec))
                return .success
            }
            console.quiet = parsed.flag("quiet")
            let context = CommandContext(arguments: parsed, console: console, environment: environment)
            databasePath = context.databasePath
            return try command.run(context)
        } catch let error as UsageError {
            console.error("report \(command.spec.name): \(error.message.oneLine())")
            return .usage
        } catch {
            console.error("report \(command.spec.name): \(Self.describe(error, database: databasePath))")
            return .failure
        }
    }

    static func find(_ name: String) -> (any Command.Type)? { commands.first { $0.spec.name == name } }

    /// The one line for a failure: a database problem (locked, read-only, damaged, full) says
    /// which database and what to do; anything else is already written for the user.
    static func describe(_ error: any Error, database: String) -> String {
        let text = (error as? any StoreFailure)?.advice(database: StoreLocation.display(database)) ?? String(describing: error)
        return text.oneLine()
    }
}

extension String {
    /// Line breaks (from a path or a value quoted in a message) shown as `\n`, so that an error
    /// stays the one line that cron mails and scripts grep.
    func oneLine() -> String {
        guard contains(where: \.isNewline) else { return self }
        var result = ""
        for character in self {
            if character == "\r\n" { result += "\\r\\n" } else if character == "\n" { result += "\\n" }
            else if character == "\r" { result += "\\r" } else if character.isNewline { result += " " }
            else { result.append(character) }
        }
        return result
    }

    func trimmingTrailingNewline() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
