import ReportModel
import Store
import Time

/// `report habits` (SPEC §3): daily scores, badges, streaks, consistency and categories.
///
/// How it runs: users are taken in byte order of their ids, read in batches of `batchSize` with
/// indexed queries (SQL does the filtering by user, the ordering of sessions and the join of
/// contexts) and analysed one at a time: their days are computed once in the user's zone with the
/// day start, and the streak/consistency walk runs over that user's sorted days in Swift. Only compact results
/// leave the loop: packed `daily` rows, one streak summary per user, category totals, quality
/// issues and the running totals. All reads happen in one read transaction, so a report sees one
/// snapshot even while an import writes. The reads run on a thread of their own, a part of users
/// ahead of the analysis (`ReadAhead`); on a server a second connection on the same snapshot
/// (`Database.withSnapshotReader`) reads every other batch on a third, and the analysis takes the
/// parts in user order whichever read them.
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
        try report(database: database, options: options, batching: .standard)
    }

    static func report(database: Database, options: HabitsOptions, batching: HabitsBatching) throws -> Report {
        let analysis = try analyse(database: database, options: options, batching: batching)
        var report = HabitsReportLayout.report(analysis, options: options)
        if analysis.daily.count == 0 { report.emptyPeriod = try HabitsScopes.emptyPeriod(database, options: options) }
        return report
    }

    /// The figures of a report, before they are laid out (and its states saved, once its snapshot ends).
    static func analyse(
        database: Database, options: HabitsOptions, batching: HabitsBatching
    ) throws
        -> HabitsAccumulator
    {
        try options.validate()
        let store = try HabitsStreakStateStore(database: database, dayStartMinutes: options.dayStartMinutes)
        let analysis = try database.transaction(immediate: false) { () throws -> HabitsAccumulator in
            let cached = options.usesStreakStateCache ? try store.load(before: options.from) : [:]
            let userIds = try HabitsRecordReader.userIds(database, only: options.user)
            if let user = options.user, userIds.isEmpty { throw HabitsAnalysisError.unknownUser(user) }
            var accumulator = HabitsAccumulator(options: options)
            // Users go in batches of six queries each (a round trip per query is what a server
            // charges; SQLite gains nothing and loses nothing): those resumed from a cached state
            // read the days after it, the others their whole histories. Windows are small (the
            // days since the state), so a resumed report takes `windowUsers` users a time for its
            // window reads (on Citus in lists of users of one shard each: one worker answers
            // each), then reads the whole histories `wholeUsers` at a time, in order.
            let outer = cached.isEmpty ? batching.wholeUsers : max(batching.windowUsers, batching.wholeUsers)
            let batches = stride(from: 0, to: userIds.count, by: outer).map { $0..<min($0 + outer, userIds.count) }
            // The reads run on threads of their own, a part of `wholeUsers` users ahead of the
            // analysis (each connection is its thread's until every part is read; `ReadAhead`).
            // On a server a second connection on the same snapshot takes every other batch: the
            // server then works on two queries at once.
            func readAll(_ beside: Database?) throws {
                let readers = try ([database] + [beside].compactMap { $0 }).map {
                    try HabitsConnectionReader(database: $0, windows: !cached.isEmpty, batching: batching)
                }
                accumulator.readConnections = readers.count
                try Self.reading(readers[...], batches: batches, cached: cached, userIds: userIds, options: options) {
                    nexts in
                    for (number, batch) in batches.enumerated() {
                        let next = nexts[number % nexts.count]
                        for _ in stride(from: 0, to: batch.count, by: batching.wholeUsers) {
                            guard let part = try next() else {
                                throw StoreError("internal error: the habits reads ended before batch \(number)")
                            }
                            for (records, resumed) in zip(part.records, part.resumed) {
                                accumulator.add(records, resuming: resumed)
                            }
                        }
                    }
                }
            }
            if batches.count > 1 && batching.readsBeside {
                try database.withSnapshotReader(readAll)
            } else {
                try readAll(nil)
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
        return analysis
    }

    /// Starts a thread of reads for each of `readers` (the n-th reads every n-th batch), then
    /// runs `body` with the functions that take their parts, in the readers' order.
    private static func reading(
        _ readers: ArraySlice<HabitsConnectionReader>, batches: [Range<Int>], cached: [[UInt8]: HabitsCachedState],
        userIds: [String], options: HabitsOptions, nexts: [() throws -> HabitsReadPart?] = [],
        _ body: ([() throws -> HabitsReadPart?]) throws -> Void
    ) throws {
        guard let reader = readers.first else { return try body(nexts) }
        let number = nexts.count, count = nexts.count + readers.count
        try ReadAhead<HabitsReadPart>.consume(depth: reader.batching.partsAhead, name: "report-habits-reader") {
            send in
            for batch in stride(from: number, to: batches.count, by: count) {
                try reader.read(Array(userIds[batches[batch]]), cached: cached, through: options.to, send: send)
            }
        } _: { next in
            try reading(
                readers.dropFirst(), batches: batches, cached: cached, userIds: userIds, options: options,
                nexts: nexts + [next], body)
        }
    }
}

/// The reads of users' records on one connection: whole histories and, when a report resumes
/// from cached states, windows.
struct HabitsConnectionReader {
    let database: Database
    let batching: HabitsBatching
    let whole: HabitsRecordReader
    let window: HabitsWindowRecordReader?

    init(database: Database, windows: Bool, batching: HabitsBatching) throws {
        self.database = database
        self.batching = batching
        whole = try HabitsRecordReader(database: database)
        window = windows ? try HabitsWindowRecordReader(database: database, ids: batching.idsPerWindowQuery) : nil
    }

    /// Reads the records of a batch of users, in order, and sends them a part of at most
    /// `batching.wholeUsers` users at a time, each user with the cached state its walk resumes
    /// from (nil: the records are the user's whole history).
    func read(
        _ ids: [String], cached: [[UInt8]: HabitsCachedState], through last: Day, send: (HabitsReadPart) throws -> Void
    ) throws {
        var batch = [HabitsUserRecords](repeating: HabitsUserRecords(), count: ids.count)
        var resumed = ids.map { cached[Array($0.utf8)] }
        // On Citus each window list names users of one shard (one worker answers it).
        let shards = window == nil ? nil : try database.shards(of: ids, in: "users")
        let windowRead =
            try window?.read(batch: ids, states: resumed, shards: shards, through: last, into: &batch) ?? []
        for part in stride(from: 0, to: ids.count, by: batching.wholeUsers) {
            let users = part..<min(part + batching.wholeUsers, ids.count)
            var whole: [Int] = []
            for index in users where !windowRead.contains(index) {
                resumed[index] = nil
                whole.append(index)
            }
            try self.whole.read(batch: ids, wanted: whole, into: &batch)
            var sent = HabitsReadPart()
            for index in users {
                // Moved out: what the part holds is freed once analysed.
                sent.records.append(batch[index])
                sent.resumed.append(resumed[index])
                batch[index] = HabitsUserRecords()
            }
            try send(sent)
        }
    }
}

/// How many users `HabitsAnalysis` reads together; tests set small ones to cross every boundary.
struct HabitsBatching: Sendable {
    /// Users whose whole histories are read and held at once (`HabitsAnalysis.batchSize`).
    var wholeUsers: Int
    /// Users whose windows are read together when a report resumes from cached states.
    var windowUsers: Int
    /// Ids a window query names (`HabitsWindowRecordReader`).
    var idsPerWindowQuery: Int
    /// Parts of `wholeUsers` users read ahead of the analysis, at most (`ReadAhead`).
    var partsAhead = 1
    /// Whether a second connection on the report's snapshot reads every other batch, where the
    /// database offers one (`Database.withSnapshotReader`).
    var readsBeside = true

    /// 1,024 users' windows in lists of 128 ids: about 8 days of records a user, a few MB more.
    /// The nightly's day report of 2,500 users (habits profile at scale 0.25, 2026-12-05, four
    /// runs each): on the Citus test cluster 1.6–2.4 s where lists of 64 took 2.2–3.6 s, on
    /// PostgreSQL 0.65–0.78 s against 0.73–0.81 s; lists of 256 or 512 were slower on PostgreSQL
    /// (0.86–0.97 s: parallel plans whose workers cost more to start than they save).
    static let standard = HabitsBatching(
        wholeUsers: HabitsAnalysis.batchSize, windowUsers: 1_024, idsPerWindowQuery: 128)
}

/// Users' records as read, in report order, each with the cached state its walk resumes from
/// (nil: the records are the user's whole history).
struct HabitsReadPart: Sendable {
    var records: [HabitsUserRecords] = []
    var resumed: [HabitsCachedState?] = []
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
    /// The connections the records were read on: two where a second shared the snapshot.
    var readConnections = 1

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
