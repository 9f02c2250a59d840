import ArgumentParsing
import ByteOutput
import DomainInterface
import Foundation
import Import
import ReportModel
import Store
import Time
import Writers

/// `report nightly`, given its settings: takes the database's nightly lock, then runs the night.
public enum NightlyJob {
    public static func run(_ settings: NightlySettings, modules: [DomainModule], console: Console) throws -> ExitCode {
        // The lock of the database, not of this machine: machines sharing one server share it.
        switch try Database.tryExclusiveLock(
            named: "nightly", path: settings.database.path,
            busyTimeoutMilliseconds: settings.database.busyTimeoutMilliseconds)
        {
        case .held(let holderName):
            // A log line like every other of the job: UTC time first (issue 12).
            NightlyLog(console: console).warning("another run holds \(holderName); nothing done")
            return .busy
        case .acquired(let lock):
            defer { lock.release() }
            var run = NightlyRun(settings: settings, modules: modules, console: console)
            return run.run()
        }
    }
}

/// One nightly run, once the lock is held: clean up, import and file away the inbox, write the
/// reports, log a summary. A failing file or report never stops the others; each is logged and
/// counted, and the exit code says what happened.
///
/// One connection does the night's work (the import, which brings the schema up to date, then
/// what each domain owes); the reports, made side by side, each read on a connection of their own
/// (a connection runs one snapshot on one thread at a time), with the schema checked once already.
struct NightlyRun {
    let settings: NightlySettings
    let modules: [DomainModule]
    let console: Console
    let log: NightlyLog
    private var tally = Tally()
    /// The night's connection, once the import opened it.
    private var database: Database?

    struct Tally {
        var imported = 0, alreadyImported = 0, failedFiles = 0, records = 0, rejected = 0
        var reportsWritten = 0, failedReports = 0
        /// Archive moves, clean-up and set-up problems.
        var otherFailures = 0
        var failures: Int { failedFiles + failedReports + otherFailures }
    }

    init(settings: NightlySettings, modules: [DomainModule], console: Console) {
        self.settings = settings
        self.modules = modules
        self.console = console
        log = NightlyLog(console: console)
    }

    mutating func run() -> ExitCode {
        let started = Date()
        log.info(
            "started: inbox \(settings.inbox), archive \(settings.archive), reports "
                + "\(settings.output ?? ReportFiles.defaultDirectory), as-of \(settings.asOf), database "
                + "\(StoreLocation.display(settings.database.path))"
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

    /// Checks the inbox, creates the archive and output folders when missing, and returns the output
    /// folder; nil (logged, counted) when the run cannot go on.
    private mutating func prepareFolders() -> URL? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: settings.inbox, isDirectory: &isFolder), isFolder.boolValue else {
            return stop("\(settings.inbox): no such inbox folder; nothing done")
        }
        do { try OutputFolder.prepare(settings.archive) } catch {
            return stop(error.message(option: "--archive DIR", role: "archive") + "; nothing done")
        }
        do { return try ReportFiles.outputDirectory(settings.output) } catch {
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
                log.info("removed \(ReportFiles.displayPath(URL(fileURLWithPath: path))), left by an interrupted run")
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
            let database = try DatabaseAccess.forWriting(settings.database)
            importer = try Importer(
                database: database, modules: modules.map(\.imports), options: options,
                layout: modules.flatMap(\.distribution))
            self.database = database
        } catch {
            log.warning(
                "\(StoreLocation.display(settings.database.path)): "
                    + "\(FailureText.describe(error, database: settings.database.path)); no file imported"
            )
            tally.otherFailures += 1
            return
        }
        if entries.isEmpty { log.info("\(settings.inbox): no export file to import") }
        ImportMessages.showProgress(of: importer, on: console)
        for entry in entries {
            let outcome = importer.importFile(entry)
            console.clearProgress()
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
            for line in ImportMessages.rejectionLines(outcome) { log.warning("rejected: " + line) }
            for line in ImportMessages.warningLines(outcome) { log.warning(line) }
            let text =
                "imported \(outcome.file) (\(kind)): \(outcome.records) records, \(outcome.rejected) "
                + "rejected\(ImportMessages.recordsMemberNote(outcome))"
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
            let line = ImportMessages.failureLine(outcome.file, reason)
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
        let database: Database
        do {
            database = try self.database ?? DatabaseAccess.forReading(settings.database, modules: modules)
        } catch {
            for module in modules where settings.domains.contains(module.name) {
                log.warning(
                    "\(module.name) reports failed: \(FailureText.describe(error, database: settings.database.path))")
                tally.failedReports += 1
            }
            return
        }
        // `--only` leaves the other domains out; a domain with no data at all gets no report (an
        // empty report every morning is a quiet success that hides a broken export).
        for module in modules where settings.domains.contains(module.name) {
            do {
                let owed = try database.transaction(immediate: false) { () throws -> [ReportRequest]? in
                    if module.report.requiresData, !(try module.hasData(database)) { return nil }
                    return try module.nightlyReports(settings.asOf, database)
                }
                guard let owed else {
                    log.info("no \(module.name) data in the database: no \(module.name) report")
                    continue
                }
                if owed.isEmpty { log.info("no \(module.name) report owed at \(settings.asOf)") }
                reports += owed
            } catch {
                log.warning(
                    "\(module.name) reports failed: \(FailureText.describe(error, database: settings.database.path))"
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
            DispatchQueue.global().async(group: group) { [settings] in
                defer { slots.signal() }
                outcome.set(
                    Result {
                        // The schema was checked (brought up to date) by the night's connection.
                        let reader = try Database(
                            path: settings.database.path,
                            busyTimeoutMilliseconds: settings.database.busyTimeoutMilliseconds,
                            createIfMissing: false)
                        let report = try reader.transaction(immediate: false) { try request.make(reader) }
                        let result = ReportFiles.write(report, formats: .all, to: outputFolder)
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
                        + "to \(ReportFiles.displayPath(outputFolder))"
                )
            case .failure(let error)?:
                tally.failedReports += 1
                log.warning(
                    "\(request.label) report failed: "
                        + "\(FailureText.describe(error, database: settings.database.path))"
                )
            case nil:
                preconditionFailure("a report thread ended without a result")
            }
        }
    }
}
