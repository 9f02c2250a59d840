import ArgumentParsing
import Foundation
import Import
import ReportApp

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
            CommonOptions.database.spec, CommonOptions.busyTimeout.spec, ImportOptions.kind.spec,
            ImportOptions.strict.spec, ImportOptions.force.spec, CommonOptions.quiet.spec,
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
            stored anywhere. The rules are those of an import into the database --db names: on
            PostgreSQL a text holding U+0000 (NUL) is rejected too. Exit code 3 when records would
            be rejected, 1 when a file is malformed or cannot be read.
            """,
        positionals: "PATH...", minimumPositionals: 1,
        options: [
            ImportOptions.kind.spec, ImportOptions.checkStrict.spec, ImportOptions.checkDatabase.spec,
            CommonOptions.quiet.spec,
        ])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        try ImportRun.run(context, checkOnly: true)
    }
}

/// The work shared by `import` and `check`.
enum ImportRun {
    static func run(_ context: CommandContext, checkOnly: Bool) throws -> ExitCode {
        let console = context.console
        let settings = try ImportSettings(context, checkOnly: checkOnly)
        let entries = settings.entries
        let modules = context.modules.map(\.imports)
        // A check opens no database at all: it reads and validates, as an import does.
        let reading: FileReading
        let readFile: (ImportFiles.Entry) -> FileOutcome
        if let database = settings.database {
            let importer = try Importer(
                database: try DatabaseAccess.forWriting(database), modules: modules, options: settings.options,
                layout: context.modules.flatMap(\.distribution))
            (reading, readFile) = (importer, importer.importFile)
        } else {
            let check = ImportCheck(modules: modules, options: settings.options, refusesNUL: settings.checkRefusesNUL)
            (reading, readFile) = (check, check.checkFile)
        }
        ImportMessages.showProgress(of: reading, on: console)
        let started = Date()
        var totals = (files: 0, imported: 0, skipped: 0, failed: 0, records: 0, accepted: 0, rejected: 0)
        for entry in entries {
            let outcome = readFile(entry)
            console.clearProgress()
            totals.files += 1
            totals.records += outcome.records
            totals.accepted += outcome.accepted
            totals.rejected += outcome.rejected
            for message in ImportMessages.rejectionLines(outcome) { console.error(message) }
            for warning in ImportMessages.warningLines(outcome) { console.error(warning) }
            let kind = outcome.kind?.name ?? "?"
            switch outcome.status {
            case .imported, .checked:
                totals.imported += 1
                if !console.quiet {
                    console.output(
                        ("\(checkOnly ? "checked " : "imported") \(outcome.file) (\(kind)): \(outcome.records) "
                            + "records, \(outcome.accepted) accepted, \(outcome.rejected) "
                            + "rejected\(ImportMessages.recordsMemberNote(outcome))")
                            .oneLine())
                }
            case .skipped(let reason):
                totals.skipped += 1
                if !console.quiet { console.output("skipped  \(outcome.file) (\(kind)): \(reason)".oneLine()) }
            case .failed(let reason):
                totals.failed += 1
                console.error(ImportMessages.failureLine(outcome.file, reason))
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
}
