import Import
import DomainInterface
import Foundation
import ArgumentParsing
import Time
import Store

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
            .value("inbox", "DIR", help: "The folder the exporters drop files into (required)."),
            .value(
                "archive", "DIR",
                help: "Where imported files go (default: archive/ beside the inbox, created when missing)."),
            .value(
                "output", "DIR", short: "o",
                help: "The folder for the reports (default: Reports/, created when missing)."),
            .value(
                "only", "DOMAINS",
                help:
                    "Write only these domains' reports, comma-separated names of report commands, e.g. fleet,habits "
                    + "(default: all)."
            ),
            CommonOptions.asOf, CommonOptions.database, CommonOptions.busyTimeout, CommonOptions.quiet,
        ])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let settings = try NightlySettings(context)
        // The lock of the database, not of this machine: machines sharing one server share it.
        switch try Database.tryExclusiveLock(
            named: "nightly", path: settings.databasePath, busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds)
        {
        case .held(let holderName):
            // A log line like every other of the job: UTC time first (issue 12).
            NightlyLog(console: context.console).warning("another run holds \(holderName); nothing done")
            return .busy
        case .acquired(let lock):
            defer { lock.release() }
            var run = NightlyRun(settings: settings, context: context)
            return run.run()
        }
    }
}

/// The nightly job's arguments, checked before anything is touched.
struct NightlySettings {
    let inbox: String
    let archive: String
    let archiveIsDefault: Bool
    let output: String?
    let asOf: Timestamp
    let databasePath: String
    /// How long to wait for another writer (`--busy-timeout`), in milliseconds.
    let busyTimeoutMilliseconds: Int32
    /// The domains whose reports are written (`--only`); all by default.
    let domains: Set<DomainName>

    var failedFolder: String { inbox + "/failed" }
    /// The archive's folder for this run: the as-of day in Paris, where the exports are made.
    var archiveDay: Day { LocalTime.paris.day(of: asOf) }

    init(_ context: CommandContext) throws {
        guard var inbox = context.arguments.value("inbox") else {
            throw UsageError("--inbox DIR is required: the folder the exporters drop files into")
        }
        while inbox.count > 1, inbox.hasSuffix("/") { inbox.removeLast() }
        self.inbox = inbox
        if let archive = context.arguments.value("archive") {
            self.archive = archive
            archiveIsDefault = false
        } else {
            let parent = (inbox as NSString).deletingLastPathComponent
            self.archive = parent.isEmpty ? "archive" : (parent as NSString).appendingPathComponent("archive")
            archiveIsDefault = true
        }
        output = context.arguments.value("output")
        asOf = try context.asOf()
        databasePath = context.databasePath
        busyTimeoutMilliseconds = try context.busyTimeoutMilliseconds()
        domains = try NightlySettings.domains(context.arguments.value("only"), modules: context.modules)
        let inboxPath = NightlySettings.absolute(inbox), archivePath = NightlySettings.absolute(archive)
        if archivePath == inboxPath || archivePath.hasPrefix(inboxPath.hasSuffix("/") ? inboxPath : inboxPath + "/") {
            throw UsageError(
                "the archive \(archive) is inside the inbox \(inbox): its files would be imported again; give "
                    + "--archive DIR outside it"
            )
        }
    }

    /// `--only fleet,habits`: the named domains, or a usage error naming the unknown one.
    static func domains(_ text: String?, modules: [DomainModule]) throws -> Set<DomainName> {
        let known = modules.map(\.name)
        guard let text else { return Set(known) }
        var domains = Set<DomainName>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({
            $0.trimmingCharacters(in: .whitespaces)
        }) {
            guard let domain = known.first(where: { $0.rawValue == name }) else {
                let names = known.map(\.rawValue)
                throw UsageError(
                    "--only: unknown domain \"\(name)\"" + Suggestion.clause(for: name, among: names)
                        + "; domains: " + names.joined(separator: ", "))
            }
            domains.insert(domain)
        }
        return domains
    }

    /// An absolute path without `.`/`..` components, following symbolic links where they exist.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
