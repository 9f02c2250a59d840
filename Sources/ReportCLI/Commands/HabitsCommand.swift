import Foundation
import Habits
import ReportCore

/// `report habits`: daily scores, streaks, consistency, badges and categories.
public enum HabitsCommand: Command {
    public static let spec = CommandSpec(
        name: "habits",
        abstract: "Habits report of a day or period: scores, streaks, consistency, badges, categories.",
        discussion: """
            The period is --date DATE (default: yesterday in Europe/Paris at --as-of), or --from and
            --to (inclusive). Days are taken in each user's time zone, shifted by --day-start.
            Files: habits-<date>.xlsx, habits-<date>/ (CSV), habits-<date>.md; a range gives
            habits-<from>_<to>.
            """,
        options: [
            .value("date", "DATE", help: "The one day to report (default: yesterday in Europe/Paris)."),
            .value("from", "DATE", help: "First day of the period (with --to)."),
            .value("to", "DATE", help: "Last day of the period (with --from)."),
            .value("user", "ID", help: "Only this user, in every table."),
            .value("day-start", "HH:MM", help: "When a day starts on the wall clock (default 00:00)."),
            CommonOptions.asOf, CommonOptions.database, CommonOptions.busyTimeout,
        ] + ReportOutput.options + [CommonOptions.quiet])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let asOf = try context.asOf()
        var dayStart = 0
        if let text = context.arguments.value("day-start") {
            guard let minutes = RecordReader.parseClock(text) else {
                throw UsageError("--day-start: invalid time \"\(text)\" (use HH:MM)")
            }
            dayStart = minutes
        }
        let user = context.arguments.value("user")
        let date = try ReportOutput.day(context, "date")
        let from = try ReportOutput.day(context, "from"), to = try ReportOutput.day(context, "to")
        let options: HabitsOptions
        switch (date, from, to) {
        case (let day?, nil, nil):
            options = HabitsOptions(day: day, user: user, dayStartMinutes: dayStart, asOf: asOf)
        case (nil, let from?, let to?):
            guard from <= to else { throw UsageError("--from \(from) is after --to \(to)") }
            options = HabitsOptions(from: from, to: to, user: user, dayStartMinutes: dayStart, asOf: asOf)
        case (nil, nil, nil):
            options = HabitsOptions(day: HabitsOptions.defaultDay(asOf: asOf), user: user, dayStartMinutes: dayStart, asOf: asOf)
        default:
            throw UsageError("give --date DATE, or both --from and --to, or neither (yesterday)")
        }
        try ReportPreconditions.requirePeriodBegun(from: options.from, asOf: asOf)
        try ReportPreconditions.requireData(of: .habits, context)
        return try ReportOutput.write(try makeReport(options, context), context)
    }

    /// The report of a period, read from the context's database (also used by `report nightly`).
    static func makeReport(_ options: HabitsOptions, _ context: CommandContext) throws -> Report {
        do {
            return try ReportOutput.withDatabase(context) { try HabitsAnalysis.report(database: $0, options: options) }
        } catch let error as HabitsAnalysisError {
            throw CommandFailure(error.description)
        }
    }
}
