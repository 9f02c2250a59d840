import ArgumentParsing
import Foundation
import Import
import ReportApp
import Store

/// The options of `report import` and `report check`, each declared once.
enum ImportOptions {
    static let kind = Option<String>(
        "kind", "NAME", help: "Treat every file as this kind instead of telling it from the file name.")
    static let strict = Flag("strict", help: "Fail a whole file (store nothing of it) at its first rejected record.")
    static let checkStrict = Flag("strict", help: "Report a whole file as failing at its first rejected record.")
    static let force = Flag("force", help: "Import files again even when the same content was imported before.")
    /// `--db` of a check: the database is not opened, only its kind read (`ImportSettings.checkRefusesNUL`).
    static let checkDatabase = Option<String>(
        "db", "PATH|URL",
        help: "Check for the database an import would write (default: $REPORT_DB, else SQLite); not opened.")
}

/// What `report import` and `report check` are asked for, read from the arguments and checked
/// once, before anything is opened (as `NightlySettings` is for the nightly job): the reading
/// options (`--strict`, `--force`, `--kind` among the registered kinds), the files, and for an
/// import the database.
struct ImportSettings {
    let options: FileReading.Options
    /// The files in import order (SPEC §1): arguments as given, folders in byte order of paths.
    let entries: [ImportFiles.Entry]
    /// nil for a check, which opens no database.
    let database: DatabaseSettings?
    /// For a check, whether a record holding a NUL in a text is rejected, as an import into
    /// PostgreSQL rejects it (`NULText`): the check applies the rules of the database its `--db`,
    /// else `$REPORT_DB`, names (never opened), so that it passes what the nightly import into that
    /// database stores. An import's `Importer` knows from its connection.
    let checkRefusesNUL: Bool

    init(_ context: CommandContext, checkOnly: Bool) throws {
        let arguments = context.arguments
        // A bad value fails before any work.
        database = checkOnly ? nil : try context.databaseSettings()
        checkRefusesNUL = try checkOnly && StoreLocation.isPostgreSQL(context.databaseLocation())
        var options = FileReading.Options()
        options.strict = arguments[checkOnly ? ImportOptions.checkStrict : ImportOptions.strict]
        options.force = !checkOnly && arguments[ImportOptions.force]
        let kinds = KindRegistry(context.modules.map(\.imports))
        if let name = try arguments.value(ImportOptions.kind) {
            guard let kind = kinds.kind(named: name) else {
                throw UsageError("--kind: unknown kind \"\(name)\"; known kinds: \(kinds.knownNames)")
            }
            options.kind = kind
        }
        self.options = options
        do { entries = try ImportFiles.expand(arguments.positionals) } catch {
            throw CommandFailure("\(error)")
        }
        try Self.requireExportFiles(in: arguments.positionals, found: entries)
    }

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
}
