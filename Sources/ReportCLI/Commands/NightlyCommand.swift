import ArgumentParsing
import DomainInterface
import ReportApp

/// `report nightly`: the cron job. Imports what the exporters dropped in the inbox, files each file
/// away, then writes the morning's reports in every format. See docs/NIGHTLY.md.
public enum NightlyCommand: Command {
    public static let spec = CommandSpec(
        name: "nightly",
        abstract: "The cron job: import the inbox, archive it, then write every report.",
        discussion: """
            1. Takes the database's nightly lock (<db>.nightly.lock beside a SQLite file, an advisory lock
               on a server); while another run holds it, exits at once with code 4.
            2. Removes temporary files a killed run left in the output, archive and inbox/failed folders.
            3. Imports every export file below --inbox (.json, .jsonl, .ndjson; byte order of relative
               paths; hidden entries and inbox/failed/ skipped), one transaction per file, never forced.
               Each imported file, or one whose content was imported before, then moves to
               ARCHIVE/YYYY-MM-DD/<relative path> (the as-of day in Europe/Paris; a name already
               taken gets -2, -3...); a file that fails moves to inbox/failed/<relative path> with
               <name>.error.txt beside it saying why. Other files stay where they are.
            4. Writes XLSX, CSV and Markdown into -o: the fleet report of each event open on the as-of
               day or the day before (in the event's time zone), the habits report of yesterday
               (Europe/Paris) and the bookings report of the month to date.
            A killed run loses nothing: run it again. Log lines (UTC time, one per step, then a summary)
            go to standard error; --quiet keeps warnings and errors, and the summary only when something
            went wrong. Exit codes: 0 all done; 3 done, records rejected; 1 a file or report failed;
            2 usage error; 4 another run holds the lock.
            """,
        options: [
            inbox.spec, archive.spec, output.spec, only.spec, CommonOptions.asOf.spec, CommonOptions.database.spec,
            CommonOptions.busyTimeout.spec, CommonOptions.quiet.spec,
        ])

    static let inbox = Option<String>("inbox", "DIR", help: "The folder the exporters drop files into (required).")
    static let archive = Option<String>(
        "archive", "DIR",
        help:
            "Where imported files go (default: archive/ beside the inbox; created with its parents when missing).")
    static let output = Option<String>(
        "output", "DIR", short: "o",
        help: "The folder for the reports (default: Reports/; created with its parents when missing).")
    static let only = Option<String>(
        "only", "DOMAINS",
        help:
            "Write only these domains' reports, comma-separated names of report commands, e.g. fleet,habits "
            + "(default: all).")

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let arguments = context.arguments
        guard let inbox = try arguments.value(inbox) else {
            throw UsageError("--inbox DIR is required: the folder the exporters drop files into")
        }
        let settings = try NightlySettings(
            inbox: inbox, archive: try arguments.value(archive), output: try arguments.value(output),
            asOf: try context.asOf(), database: try context.databaseSettings(),
            domains: try NightlySettings.domains(try arguments.value(only), modules: context.modules))
        return try NightlyJob.run(settings, modules: context.modules, console: context.console)
    }
}
