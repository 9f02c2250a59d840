import ArgumentParsing
import DomainInterface
import Import
import Store
import Time

extension DomainName {
    public static let fleet: DomainName = "fleet"
}

extension ExportKind {
    public static let events = ExportKind("events", domain: .fleet)
    public static let groups = ExportKind("groups", domain: .fleet)
    public static let drivers = ExportKind("drivers", domain: .fleet)
    /// An assignments file carries its check-out and check-in records: two tables filled in bulk.
    public static let assignments = ExportKind(
        "assignments", domain: .fleet, bulkTables: ["assignments", "loan_records"])
    public static let loanRecords = ExportKind("loan_records", domain: .fleet)
}

/// The fleet domain as the application sees it: its five kinds and their importers, its schema,
/// `report fleet --event ID`, the date ranges `report status` shows and the nightly reports of
/// the events that are open.
public enum FleetModule {
    public static let module = DomainModule(
        imports: ImportModule(
            domain: .fleet,
            importers: [
                .events: EventImporter.self, .groups: GroupImporter.self, .drivers: DriverImporter.self,
                .assignments: AssignmentImporter.self, .loanRecords: LoanRecordImporter.self,
            ],
            migrations: FleetSchema.migrations),
        report: DomainReport(command: command, requiresData: false, request: request),  // noEvents says it
        statusColumns: [
            .events: .date("starts_on"), .assignments: .instant("planned_time_out_us"),
            .loanRecords: .instant("recorded_at_us"),
        ],
        // An event's report reads its assignments, loan records and impacts, so the three are
        // distributed by event_id and colocated: one event, one shard, and the joins (which equate
        // event_id, fleet schema step 2) stay on it. Records of an unknown assignment are in the
        // bucket '' (a shard of their own) until the assignment arrives. The small tables every
        // report joins are reference tables, laid out first.
        distribution: [
            .reference(table: "events"), .reference(table: "groups"), .reference(table: "drivers"),
            .distributed(table: "assignments", column: "event_id", colocatedWith: nil),
            .distributed(table: "loan_records", column: "event_id", colocatedWith: "assignments"),
            .distributed(table: "loan_impacts", column: "event_id", colocatedWith: "assignments"),
        ],
        nightlyReports: nightlyReports, reportScopes: FleetScopes.scopes)

    static let command = CommandSpec(
        name: "fleet",
        abstract: "Fleet report of one event: utilization, loans, late returns, damage.",
        discussion: """
            Utilization is the union of each car's loans within the event's opening hours, to date at
            --as-of. Files: fleet-<event>.xlsx, fleet-<event>/ (CSV), fleet-<event>.md (+ SVG charts).
            """,
        options: [Options.event.spec, Options.graceMinutes.spec])

    /// The options of `report fleet`, each declared once.
    enum Options {
        static let event = Option<String>(
            "event", "ID", help: "The event, e.g. salon2016; without it the command lists the events.")
        static let graceMinutes = Option<Int>(
            "grace-minutes", "N", help: "Minutes after the planned return before a return is late (default 15)."
        ) { (text: String) throws(UsageError) in
            guard let value = Int(text), value >= 0, value <= 10_000 else {
                throw UsageError("--grace-minutes: invalid number \"\(text)\" (0 to 10000)")
            }
            return value
        }
    }

    /// `report fleet` options, checked once: the event and the grace minutes.
    @Sendable static func request(_ arguments: ParsedArguments, asOf: Timestamp) throws -> ReportRequest {
        // Without an event the command lists the events (`ScopeRequired`), from `reportScopes`.
        guard let event = try arguments.value(Options.event) else { throw ScopeRequired(option: "event") }
        let grace = try arguments.value(Options.graceMinutes) ?? 15
        return reportRequest(FleetOptions(eventId: event, asOf: asOf, graceMinutes: grace))
    }

    static func reportRequest(_ options: FleetOptions) -> ReportRequest {
        ReportRequest(label: "fleet \(options.eventId)") { database in
            try FleetAnalysis.report(database: database, options: options)
        }
    }

    /// The fleet report of every event whose days (starts_on…ends_on) include the as-of day or the
    /// day before, each in the event's own time zone: an event is reported every morning while it
    /// runs and once more the morning after its last day, which then holds the final figures.
    @Sendable static func nightlyReports(asOf: Timestamp, database: Database) throws -> [ReportRequest] {
        guard try database.tableExists("events")
        else { return [] }
        var reports: [ReportRequest] = []
        for row in try database.rows("SELECT id, starts_on, ends_on, timezone FROM events ORDER BY id") {
            guard let id = row[0].string, let startsOn = row[1].string.flatMap(Day.init),
                let endsOn = row[2].string.flatMap(Day.init)
            else { continue }
            // An unknown zone falls back to Paris for choosing; the report itself then says what is wrong.
            let zone = row[3].string.flatMap { LocalTime(identifier: $0) } ?? LocalTime.paris
            guard isOpen(startsOn: startsOn, endsOn: endsOn, today: zone.day(of: asOf)) else { continue }
            reports.append(reportRequest(FleetOptions(eventId: id, asOf: asOf)))
        }
        return reports
    }

    /// The event's days meet {yesterday, today}.
    public static func isOpen(startsOn: Day, endsOn: Day, today: Day) -> Bool {
        startsOn <= today && today.adding(days: -1) <= endsOn
    }
}

extension FleetAnalysisError: ExitCodeError {
    /// A grace below 0 is an option to correct; the others depend on the data imported.
    public var exitCode: ExitCode {
        if case .negativeGraceMinutes = self { return .usage }
        return .failure
    }
}
