import ReportModel
import Store
import Time

/// The fleet report of one event (SPEC §5): utilization, loans, late returns, damage, drivers
/// and data quality, as a `Report` value that the writers render.
///
/// Set work is SQL (the event's assignments joined to their latest records, sorted by plate and
/// check-out time; their impacts in a second query in the same order); the algorithmic work
/// (interval unions, damage pairing) is Swift over that one stream. Memory holds one compact line
/// per assignment and per damage row, and one vehicle's loans at a time.
///
/// Decisions where SPEC §5 is silent:
/// - Records made after as-of are ignored: the report describes the fleet *at* as-of, so a rerun
///   with a past as-of shows what was known then.
/// - `assignments` counts every assignment of the event, cancelled ones included.
/// - `unknown_group`, `unknown_driver` and signature issues are checked on non-cancelled
///   assignments only (a cancelled one appears nowhere else in the report).
/// - A check-in recorded before its check-out gives the loan a length of 0.
/// - `daily.csv` check-ins count returns of loans (a check-in without check-out is no loan);
///   check-outs and check-ins on a day outside the event's days appear in no `daily.csv` row.
/// - `plate` cells show the vehicle key (upper case, no spaces or dashes), as vehicles are compared.
/// - `drivers.csv` lists every driver named by a non-cancelled assignment, loans or not.
/// - The Markdown top-10 lists leave out cars never out, drivers with no new damage and on-time returns.
/// - Loan records of unknown assignments and fleet import rejects belong to no event: every fleet
///   report lists them.
public enum FleetAnalysis {
    public static func report(database: Database, options: FleetOptions) throws -> Report {
        guard options.graceMinutes >= 0 else { throw FleetAnalysisError.negativeGraceMinutes(options.graceMinutes) }
        let event = try FleetEvent.load(database, id: options.eventId)
        let windows = event.windows(asOf: options.asOf)
        let groupNames = try loadGroupNames(database)
        let (tally, drivers, unknownAssignmentRecords) = try tallyAssignments(
            database, event: event, windows: windows, options: options, groupNames: groupNames)
        let orphans =
            try unknownAssignmentRecords.map {
                FleetStoreQuality.issues(recordsOfUnknownAssignments: $0, firstSequence: 0)
            } ?? FleetStoreQuality.recordsOfUnknownAssignments(database, firstSequence: 0)
        let rejects = try FleetStoreQuality.importRejects(database, firstSequence: orphans.count)
        let results = tally.finish(extraIssues: orphans + rejects)

        let context = FleetReportContext(
            event: event, windows: windows, results: results, groupNames: groupNames,
            drivers: drivers)
        var notes: [String] = []
        // A running event: the days up to as-of first (latest on top), the days to come after them.
        let running = options.asOf.microseconds < event.lastClose
        let dayOrder: MarkdownOrder =
            running ? .latestFirstThrough("day", event.local.day(of: options.asOf)) : .latestFirst("day")
        if running {
            notes.append(
                "The event is not over at as-of: opening windows are counted up to as-of, later ones are empty.")
        }
        let days =
            event.firstDay == event.lastDay ? event.firstDay.description : "\(event.firstDay) to \(event.lastDay)"
        var report = Report(
            kind: "fleet", title: "Fleet, \(event.name) (\(days))", scope: event.id,
            asOf: event.local.localized(options.asOf),
            parameters: [
                ("event", event.id), ("grace_minutes", String(options.graceMinutes)),
                ("time_zone", event.local.identifier),
            ],
            figures: FleetSummary.figures(context),
            // Markdown (chat) shows the latest days and the top rows first, in the columns that
            // fit a chat line; CSV and XLSX keep every row and column in contract order.
            tables: [
                FleetSummary.dailyUtilization(context).markdown(dayOrder),
                FleetSummary.damageByType(context),
                FleetSummary.mostUsedCars(context), FleetSummary.mostDamagingDrivers(context),
                FleetSummary.mostLateReturns(context),
                FleetTables.vehicles(context).markdown(
                    .largestFirst("utilization"),
                    columns: [
                        "plate", "brand", "model", "group", "loans", "hours_out", "utilization", "new_impacts",
                        "late_returns",
                    ]),
                FleetTables.daily(context).markdown(dayOrder),
                FleetTables.loans(context).markdown(
                    .latestFirst("out_at"),
                    columns: [
                        "assignment_id", "plate", "driver", "status", "out_at", "hours", "late_minutes", "new_impacts",
                    ]),
                FleetTables.damage(context),
                FleetTables.drivers(context).markdown(
                    .largestFirst("hours"),
                    columns: [
                        "driver", "company", "loans", "hours", "late_returns", "new_impacts", "damage_rate",
                    ]),
                FleetTables.quality(context),
            ],
            charts: [
                Chart(
                    .column, title: "Daily fleet utilization", table: "daily_utilization", category: "day",
                    series: ["utilization"], fileStem: "daily-utilization"),
                Chart(
                    .pie, title: "New damage by type", table: "damage_by_type", category: "type",
                    series: ["new_impacts"], fileStem: "damage-by-type"),
            ],
            heatMap: FleetSummary.heatMap(context), notes: notes)
        report.timeZone = event.local.identifier
        if results.vehicles.isEmpty { report.emptyPeriod = try FleetScopes.emptyPeriod(database, event: event) }
        return report
    }

    /// One pass over the ordered assignments and their impacts, which are freed when it returns;
    /// also the drivers they name, and the records of unknown assignments when the load found them.
    static func tallyAssignments(
        _ database: Database, event: FleetEvent, windows: [OpeningWindow], options: FleetOptions,
        groupNames: [String: String]
    ) throws -> (FleetTally, [String: (name: String, company: String?)], [UnknownAssignmentRecord]?) {
        let loaded = try FleetRows.load(database, eventId: event.id, asOf: options.asOf)
        let drivers = try loadDrivers(database, named: loaded.driverIds)
        let tally = FleetTally(
            event: event, windows: windows, asOf: options.asOf, graceMinutes: options.graceMinutes,
            groupNames: groupNames, knownDrivers: Set(drivers.keys), expectedLines: loaded.count)
        for index in loaded.order {
            tally.add(loaded.row(at: Int(index)), index: Int(index), impacts: loaded.impacts)
        }
        return (tally, drivers, loaded.recordsOfUnknownAssignments)
    }

    /// Every group's name by id: few rows, and an assignment may name a group of any event.
    static func loadGroupNames(_ database: Database) throws -> [String: String] {
        var names: [String: String] = [:]
        for row in try database.rows("SELECT id, name FROM groups") {
            if let id = row[0].string, let name = row[1].string { names[id] = name }
        }
        return names
    }

    /// The drivers that the event's assignments name and that a drivers file brought. The
    /// drivers table is read whole and filtered here: a filter by the event in SQL would look up
    /// each of the event's assignments again.
    static func loadDrivers(
        _ database: Database, named ids: Set<ByteIdentifier>
    ) throws -> [String: (name: String, company: String?)] {
        let statement = try database.prepare("SELECT id, name, company FROM drivers")
        var drivers: [String: (name: String, company: String?)] = [:]
        while try statement.step() {
            let id = statement.string(0)
            if ids.contains(ByteIdentifier(id)) { drivers[id] = (statement.string(1), statement.stringOrNil(2)) }
        }
        return drivers
    }
}
