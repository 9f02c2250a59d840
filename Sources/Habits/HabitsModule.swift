import ArgumentParsing
import DomainInterface
import Import
import Store
import Time

extension DomainName {
    public static let habits: DomainName = "habits"
}

extension ExportKind {
    public static let users = ExportKind("users", domain: .habits)
    public static let flows = activity("flows")
    public static let tasks = activity("tasks")
    public static let focusSessions = activity("focus_sessions")
    public static let logins = activity("logins")
    public static let moods = activity("moods")

    /// A kind of activity record: its importer adds each new user to `habits_record_users`, so a
    /// big file loads that table in bulk with its own, staged and merged in key order before the
    /// commit. Written as they came, 32 users a statement at random places of that B-tree, its
    /// first statements made SQLite's statement journal outgrow memory into a temporary file,
    /// which every statement of the file's transaction then wrote its pages to: 846 MB for the
    /// 1M-task file, against 567 MB staged (issue 32 item 2, docs/BENCHMARKS.md).
    private static func activity(_ name: String) -> ExportKind {
        ExportKind(name, domain: .habits, bulkTables: [name, "habits_record_users"])
    }
}

/// The habits domain as the application sees it: its six kinds and their importers, its schema,
/// `report habits`, the date ranges `report status` shows and the nightly one-day report.
public enum HabitsModule {
    public static let module = DomainModule(
        imports: ImportModule(
            domain: .habits,
            importers: [
                .users: UsersImporter.self, .flows: FlowsImporter.self, .tasks: TasksImporter.self,
                .focusSessions: FocusSessionsImporter.self, .logins: LoginsImporter.self, .moods: MoodsImporter.self,
            ],
            migrations: HabitsSchema.migrations),
        report: DomainReport(command: command, request: request),
        statusColumns: [
            .users: .instant("created_at_us"), .flows: .date("date"), .tasks: .date("date"),
            .focusSessions: .instant("started_at_us"), .logins: .instant("at_us"), .moods: .date("date"),
        ],
        distribution: [
            .distributed(table: "users", column: "id", colocatedWith: nil),
            .distributed(table: "tasks", column: "user_id", colocatedWith: "users"),
            .distributed(table: "flows", column: "user_id", colocatedWith: "users"),
            .distributed(table: "flow_contexts", column: "user_id", colocatedWith: "users"),
            .distributed(table: "focus_sessions", column: "user_id", colocatedWith: "users"),
            .distributed(table: "logins", column: "user_id", colocatedWith: "users"),
            .distributed(table: "moods", column: "user_id", colocatedWith: "users"),
            .distributed(table: "habits_streak_state", column: "user_id", colocatedWith: "users"),
            .distributed(table: "habits_record_users", column: "user_id", colocatedWith: "users"),
        ],
        nightlyReports: { asOf, _ in
            // Yesterday in Paris, as `report habits` without a period.
            [reportRequest(HabitsOptions(day: HabitsOptions.defaultDay(asOf: asOf), asOf: asOf))]
        },
        reportScopes: HabitsScopes.scopes)

    static let command = CommandSpec(
        name: "habits",
        abstract: "Habits report of a day or period: scores, streaks, consistency, badges, categories.",
        discussion: """
            The period is --date DATE (default: yesterday in Europe/Paris at --as-of), or --from and
            --to (inclusive). Days are taken in each user's time zone, shifted by --day-start.
            Files: habits-<date>.xlsx, habits-<date>/ (CSV), habits-<date>.md; a range gives
            habits-<from>_<to>.
            """,
        options: [Options.date.spec, Options.from.spec, Options.to.spec, Options.user.spec, Options.dayStart.spec])

    /// The options of `report habits`, each declared once.
    enum Options {
        static let date = Option.day("date", help: "The one day to report (default: yesterday in Europe/Paris).")
        static let from = Option.day("from", help: "First day of the period (with --to).")
        static let to = Option.day("to", help: "Last day of the period (with --from).")
        static let user = Option<String>("user", "ID", help: "Only this user, in every table.")
        static let dayStart = Option<Int>(
            "day-start", "HH:MM", help: "When a day starts on the wall clock (default 00:00)."
        ) { (text: String) throws(UsageError) in
            guard let minutes = ClockTime.minutes(text) else {
                throw UsageError("--day-start: invalid time \"\(text)\" (use HH:MM)")
            }
            return minutes
        }
    }

    /// `report habits` options, checked once: the period, the user and the day start.
    @Sendable static func request(_ arguments: ParsedArguments, asOf: Timestamp) throws -> ReportRequest {
        let dayStart = try arguments.value(Options.dayStart) ?? 0
        let user = try arguments.value(Options.user)
        let date = try arguments.value(Options.date)
        let from = try arguments.value(Options.from), to = try arguments.value(Options.to)
        let options: HabitsOptions
        switch (date, from, to) {
        case (let day?, nil, nil):
            options = HabitsOptions(day: day, user: user, dayStartMinutes: dayStart, asOf: asOf)
        case (nil, let from?, let to?):
            options = HabitsOptions(from: from, to: to, user: user, dayStartMinutes: dayStart, asOf: asOf)
        case (nil, nil, nil):
            options = HabitsOptions(
                day: HabitsOptions.defaultDay(asOf: asOf), user: user, dayStartMinutes: dayStart,
                asOf: asOf)
        default:
            throw UsageError("give --date DATE, or both --from and --to, or neither (yesterday)")
        }
        try options.validate()  // the one check of the options, which the analysis repeats for its other callers
        try ReportPeriod.requireBegun(from: options.from, asOf: asOf)
        return reportRequest(options)
    }

    static func reportRequest(_ options: HabitsOptions) -> ReportRequest {
        ReportRequest(label: "habits") { database in try HabitsAnalysis.report(database: database, options: options) }
    }
}
