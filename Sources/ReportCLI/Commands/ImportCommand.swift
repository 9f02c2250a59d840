import Foundation
import ArgumentParsing
import Import
import ReportModel
import Store
import JSON

/// `report import PATH...`: store export files in the database.
public enum ImportCommand: Command {
    public static let spec = CommandSpec(
        name: "import",
        abstract: "Import export files (or folders of them, recursively) into the database.",
        discussion: """
            Each file is one transaction: a file that fails stores nothing and the others still import.
            Records are upserted by key, so importing a file twice never duplicates anything; a file whose
            SHA-256 was already imported is skipped unless --force. Invalid records are rejected, listed on
            standard error and kept in the import_rejects table; the valid ones are stored.
            Exit code 3 means the import finished but some records were rejected.
            """,
        positionals: "PATH...", minimumPositionals: 1,
        options: [
            CommonOptions.database, CommonOptions.busyTimeout,
            .value("kind", "NAME", help: "Treat every file as this kind instead of telling it from the file name."),
            .flag("strict", help: "Fail a whole file (store nothing of it) at its first rejected record."),
            .flag("force", help: "Import files again even when the same content was imported before."),
            CommonOptions.quiet,
        ])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        try ImportRun.run(context, checkOnly: false)
    }
}

/// `report check PATH...`: validate without storing anything.
public enum CheckCommand: Command {
    public static let spec = CommandSpec(
        name: "check",
        abstract: "Validate export files without storing anything; same messages as import.",
        discussion: """
            Reads every record and applies every rule of import, and opens no database: nothing is
            stored anywhere. Exit code 3 when records would be rejected, 1 when a file is
            malformed or cannot be read.
            """,
        positionals: "PATH...", minimumPositionals: 1,
        options: [
            .value("kind", "NAME", help: "Treat every file as this kind instead of telling it from the file name."),
            .flag("strict", help: "Report a whole file as failing at its first rejected record."),
            CommonOptions.quiet,
        ])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        try ImportRun.run(context, checkOnly: true)
    }
}

/// The work shared by `import` and `check`.
enum ImportRun {
    /// A folder argument holding no export file is a failure, not a quiet success of 0 files:
    /// a wrong path or a cron job looking at an empty mount must be seen (issue 12). Checked
    /// before the database is opened, so nothing is created or changed.
    static func requireExportFiles(in arguments: [String], found entries: [ImportFiles.Entry]) throws {
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            if !entries.contains(where: { $0.path.hasPrefix(prefix) }) {
                throw CommandFailure("no export files under \(argument) (looked for *.json, *.jsonl, *.ndjson and .gz)")
            }
        }
    }

    static func run(_ context: CommandContext, checkOnly: Bool) throws -> ExitCode {
        let console = context.console
        let settings = try ImportSettings(context, checkOnly: checkOnly)
        let entries = settings.entries
        let modules = context.modules.map(\.imports)
        // A check opens no database at all: it reads and validates, as an import does.
        let reading: FileReading
        let readFile: (ImportFiles.Entry) -> FileOutcome
        if checkOnly {
            let check = ImportCheck(modules: modules, options: settings.options)
            (reading, readFile) = (check, check.checkFile)
        } else {
            let importer = try Importer(
                database: try DatabaseAccess.forWriting(context), modules: modules, options: settings.options)
            (reading, readFile) = (importer, importer.importFile)
        }
        showProgress(of: reading, on: console)
        let started = Date()
        var totals = (files: 0, imported: 0, skipped: 0, failed: 0, records: 0, accepted: 0, rejected: 0)
        for entry in entries {
            let outcome = readFile(entry)
            console.clearProgress()
            totals.files += 1
            totals.records += outcome.records
            totals.accepted += outcome.accepted
            totals.rejected += outcome.rejected
            for message in rejectionLines(outcome) { console.error(message) }
            for warning in warningLines(outcome) { console.error(warning) }
            let kind = outcome.kind?.name ?? "?"
            switch outcome.status {
            case .imported, .checked:
                totals.imported += 1
                if !console.quiet {
                    console.output(
                        ("\(checkOnly ? "checked " : "imported") \(outcome.file) (\(kind)): \(outcome.records) "
                            + "records, \(outcome.accepted) accepted, \(outcome.rejected) "
                            + "rejected\(recordsMemberNote(outcome))")
                            .oneLine())
                }
            case .skipped(let reason):
                totals.skipped += 1
                if !console.quiet { console.output("skipped  \(outcome.file) (\(kind)): \(reason)".oneLine()) }
            case .failed(let reason):
                totals.failed += 1
                console.error(failureLine(outcome.file, reason))
            }
        }
        let seconds = Date().timeIntervalSince(started)
        let verb = checkOnly ? "check" : "import"
        let done = checkOnly ? "checked" : "imported"
        if !console.quiet || totals.failed > 0 || totals.rejected > 0 {
            console.output(
                "\(verb): \(totals.files) files (\(totals.imported) \(done), \(totals.skipped) skipped, "
                    + "\(totals.failed) failed), \(totals.records) records, \(totals.accepted) accepted, "
                    + "\(totals.rejected) rejected in \(Formatting.seconds(seconds))"
            )
        }
        if totals.failed > 0 { return .failure }
        return totals.rejected > 0 ? .rejected : .success
    }

    /// Draws the one progress line while a file is read (at a terminal only).
    static func showProgress(of reading: FileReading, on console: Console) {
        reading.progress = { progress in
            var line = "importing \(progress.file)  \(progress.records) records"
            if let bytes = progress.bytes, bytes.total > 0 {
                line +=
                    "  \(Int(Double(bytes.read) / Double(bytes.total) * 100)) % of "
                    + "\(Formatting.megabytes(Int(bytes.total)))"
            }
            console.progress(line)
        }
    }

    /// The lines naming a file's rejected records: the first ones, then how many more.
    static func rejectionLines(_ outcome: FileOutcome) -> [String] {
        var lines = outcome.rejectMessages
        if outcome.rejected > outcome.rejectMessages.count, !outcome.failed {
            let more = "\(outcome.file): \(outcome.rejected - outcome.rejectMessages.count) more rejected records"
            lines.append(
                more
                    + (outcome.status == .checked
                        ? " (check stores nothing: `report import` keeps them all in the import_rejects table)"
                        : " (all are in the import_rejects table)"))
        }
        return lines.map { $0.oneLine() }
    }

    /// `F: warning: the file is empty (0 bytes): no records; …`, one line per warning.
    static func warningLines(_ outcome: FileOutcome) -> [String] {
        outcome.warnings.map { "\(outcome.file): warning: \($0)".oneLine() }
    }

    /// ` (records from member "tasks")` for a wrapper, so that a file read from an unexpected
    /// member (a one-line record that looks like a wrapper) shows it; empty for other layouts.
    static func recordsMemberNote(_ outcome: FileOutcome) -> String {
        guard let member = outcome.layout?.recordsMember else { return "" }
        return " (records from member \(JSONValue.string(member).excerpt()))"
    }

    /// The one line saying why a file failed (`report nightly` also writes it beside the file).
    static func failureLine(_ file: String, _ reason: String) -> String {
        "\(file): \(reason)".oneLine()
    }
}
