import ReportModel

/// The headline figures of `summary.csv` (SPEC §6.1, habits), accumulated row by row.
///
/// Definitions (the SPEC names the metrics; these are the decisions behind each):
/// - `users`: users with at least one `daily` row in the period (= rows of `streaks`).
/// - `active_users`: those users with at least one active day in the period.
/// - `active_days`: active user-days in the period (Σ `streaks.active_days`).
/// - `average_score`: the mean of `daily.score` over all `daily` rows (empty without rows).
/// - `tasks_planned`, `tasks_done`, `flows`, `flows_done`, `focus_minutes`: Σ of the `daily` column.
/// - `morning_logins`: `daily` rows with `morning_login` true (user-days, not logins).
/// - `badges`: badges awarded in the period, `ultimate` included (= rows of `badges`, Σ `daily.badges`);
///   `badges_<name>`: the rows of `badges` with that badge.
/// - `median_current_streak`: the median of `streaks.current_streak` (the mean of the two middle
///   values for an even count; empty without users).
/// - `max_best_streak`: the largest `streaks.best_streak` (0 without users).
struct HabitsTotals: Sendable {
    private(set) var users = 0
    private(set) var activeUsers = 0
    private(set) var activeDays = 0
    private(set) var rows = 0
    private(set) var scoreSum = 0
    private(set) var tasksPlanned = 0
    private(set) var tasksDone = 0
    private(set) var flows = 0
    private(set) var flowsDone = 0
    /// Σ focus seconds, exact or marked (issue 30).
    private(set) var focusSeconds = CheckedTotal()
    private(set) var morningLogins = 0
    /// Per badge, in `HabitsBadges.all` order.
    private(set) var badgeCounts = [Int](repeating: 0, count: HabitsBadges.all.count)
    private(set) var currentStreaks: [Int] = []
    private(set) var maxBestStreak = 0
    /// Per day of the period with rows: Σ score and rows (for `daily_average`).
    private(set) var scoresByDay: [Int: (sum: Int, rows: Int)] = [:]

    mutating func add(_ row: HabitsDailyRow) {
        rows += 1
        scoreSum += row.score
        tasksPlanned += row.tasksPlanned
        tasksDone += row.tasksDone
        flows += row.flows
        flowsDone += row.flowsDone
        focusSeconds.add(row.focusSeconds)
        if row.morningLogin { morningLogins += 1 }
        for (index, badge) in HabitsBadges.all.enumerated() where row.badges.contains(badge.badge) {
            badgeCounts[index] += 1
        }
        let previous = scoresByDay[row.day.ordinal] ?? (0, 0)
        scoresByDay[row.day.ordinal] = (previous.sum + row.score, previous.rows + 1)
    }

    mutating func add(_ streaks: HabitsStreakSummary) {
        users += 1
        if streaks.activeDays > 0 { activeUsers += 1 }
        activeDays += streaks.activeDays
        currentStreaks.append(streaks.currentStreak)
        maxBestStreak = max(maxBestStreak, streaks.bestStreak)
    }

    var badges: Int { badgeCounts.reduce(0, +) }

    /// Minutes from a total of seconds; nil (an empty cell, and a `figure_out_of_range` row) when
    /// it cannot be shown exactly.
    static func minutes(_ seconds: CheckedTotal) -> Double? { seconds.value(dividedBy: 60, places: 2) }

    var averageScore: Double? { rows > 0 ? Double(scoreSum) / Double(rows) : nil }

    var medianCurrentStreak: Double? {
        guard !currentStreaks.isEmpty else { return nil }
        let sorted = currentStreaks.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The figures in SPEC order, with their types.
    var figures: [Figure] {
        var figures: [Figure] = [
            Figure("users", .integer(users), .integer),
            Figure("active_users", .integer(activeUsers), .integer),
            Figure("active_days", .integer(activeDays), .integer),
            Figure("average_score", .number(averageScore), .decimal(places: 2)),
            Figure("tasks_planned", .integer(tasksPlanned), .integer),
            Figure("tasks_done", .integer(tasksDone), .integer),
            Figure("flows", .integer(flows), .integer),
            Figure("flows_done", .integer(flowsDone), .integer),
            Figure("focus_minutes", .number(Self.minutes(focusSeconds)), .duration),
            Figure("morning_logins", .integer(morningLogins), .integer),
            Figure("badges", .integer(badges), .integer),
        ]
        for (index, badge) in HabitsBadges.all.enumerated() {
            figures.append(
                Figure(
                    "badges_" + badge.name, .integer(badgeCounts[index]), .integer,
                    title: "Badges: " + HabitsBadges.words(badge.name)))
        }
        figures.append(Figure("median_current_streak", .number(medianCurrentStreak), .measure(maximumPlaces: 1)))
        figures.append(Figure("max_best_streak", .integer(maxBestStreak), .integer))
        return figures
    }
}
