import ReportModel
import Time

/// The layout of the habits report: the §6.1 CSV tables with their contract columns, the chart
/// tables, the figures, the charts, and `quality` last.
enum HabitsReportLayout {
    static let dailyColumns = [
        Column("user_id"), Column("day", .date), Column("score", .integer, dataBar: true),
        Column("tasks_planned", .integer), Column("tasks_done", .integer), Column("flows", .integer),
        Column("flows_done", .integer), Column("focus_minutes", .duration, unit: "minutes"),
        Column("morning_login", .boolean),
        Column("badges", .integer), Column("streak", .integer), Column("consistency", .percent),
        Column("mood", .integer, unit: "1-5"),
    ]
    static let badgeColumns = [Column("user_id"), Column("day", .date), Column("badge")]
    static let streakColumns = [
        Column("user_id"), Column("active_days", .integer), Column("current_streak", .integer),
        Column("best_streak", .integer), Column("best_streak_start", .date), Column("best_streak_end", .date),
    ]
    /// `categories.csv`: `percent` stays 0–100 with 2 decimals as SPEC §3 defines it (a contract
    /// column never changes meaning); `share`, the same fraction as a 0–1 ratio like every other
    /// ratio of the CSV files, is added at the end.
    static let categoryColumns = [
        Column("category"), Column("minutes", .duration, unit: "minutes"),
        Column("percent", .decimal(places: 2), unit: "percent, 0-100"),
        Column("estimated_minutes", .duration, unit: "minutes"), Column("accuracy", .percent),
        Column("share", .percent),
    ]
    /// The categories as people read them (workbook and Markdown): the share as a percentage with
    /// a data bar, not a 0–100 number with two decimals.
    static let categoryShownColumns = [
        Column("category"), Column("minutes", .duration, unit: "minutes"),
        Column("share", .percent, title: "Share of time", dataBar: true),
        Column("estimated_minutes", .duration, unit: "minutes"), Column("accuracy", .percent),
    ]
    /// The workbook's `daily` and `badges` sheets stop here (a year of 10,000 users is 3.4
    /// million rows): one sheet under Excel's 1,048,575 rows, the whole tables in the CSV files.
    static let workbookRowLimit = 1_000_000

    static func report(_ analysis: HabitsAccumulator, options: HabitsOptions) -> Report {
        // Markdown (chat) shows the latest days and the top rows first, in the columns that fit
        // a chat line; CSV and XLSX keep every row and column in contract order.
        let tables = [
            dailyTable(analysis).markdown(
                .latestFirst("day"),
                columns: [
                    "user_id", "day", "score", "tasks_done", "flows_done", "focus_minutes", "badges", "streak",
                    "consistency", "mood",
                ]),
            badgesTable(analysis).markdown(.latestFirst("day")),
            streaksTable(analysis).markdown(.largestFirst("current_streak")),
            Table(
                name: "categories", columns: categoryColumns, rows: analysis.categories.rows,
                outputs: [.csv], caption: "Time of the flows done in the period, split equally among their contexts"
            ).keyed("category"),
            Table(
                name: "category_shares", title: "Categories", columns: categoryShownColumns,
                rows: analysis.categories.shownRows, outputs: [.xlsx, .markdown],
                caption: "Time of the flows done in the period, split equally among their contexts"
            )
            .markdown(.largestFirst("minutes")),
            dailyAverageTable(analysis.totals, options: options).markdown(.latestFirst("day")),
            badgesByTypeTable(analysis.totals),
            qualityTable(analysis.quality),
        ]
        let period = options.from == options.to ? options.from.description : "\(options.from) to \(options.to)"
        var report = Report(
            kind: "habits", title: "Habits, " + period + (options.user.map { ", user " + $0 } ?? ""),
            scope: options.scope, asOf: LocalTime.paris.localized(options.asOf),
            parameters: [
                ("from", options.from.description), ("to", options.to.description),
                ("user", options.user ?? "all"), ("day_start", options.dayStartText),
            ],
            figures: analysis.totals.figures, tables: tables,
            charts: [
                Chart(
                    .line, title: "Average daily score", table: "daily_average", category: "day",
                    series: ["average_score"], fileStem: "average-score"),
                Chart(
                    .column, title: "Badges by type", table: "badges_by_type", category: "badge",
                    series: ["count"], fileStem: "badges-by-type"),
            ],
            notes: [
                "Days are taken in each user's time zone (Europe/Paris without one), starting at "
                    + options.dayStartText + "; streaks and consistency count the days before the period too."
            ])
        // The as-of and the default day are Paris time; each user's days are in their own zone.
        report.timeZone = LocalTime.paris.identifier
        return report
    }

    /// `daily`: decoded from the packed rows each time a writer reads it.
    private static func dailyTable(_ analysis: HabitsAccumulator) -> Table {
        let rows = analysis.daily
        let userIds = analysis.userIds
        var table = Table(
            name: "daily", columns: dailyColumns,
            rows: Rows(count: rows.count) {
                let iterator = rows.makeIterator()
                return AnyIterator {
                    guard let row = iterator.next() else { return nil }
                    return [
                        .text(userIds[row.user]), .day(row.day), .integer(row.score), .integer(row.tasksPlanned),
                        .integer(row.tasksDone), .integer(row.flows), .integer(row.flowsDone),
                        .number(HabitsTotals.minutes(CheckedTotal(row.focusSeconds))), .boolean(row.morningLogin),
                        .integer(row.badges.count),
                        .integer(row.streak), .number(row.consistency), row.mood.map { .integer($0) } ?? .empty,
                    ]
                }
            }, caption: "One row per user and day with a record")
        table.primaryKey = ["user_id", "day"]
        table.workbookRowLimit = workbookRowLimit
        return table
    }

    /// `badges`: one row per badge earned, expanded from the rows' badge bits in SPEC order.
    private static func badgesTable(_ analysis: HabitsAccumulator) -> Table {
        let rows = analysis.daily
        let userIds = analysis.userIds
        var table = Table(
            name: "badges", columns: badgeColumns,
            rows: Rows(count: analysis.totals.badges) {
                let iterator = rows.makeIterator()
                var pending: [[Value]] = []
                return AnyIterator {
                    while pending.isEmpty {
                        guard let row = iterator.next() else { return nil }
                        pending = HabitsBadges.all.filter { row.badges.contains($0.badge) }.reversed().map {
                            [.text(userIds[row.user]), .day(row.day), .text($0.name)]
                        }
                    }
                    return pending.popLast()
                }
            }, caption: "The badges earned, by user and day")
        table.primaryKey = ["user_id", "day", "badge"]
        // A row per badge earned (1,100 in two months): `daily` counts them by day and the Summary
        // by type, so the sheet stays for filtering but does not print 18 pages.
        table.printsInWorkbook = false
        table.workbookRowLimit = workbookRowLimit
        return table
    }

    private static func streaksTable(_ analysis: HabitsAccumulator) -> Table {
        let rows: [[Value]] = analysis.streaks.map { user, summary in
            [
                .text(analysis.userIds[user]), .integer(summary.activeDays), .integer(summary.currentStreak),
                .integer(summary.bestStreak), summary.bestStart.map(Value.day) ?? .empty,
                summary.bestEnd.map(Value.day) ?? .empty,
            ]
        }
        return Table(
            name: "streaks", columns: streakColumns, rows: rows,
            caption: "Streaks up to the period's last day, days before the period included"
        ).keyed("user_id")
    }

    /// `daily_average`: every calendar day of the period, empty on days without rows.
    private static func dailyAverageTable(_ totals: HabitsTotals, options: HabitsOptions) -> Table {
        let scores = totals.scoresByDay
        let first = options.from.ordinal
        let last = options.to.ordinal
        return Table(
            name: "daily_average", title: "Average daily score",
            columns: [Column("day", .date), Column("average_score", .decimal(places: 2))],
            rows: Rows(count: last - first + 1) {
                var ordinal = first
                return AnyIterator {
                    guard ordinal <= last else { return nil }
                    defer { ordinal += 1 }
                    let day = scores[ordinal]
                    return [
                        .day(Day(ordinal: ordinal)),
                        .number(day.map { Double($0.sum) / Double($0.rows) }),
                    ]
                }
            },
            outputs: [.xlsx, .markdown], caption: "The mean score of the day's rows")
    }

    /// Badges by type, named in words (`morning login`): a chart and Markdown table for people;
    /// `badges.csv` keeps the codes.
    private static func badgesByTypeTable(_ totals: HabitsTotals) -> Table {
        let rows: [[Value]] = HabitsBadges.all.enumerated().map { index, badge in
            [.text(HabitsBadges.words(badge.name)), .integer(totals.badgeCounts[index])]
        }
        return Table(
            name: "badges_by_type", title: "Badges by type",
            columns: [Column("badge"), Column("count", .integer)], rows: rows,
            outputs: [.xlsx, .markdown], caption: "Badges earned in the period")
    }

    private static func qualityTable(_ issues: HabitsQualityLog) -> Table {
        Table.quality(count: issues.count, caption: "Data-quality issues of the period's records") {
            issues.makeIterator()
        }
    }
}
