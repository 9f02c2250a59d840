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
    static func walk(
        _ days: inout HabitsUserDays, from: Day, to: Day,
        emit: (Day, HabitsDayFacts, Double) throws -> Void
    ) rethrows -> HabitsStreakSummary {
        var state = HabitsWalkState()
        return try walk(&days, from: from, to: to, resuming: &state, checkpoint: nil, emit: emit).summary
    }

    /// The walk resumed from `state`, the state after `state.throughDay` (days up to it are
    /// skipped: their facts may be partial). `checkpoint`: a day whose state is returned too
    /// (when after `state.throughDay`), so that a later report can resume from it.
    ///
    /// The same operations in the same order as a walk from the first day, so the figures are
    /// bit for bit those of the full walk: consistency only depends on the active days (an
    /// inactive step from 0 stays exactly 0, so stepping the days between records or skipping
    /// them while 0 are the same).
    static func walk(
        _ days: inout HabitsUserDays, from: Day, to: Day, resuming state: inout HabitsWalkState,
        checkpoint: Int?, emit: (Day, HabitsDayFacts, Double) throws -> Void
    ) rethrows
        -> (summary: HabitsStreakSummary, checkpoint: HabitsWalkState?)
    {
        var activeDays = 0
        var saved: HabitsWalkState?
        let resumedAfter = state.throughDay
        let wantsCheckpoint: Bool
        if let checkpoint {
            wantsCheckpoint = resumedAfter.map { checkpoint > $0 } ?? true
        } else {
            wantsCheckpoint = false
        }
        for ordinal in days.orderedDays(through: to) {
            if let resumedAfter, ordinal <= resumedAfter { continue }
            guard var facts = days[ordinal] else { continue }
            if wantsCheckpoint, saved == nil, let checkpoint, ordinal > checkpoint {
                saved = state
                saved?.throughDay = checkpoint
            }
            // The calendar days in between had no record: inactive steps (0 stays 0).
            if let previousDay = state.lastRecordDay {
                var gap = ordinal - previousDay - 1
                while gap > 0, state.consistency != 0 {
                    state.consistency = step(state.consistency, active: false)
                    gap -= 1
                }
            }
            state.lastRecordDay = ordinal
            let active = facts.isActive
            state.consistency = step(state.consistency, active: active)
            if active {
                state.run = state.lastActiveDay == ordinal - 1 ? state.run + 1 : 1
                state.lastActiveDay = ordinal
                facts.streak = state.run
                if state.run >= state.bestStreak {
                    state.bestStreak = state.run
                    state.bestStart = Day(ordinal: ordinal - state.run + 1)
                    state.bestEnd = Day(ordinal: ordinal)
                }
            } else {
                facts.streak = 0
            }
            days[ordinal] = facts
            if ordinal >= from.ordinal {
                if active { activeDays += 1 }
                try emit(Day(ordinal: ordinal), facts, state.consistency)
            }
        }
        if wantsCheckpoint, saved == nil, let checkpoint {
            saved = state
            saved?.throughDay = checkpoint
        }
        state.throughDay = to.ordinal
        let summary = HabitsStreakSummary(
            activeDays: activeDays, currentStreak: state.lastActiveDay == to.ordinal ? state.run : 0,
            bestStreak: state.bestStreak, bestStart: state.bestStart, bestEnd: state.bestEnd)
        return (summary, saved)
    }
}

/// Where a user's walk stands after `throughDay`: what the next day's streak and consistency
/// need from all the days before (cached in `habits_streak_state`).
struct HabitsWalkState: Sendable, Equatable {
    /// The day ordinal the state is after; nil: before the first day.
    var throughDay: Int?
    /// The last day with any record, where consistency was last stepped.
    var lastRecordDay: Int?
    var consistency = 0.0
    var lastActiveDay: Int?
    /// The run of active days ending on `lastActiveDay`.
    var run = 0
    var bestStreak = 0
    var bestStart: Day?
    var bestEnd: Day?
}
