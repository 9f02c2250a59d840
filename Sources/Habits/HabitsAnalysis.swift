import ReportModel
import Store

/// `report habits` (SPEC §3): daily scores, badges, streaks, consistency and categories.
///
/// How it runs: users are taken in byte order of their ids, read in batches of `batchSize` with
/// indexed queries (SQL does the filtering by user, the ordering of sessions and the join of
/// contexts) and analysed one at a time: their days are computed once in the user's zone with the
/// day start, and the streak/consistency walk runs over that user's sorted days in Swift. Only compact results
/// leave the loop: packed `daily` rows, one streak summary per user, category totals, quality
/// issues and the running totals. All reads happen in one read transaction, so a report sees one
/// snapshot even while an import writes.
///
/// A user with a cached walk state from before the period (`habits_streak_state`) is read only
/// for the days after it (`HabitsWindowRecordReader`) and the walk resumes from the state, with
/// the same figures; every user's state a week before the period's end is saved afterwards, so
/// the next night's one-day report reads about eight days per user, not their whole history.
public enum HabitsAnalysis {
    /// Users read together: their whole histories are held at once (a few thousand records each
    /// for a year), so the batch bounds memory as one user did before.
    static let batchSize = 64

    public static func report(database: Database, options: HabitsOptions) throws -> Report {
        try options.validate()
        let store = try HabitsStreakStateStore(database: database, dayStartMinutes: options.dayStartMinutes)
        let analysis = try database.transaction(immediate: false) { () throws -> HabitsAccumulator in
            let reader = try HabitsRecordReader(database: database)
            let cached = options.usesStreakStateCache ? try store.load(before: options.from) : [:]
            let window = cached.isEmpty ? nil : try HabitsWindowRecordReader(database: database)
            // Seeking the `(user_id, …)` indexes costs a probe per user and table; the UNION of
            // every table's user_id read every row (a second on PostgreSQL for a million rows).
            let userIds = try reader.userIdsBySeeking(only: options.user)
            if let user = options.user, userIds.isEmpty { throw HabitsAnalysisError.unknownUser(user) }
            var accumulator = HabitsAccumulator(options: options)
            // Users go in batches of six queries each (a round trip per query is what a server
            // charges; SQLite gains nothing and loses nothing): those resumed from a cached state
            // read the days after it, the others their whole histories.
            var batch = [HabitsUserRecords](repeating: HabitsUserRecords(), count: Self.batchSize)
            var resumed = [HabitsCachedState?](repeating: nil, count: Self.batchSize)
            for start in stride(from: 0, to: userIds.count, by: Self.batchSize) {
                let ids = Array(userIds[start..<min(start + Self.batchSize, userIds.count)])
                for (index, userId) in ids.enumerated() { resumed[index] = cached[Array(userId.utf8)] }
                let windowRead =
                    try window?.read(
                        batch: ids, states: Array(resumed[0..<ids.count]), through: options.to, into: &batch) ?? []
                var whole: [Int] = []
                for index in ids.indices where !windowRead.contains(index) {
                    resumed[index] = nil
                    whole.append(index)
                }
                try reader.read(batch: ids, wanted: whole, into: &batch)
                for index in ids.indices { accumulator.add(batch[index], resuming: resumed[index]) }
            }
            accumulator.checkTotals()
            return accumulator
        }
        // After the report's snapshot, also when the caller reads it in a snapshot of its own
        // (one transaction with its other reads): the save must begin after it ends.
        if options.usesStreakStateCache {
            let checkpoints = analysis.checkpoints
            database.whenOutsideTransaction { store.save(checkpoints) }
        }
        var report = HabitsReportLayout.report(analysis, options: options)
        if analysis.daily.count == 0 { report.emptyPeriod = try HabitsScopes.emptyPeriod(database, options: options) }
        return report
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
    /// The walk states to cache for later reports (`HabitsStreakStateStore`).
    private(set) var checkpoints: [(userId: String, state: HabitsCachedState)] = []

    init(options: HabitsOptions) { self.options = options }

    /// Adds one user: their `daily` rows of the period, streaks, categories and quality issues.
    /// - Parameter cached: the state the walk resumes from (`records` then hold the window after
    ///   it, see `HabitsWindowRecordReader`); nil: `records` are the user's whole history.
    mutating func add(_ records: HabitsUserRecords, resuming cached: HabitsCachedState?) {
        let clock = HabitsUserClock(timezone: records.timezone, dayStartMinutes: options.dayStartMinutes)
        var days = HabitsUserDays(records: records, clock: clock)
        let userIndex = userIds.count
        var rowCount = 0
        var state = cached?.walk ?? HabitsWalkState()
        let checkpointDay = options.to.ordinal - HabitsStreakStateStore.checkpointLag
        let (summary, checkpoint) = HabitsTimeline.walk(
            &days, from: options.from, to: options.to, resuming: &state, checkpoint: checkpointDay
        ) { day, facts, consistency in
            let row = HabitsDailyRow(
                user: userIndex, day: day, score: facts.score, tasksPlanned: facts.tasksPlanned,
                tasksDone: facts.tasksDone, flows: facts.flows, flowsDone: facts.flowsDone,
                focusSeconds: facts.focusSeconds, badges: facts.badges, streak: facts.streak,
                consistency: consistency, mood: facts.mood)
            daily.append(row)
            totals.add(row)
            if HabitsTotals.minutes(CheckedTotal(row.focusSeconds)) == nil {
                quality.append(
                    .figureOutOfRange, record: "\(records.userId) \(day)",
                    detail: "focus_minutes of the day is too large to show exactly; the cell is left empty")
            }
            rowCount += 1
        }
        if let checkpoint {
            checkpoints.append(
                (
                    records.userId,
                    HabitsCachedState(
                        walk: checkpoint,
                        latestSessionEnd: Self.latestSessionEnd(
                            records.sessions, before: HabitsWindow.start(after: checkpointDay),
                            after: cached?.latestSessionEnd))
                ))
        }
        categories.add(records.flows, clock: clock, from: options.from, to: options.to)
        guard rowCount > 0 else { return }
        userIds.append(records.userId)
        streaks.append((userIndex, summary))
        totals.add(summary)
        HabitsQuality.check(
            records: records, clock: clock, days: days, from: options.from, to: options.to,
            into: &quality)
    }

    /// A `figure_out_of_range` row for a summary total too large to show exactly (issue 30).
    mutating func checkTotals() {
        if HabitsTotals.minutes(totals.focusSeconds) == nil {
            quality.append(
                .figureOutOfRange, record: "summary",
                detail: "focus_minutes is a total too large to show exactly; the cell is left empty")
        }
    }

    /// The latest end of the non-empty session intervals started before `limit`, folded with the
    /// cached one of the sessions before the window (`records` then start at the window).
    static func latestSessionEnd(
        _ sessions: [HabitsUserRecords.Session], before limit: Int64, after cached: Int64?
    ) -> Int64? {
        var latest = cached
        for session in sessions where session.startedAt < limit {
            let end = HabitsQuality.intervalEnd(of: session)
            guard end > session.startedAt else { continue }
            latest = max(latest ?? end, end)
        }
        return latest
    }
}
