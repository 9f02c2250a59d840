import ArgumentParsing
import DomainInterface
import Foundation
import Import
import Store
import Time
import Writers

/// One nightly run, once the lock is held: clean up, import and file away the inbox, write the
/// reports, log a summary. A failing file or report never stops the others; each is logged and
/// counted, and the exit code says what happened.
struct NightlyRun {
    let settings: NightlySettings
    let context: CommandContext
    let log: NightlyLog
    private var tally = Tally()

    struct Tally {
        var imported = 0, alreadyImported = 0, failedFiles = 0, records = 0, rejected = 0
        var reportsWritten = 0, failedReports = 0
        /// Archive moves, clean-up and set-up problems.
        var otherFailures = 0
        var failures: Int { failedFiles + failedReports + otherFailures }
    }

    init(settings: NightlySettings, context: CommandContext) {
        self.settings = settings
        self.context = context
        log = NightlyLog(console: context.console)
    }

    mutating func run() -> ExitCode {
        let started = Date()
        log.info(
            "started: inbox \(settings.inbox), archive \(settings.archive), reports "
                + "\(settings.output ?? ReportOutput.defaultDirectory), as-of \(settings.asOf), database "
                + "\(StoreLocation.display(settings.databasePath))"
        )
        if let outputFolder = prepareFolders() {
            removeStaleTemporaryFiles(outputFolder: outputFolder)
            importInbox()
            writeReports(to: outputFolder)
        }
        let code: ExitCode = tally.failures > 0 ? .failure : tally.rejected > 0 ? .rejected : .success
        let summary =
            "finished in \(Formatting.seconds(Date().timeIntervalSince(started))): "
            + "\(tally.imported) files imported (\(tally.records) records, \(tally.rejected) rejected), "
            + "\(tally.alreadyImported) already imported, \(tally.failedFiles) failed; "
            + "\(tally.reportsWritten) reports written, \(tally.failedReports) failed; "
            + (tally.otherFailures > 0 ? "\(tally.otherFailures) other problems; " : "") + "exit \(code.rawValue)"
        if code == .success { log.info(summary) } else { log.warning(summary) }
        return code
    }

    /// Checks the inbox, creates the default archive and output folders, and returns the output
    /// folder; nil (logged, counted) when the run cannot go on.
    private mutating func prepareFolders() -> URL? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: settings.inbox, isDirectory: &isFolder), isFolder.boolValue else {
            return stop("\(settings.inbox): no such inbox folder; nothing done")
        }
        if !FileManager.default.fileExists(atPath: settings.archive, isDirectory: &isFolder) {
            guard settings.archiveIsDefault else {
                return stop(
                    "\(settings.archive): no such archive folder; create it or give another --archive DIR; nothing done"
                )
            }
            do {
                try FileManager.default.createDirectory(atPath: settings.archive, withIntermediateDirectories: true)
            } catch {
                return stop(
                    "\(settings.archive): cannot create the archive folder (\(error.localizedDescription)); "
                        + "nothing done"
                )
            }
        } else if !isFolder.boolValue {
            return stop("\(settings.archive): not a folder; give another --archive DIR; nothing done")
        }
        do { return try ReportOutput.outputDirectory(settings.output) } catch {
            return stop("\(error); nothing done")
        }
    }

    private mutating func stop(_ message: String) -> URL? {
        log.warning(message)
        tally.otherFailures += 1
        return nil
    }

    /// What a killed run left behind: temporary report files, archive copies, error files.
    private mutating func removeStaleTemporaryFiles(outputFolder: URL) {
        var results = [
            StaleTemporaryFiles.remove(in: outputFolder.path), StaleTemporaryFiles.remove(in: settings.archive),
        ]
        if FileManager.default.fileExists(atPath: settings.failedFolder) {
            results.append(StaleTemporaryFiles.remove(in: settings.failedFolder, recursive: true))
        }
        for result in results {
            for path in result.removed {
                log.info("removed \(ReportOutput.displayPath(URL(fileURLWithPath: path))), left by an interrupted run")
            }
            for error in result.errors {
                log.warning(error)
                tally.otherFailures += 1
            }
        }
    }

    private mutating func importInbox() {
        let prefix = settings.inbox.hasSuffix("/") ? settings.inbox : settings.inbox + "/"
        let entries: [ImportFiles.Entry]
        do {
            entries = try ImportFiles.expand([settings.inbox]).filter {
                !$0.displayName.dropFirst(prefix.count).hasPrefix("failed/")
            }
        } catch {
            log.warning("\(error); no file imported")
            tally.otherFailures += 1
            return
        }
        // The importer is made even for an empty inbox: it creates the database on the first night,
        // so the reports below describe an empty database instead of failing.
        let importer: Importer
        do {
            var options = Importer.Options()
            options.refuseEmptyFiles = true  // a crashed exporter leaves empty files: to failed/, not the archive
            importer = try Importer(
                database: try DatabaseAccess.forWriting(context),
                modules: context.modules.map(\.imports), options: options)
        } catch {
            log.warning(
                "\(StoreLocation.display(settings.databasePath)): "
                    + "\(CommandLineTool.describe(error, database: settings.databasePath)); no file imported"
            )
            tally.otherFailures += 1
            return
        }
        if entries.isEmpty { log.info("\(settings.inbox): no export file to import") }
        ImportRun.showProgress(of: importer, on: context.console)
        for entry in entries {
            let outcome = importer.importFile(entry)
            context.console.clearProgress()
            file(outcome, entry: entry, relative: String(entry.displayName.dropFirst(prefix.count)))
        }
    }

    /// Logs one file's import and moves it: to the archive once its content is in the database,
    /// to `failed/` when nothing of it could be stored.
    private mutating func file(_ outcome: FileOutcome, entry: ImportFiles.Entry, relative: String) {
        let kind = outcome.kind?.name ?? "?"
        let folder = (relative as NSString).deletingLastPathComponent
        let name = (relative as NSString).lastPathComponent
        switch outcome.status {
        case .imported, .checked:
            tally.imported += 1
            tally.records += outcome.records
            tally.rejected += outcome.rejected
            for line in ImportRun.rejectionLines(outcome) { log.warning("rejected: " + line) }
            for line in ImportRun.warningLines(outcome) { log.warning(line) }
            let text =
                "imported \(outcome.file) (\(kind)): \(outcome.records) records, \(outcome.rejected) "
                + "rejected\(ImportRun.recordsMemberNote(outcome))"
            guard let archived = archive(entry, folder: folder, name: name) else { return }
            if outcome.rejected > 0 || !outcome.warnings.isEmpty {
                log.warning(text + "; archived to " + archived)
            } else {
                log.info(text + "; archived to " + archived)
            }
        case .skipped:
            tally.alreadyImported += 1
            guard let archived = archive(entry, folder: folder, name: name) else { return }
            log.info(
                "already imported \(outcome.file) (\(kind)): same content (SHA-256) as an earlier import; archived "
                    + "to \(archived)"
            )
        case .failed(let reason):
            tally.failedFiles += 1
            let line = ImportRun.failureLine(outcome.file, reason)
            // Logged before the move: a run killed in between logs it again, but never not at all.
            log.warning("failed: " + line)
            do {
                let moved = try InboxMoves.move(
                    entry.path, into: join(settings.failedFolder, folder), name: name,
                    scratchFolder: settings.failedFolder
                ) { destination in
                    try OutputFiles.writeFile(
                        at: URL(fileURLWithPath: destination + ".error.txt"), contents: line + "\n")
                }
                log.info("moved \(outcome.file) to \(moved), the reason beside it in \(moved).error.txt")
            } catch {
                log.warning(
                    "\(outcome.file): cannot move it to \(settings.failedFolder): \(error); it stays in the inbox")
                tally.otherFailures += 1
            }
        }
    }

    /// Moves a file whose content is in the database to `ARCHIVE/YYYY-MM-DD/<relative path>`;
    /// nil (logged, counted) when it cannot: the file then stays in the inbox, and the next run
    /// skips its import (same SHA-256) and archives it.
    private mutating func archive(_ entry: ImportFiles.Entry, folder: String, name: String) -> String? {
        do {
            return try InboxMoves.move(
                entry.path, into: join(join(settings.archive, settings.archiveDay.description), folder),
                name: name, scratchFolder: settings.archive)
        } catch {
            log.warning("\(entry.displayName): imported, but not archived: \(error); the next run archives it")
            tally.otherFailures += 1
            return nil
        }
    }

    private func join(_ folder: String, _ relative: String) -> String {
        relative.isEmpty ? folder : folder + "/" + relative
    }

    /// Every report of the night, each in XLSX, CSV and Markdown, made side by side; one failing does
    /// not stop the others.
    /// Each registered module says which reports it owes at as-of (the fleet: its open events).
    private mutating func writeReports(to outputFolder: URL) {
        var reports: [ReportRequest] = []
        // `--only` leaves the other domains out; a domain with no data at all gets no report (an
        // empty report every morning is a quiet success that hides a broken export).
        for module in context.modules where settings.domains.contains(module.name) {
            if module.report.requiresData, (try? ReportPreconditions.hasData(of: module, context)) == false {
                log.info("no \(module.name) data in the database: no \(module.name) report")
                continue
            }
            do {
                let owed = try DatabaseAccess.withSnapshot(context) { try module.nightlyReports(settings.asOf, $0) }
                if owed.isEmpty { log.info("no \(module.name) report owed at \(settings.asOf)") }
                reports += owed
            } catch {
                log.warning(
                    "\(module.name) reports failed: \(CommandLineTool.describe(error, database: settings.databasePath))"
                )
                tally.failedReports += 1
            }
        }
        // The reports are made side by side, each on its own thread with its own connection and
        // snapshot: a fleet report spends most of its time writing its workbook on one core, which
        // leaves the other free for the habits and bookings reports. At most one report a core
        // (two at least) runs at a time, in domain order, so that memory holds two or so reports'
        // working sets, not every one's. The log lists them in domain order, whichever finished first.
        let outcomes = (0..<reports.count).map { _ in
            ConcurrentResult<(baseName: String, files: Int, emptyPeriod: String?)>()
        }
        let group = DispatchGroup()
        let slots = DispatchSemaphore(value: max(2, ProcessInfo.processInfo.activeProcessorCount))
        for (request, outcome) in zip(reports, outcomes) {
            slots.wait()
            DispatchQueue.global().async(group: group) { [context] in
                defer { slots.signal() }
                outcome.set(
                    Result {
                        let report = try DatabaseAccess.report(request, context)
                        let result = try ReportOutput.writeFiles(
                            report, formats: (xlsx: true, csv: true, md: true),
                            csvOptions: CSVOptions(), to: outputFolder)
                        if let failure = result.failure { throw failure }
                        // The night takes an empty period (`--allow-empty`): written, and logged.
                        return (report.baseName, result.written.count, report.emptyPeriod)
                    })
            }
        }
        group.wait()
        for (request, outcome) in zip(reports, outcomes) {
            switch outcome.get() {
            case .success(let written)?:
                tally.reportsWritten += 1
                if let line = written.emptyPeriod { log.info("\(request.label) report: " + line) }
                log.info(
                    "wrote \(request.label) report \(written.baseName) (xlsx, csv, md, \(written.files) files) "
                        + "to \(ReportOutput.displayPath(outputFolder))"
                )
            case .failure(let error)?:
                tally.failedReports += 1
                log.warning(
                    "\(request.label) report failed: "
                        + "\(CommandLineTool.describe(error, database: settings.databasePath))"
                )
            case nil:
                preconditionFailure("a report thread ended without a result")
            }
        }
    }
}
