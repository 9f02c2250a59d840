import ArgumentParsing
import Import

/// What `report import` and `report check` are asked for, read from the arguments and checked
/// once, before anything is opened (as `NightlySettings` does for the nightly job): the
/// importer's options (`--strict`, `--force`, `--kind` among the registered kinds) and the files.
struct ImportSettings {
    let options: Importer.Options
    /// The files in import order (SPEC §1): arguments as given, folders in byte order of paths.
    let entries: [ImportFiles.Entry]

    init(_ context: CommandContext, checkOnly: Bool) throws {
        if !checkOnly { _ = try context.busyTimeoutMilliseconds() }  // a bad value fails before any work
        var options = Importer.Options()
        options.strict = context.arguments.flag("strict")
        options.force = context.arguments.flag("force")
        let kinds = KindRegistry(context.modules.map(\.imports))
        if let name = context.arguments.value("kind") {
            guard let kind = kinds.kind(named: name) else {
                throw UsageError("--kind: unknown kind \"\(name)\"; known kinds: \(kinds.knownNames)")
            }
            options.kind = kind
        }
        self.options = options
        do { entries = try ImportFiles.expand(context.arguments.positionals) } catch {
            throw CommandFailure("\(error)")
        }
        try ImportRun.requireExportFiles(in: context.arguments.positionals, found: entries)
    }
}
