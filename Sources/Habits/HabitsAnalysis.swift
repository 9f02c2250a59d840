import ReportModel
import Store

/// `report habits` (SPEC §3): daily scores, badges, streaks, consistency and categories.
///
/// How it runs: users are taken one at a time in byte order of their ids; each user's records
/// are read with indexed queries (SQL does the filtering by user, the ordering of sessions and the
/// join of contexts), their days are computed once in the user's zone with the day start, and
/// the streak/consistency walk runs over that user's sorted days in Swift. Only compact results
/// leave the loop: packed `daily` rows, one streak summary per user, category totals, quality
/// issues and the running totals. All reads happen in one read transaction, so a report sees one
/// snapshot even while an import writes.
public enum HabitsAnalysis {
    public static func report(database: Database, options: HabitsOptions) throws -> Report {
        try options.validate()
        let analysis = try database.transaction(immediate: false) { () throws -> HabitsAccumulator in
            let reader = try HabitsRecordReader(database: database)
            let userIds = try reader.userIds(only: options.user)
            if let user = options.user, userIds.isEmpty { throw HabitsAnalysisError.unknownUser(user) }
            var accumulator = HabitsAccumulator(options: options)
            var records = HabitsUserRecords()
            for userId in userIds {
                try reader.read(userId, into: &records)
                accumulator.add(records)
            }
            return accumulator
        }
        return HabitsReportLayout.report(analysis, options: options)
    }
}

/// Everything the report needs, gathered user by user.
struct HabitsAccumulator: Sendable {
    let options: HabitsOptions
    /// The ids of users with a `daily` row, in report order; rows refer to them by index.
    private(set) var userIds: [String] = []
    private(set) var daily = HabitsDailyRows()
    private(set) var streaks: [(user: Int, summary: HabitsStreakSummary)] = []
    private(set) var categories = HabitsCategories()
    private(set) var totals = HabitsTotals()
    private(set) var quality = HabitsQualityLog()

    init(options: HabitsOptions) { self.options = options }

    /// Adds one user: their `daily` rows of the period, streaks, categories and quality issues.
    mutating func add(_ records: HabitsUserRecords) {
        let clock = HabitsUserClock(timezone: records.timezone, dayStartMinutes: options.dayStartMinutes)
        var days = HabitsUserDays(records: records, clock: clock)
        let userIndex = userIds.count
        var rowCount = 0
        let summary = HabitsTimeline.walk(&days, from: options.from, to: options.to) { day, facts, consistency in
            let row = HabitsDailyRow(
                user: userIndex, day: day, score: facts.score, tasksPlanned: facts.tasksPlanned,
                tasksDone: facts.tasksDone, flows: facts.flows, flowsDone: facts.flowsDone,
                focusSeconds: facts.focusSeconds, badges: facts.badges, streak: facts.streak,
                consistency: consistency, mood: facts.mood)
            daily.append(row)
            totals.add(row)
            rowCount += 1
        }
        categories.add(records.flows, clock: clock, from: options.from, to: options.to)
        guard rowCount > 0 else { return }
        userIds.append(records.userId)
        streaks.append((userIndex, summary))
        totals.add(summary)
        HabitsQuality.check(records: records, clock: clock, days: days, from: options.from, to: options.to,
                            into: &quality)
    }
}
