import Time

/// What one user did on one day (SPEC §3), before streaks: the counts of `daily` and what the
/// score and badges need.
struct HabitsDayFacts {
    var tasksPlanned = 0
    var tasksDone = 0
    var flows = 0
    var flowsDone = 0
    /// Σ over the flows dated on the day of 1 (`termine`) or done steps / steps (0 without steps).
    var flowProgress = ExactSum()
    /// Σ (totalSeconds − remainingSeconds) of the sessions started on the day; `Int64.max` once
    /// the sum overflows, which is past what a cell shows (`CheckedTotal`), so never shown wrong.
    var focusSeconds: Int64 = 0
    /// A single session of the day reached 900 s of focus.
    var hasFocus15 = false
    var morningLogin = false
    var mood: Int?
    /// Filled by the streak pass: the streak on this day.
    var streak = 0

    var isActive: Bool { tasksDone >= 1 || flowsDone >= 1 }

    var badges: HabitsBadges {
        var badges: HabitsBadges = []
        if morningLogin { badges.insert(.morningLogin) }
        if tasksDone >= 3 { badges.insert(.threeTasks) }
        if hasFocus15 { badges.insert(.focus15) }
        if flowsDone >= 1 { badges.insert(.flowDone) }
        return badges.completed()
    }

    var score: Int {
        HabitsScore.score(
            tasksPlanned: tasksPlanned, tasksDone: tasksDone, flows: flows, flowProgress: flowProgress,
            focusSeconds: focusSeconds, morningLogin: morningLogin)
    }
}

/// One user's days that have something on them (a `daily` row can only be one of these), keyed
/// by day ordinal. Every record counts once: the tables hold one row per record key, so a task
/// exported twice is already one row.
struct HabitsUserDays {
    private(set) var facts: [Int: HabitsDayFacts] = [:]

    /// Builds the days of `records` with the user's clock. Records after `last` still create
    /// their days (the caller ignores them), so the first day with any record is the true one.
    init(records: HabitsUserRecords, clock: HabitsUserClock) {
        // About one day per mood or login in real exports; the dictionary grows past that if needed.
        facts.reserveCapacity(max(records.moods.count, records.logins.count))
        for task in records.tasks {
            facts[task.date.ordinal, default: .init()].tasksPlanned += 1
            if task.done {
                let completed = task.completedAt.map(clock.day(ofMicroseconds:)) ?? task.date
                facts[completed.ordinal, default: .init()].tasksDone += 1
            }
        }
        for flow in records.flows {
            update(flow.date) { day in
                day.flows += 1
                if flow.done {
                    day.flowProgress.add(1, over: 1)
                } else if flow.stepsTotal > 0 {
                    day.flowProgress.add(flow.stepsDone, over: flow.stepsTotal)
                }
            }
            if flow.done {
                let completed = flow.completedAt.map(clock.day(ofMicroseconds:)) ?? flow.date
                facts[completed.ordinal, default: .init()].flowsDone += 1
            }
        }
        for session in records.sessions {
            let day = clock.day(ofMicroseconds: session.startedAt)
            update(day) { day in
                let (sum, overflow) = day.focusSeconds.addingReportingOverflow(session.focusedSeconds)
                day.focusSeconds = overflow ? Int64.max : sum
                if session.focusedSeconds >= 900 { day.hasFocus15 = true }
            }
        }
        for login in records.logins {
            let (day, isMorning) = clock.login(atMicroseconds: login)
            update(day) { day in if isMorning { day.morningLogin = true } }
        }
        for mood in records.moods {
            facts[mood.date.ordinal, default: .init()].mood = mood.mood
        }
    }

    private mutating func update(_ day: Day, _ change: (inout HabitsDayFacts) -> Void) {
        change(&facts[day.ordinal, default: .init()])
    }

    /// The day ordinals up to `last`, in order.
    func orderedDays(through last: Day) -> [Int] {
        facts.keys.filter { $0 <= last.ordinal }.sorted()
    }

    subscript(ordinal: Int) -> HabitsDayFacts? {
        get { facts[ordinal] }
        set { facts[ordinal] = newValue }
    }
}
