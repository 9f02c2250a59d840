import Foundation
import Time

/// A user's streaks over the period (one `streaks` row).
struct HabitsStreakSummary: Sendable, Equatable {
    /// Active days within the period.
    var activeDays = 0
    /// The streak on the period's last day.
    var currentStreak = 0
    /// The longest run of active days up to the period's last day (ties: the most recent).
    var bestStreak = 0
    var bestStart: Day?
    var bestEnd: Day?
}

/// Streaks and consistency (SPEC §3), walked day by day over a user's history in order.
///
/// Every earlier day counts: streaks run back before the period, and consistency is stepped over
/// every calendar day from the user's first day with any record (day ordinals, never seconds).
enum HabitsTimeline {
    /// Loop Habit Tracker's daily multiplier: a day's weight halves in 13 days.
    static let multiplier = pow(0.5, 1.0 / 13.0)

    /// One Loop step: c(D) = c(D−1)·m + a(D)·(1 − m).
    static func step(_ consistency: Double, active: Bool) -> Double {
        consistency * multiplier + (active ? 1 - multiplier : 0)
    }

    /// Walks the user's days through `to`, fills each day's `streak`, and calls `emit` with each
    /// day of [from, to] that has facts, its facts and its consistency.
    static func walk(_ days: inout HabitsUserDays, from: Day, to: Day,
                     emit: (Day, HabitsDayFacts, Double) throws -> Void) rethrows -> HabitsStreakSummary {
        var summary = HabitsStreakSummary()
        var consistency = 0.0
        var previousDay: Int?
        var previousActive: Int?
        var run = 0
        for ordinal in days.orderedDays(through: to) {
            guard var facts = days[ordinal] else { continue }
            // The calendar days in between had no record: inactive steps (0 stays 0).
            if let previousDay {
                var gap = ordinal - previousDay - 1
                while gap > 0, consistency != 0 {
                    consistency = step(consistency, active: false)
                    gap -= 1
                }
            }
            previousDay = ordinal
            let active = facts.isActive
            consistency = step(consistency, active: active)
            if active {
                run = previousActive == ordinal - 1 ? run + 1 : 1
                previousActive = ordinal
                facts.streak = run
                if run >= summary.bestStreak {
                    summary.bestStreak = run
                    summary.bestStart = Day(ordinal: ordinal - run + 1)
                    summary.bestEnd = Day(ordinal: ordinal)
                }
            } else {
                facts.streak = 0
            }
            days[ordinal] = facts
            if ordinal >= from.ordinal {
                if active { summary.activeDays += 1 }
                try emit(Day(ordinal: ordinal), facts, consistency)
            }
        }
        summary.currentStreak = previousActive == to.ordinal ? run : 0
        return summary
    }
}
