import Time

/// The data-quality checks of one user's records (SPEC §1.4: references are not enforced at
/// import, reports list them). Only users with a `daily` row in the period are checked, and the
/// per-record checks look at records of the period, so that `quality` describes the report it
/// closes.
///
/// Issues:
/// - `unknown_user`: records whose user has no `users` record; one row per user id, the detail
///   counting all their records by kind (they are in `Europe/Paris`).
/// - `unknown_timezone`: a `users.timezone` this machine's tz database does not know
///   (`Europe/Paris` is used instead).
/// - `impossible_focus_session`, for a session started in the period: `endedAt` before
///   `startedAt`, or more focus (totalSeconds − remainingSeconds) than the time between
///   `startedAt` and `endedAt` plus one minute (a minute of slack for apps that write times to
///   the minute).
/// - `overlapping_focus_sessions`: two sessions of one user whose intervals intersect, listed once
///   per pair under the later-starting session (started in the period), the earlier one named in
///   the detail. A session's interval is [startedAt, endedAt) when endedAt is present and not
///   before startedAt, else [startedAt, startedAt + focus seconds); empty intervals overlap nothing.
/// - `streak_day_mismatch`: a flow dated in the period whose `streakDay` differs from the streak
///   computed on its date (0 when that day is not active).
enum HabitsQuality {
    static let slackSeconds: Int64 = 60

    static func check(
        records: HabitsUserRecords, clock: HabitsUserClock, days: HabitsUserDays,
        from: Day, to: Day, into issues: inout HabitsQualityLog
    ) {
        let period = from.ordinal...to.ordinal
        if !records.isKnown {
            issues.append(.unknownUser, record: records.userId, detail: unknownUserDetail(records))
        } else if let timezone = records.timezone, LocalTime(identifier: timezone) == nil {
            issues.append(
                .unknownTimezone, record: records.userId,
                detail: "timezone \"\(timezone)\" is not in the tz database; Europe/Paris used")
        }
        checkSessions(records.sessions, clock: clock, period: period, into: &issues)
        for flow in records.flows where period.contains(flow.date.ordinal) {
            guard let streakDay = flow.streakDay else { continue }
            let computed = days[flow.date.ordinal]?.streak ?? 0
            if streakDay != Int64(computed) {
                issues.appendStreakMismatch(flow: flow.id, streakDay: streakDay, computed: computed, date: flow.date)
            }
        }
    }

    private static func unknownUserDetail(_ records: HabitsUserRecords) -> String {
        let kinds = [
            (records.tasks.count, "task", "tasks"), (records.flows.count, "flow", "flows"),
            (records.sessions.count, "focus session", "focus sessions"),
            (records.logins.count, "login", "logins"), (records.moods.count, "mood", "moods"),
        ]
        let parts = kinds.filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
        let total = records.recordCount
        return "\(total) \(total == 1 ? "record" : "records") without a users record (\(parts.joined(separator: ", ")))"
    }

    /// Sessions are in order of startedAt, then id (as read).
    private static func checkSessions(
        _ sessions: [HabitsUserRecords.Session], clock: HabitsUserClock,
        period: ClosedRange<Int>, into issues: inout HabitsQualityLog
    ) {
        var open: [(id: String, end: Int64)] = []
        for session in sessions {
            let inPeriod = period.contains(clock.day(ofMicroseconds: session.startedAt).ordinal)
            let end = intervalEnd(of: session)
            if let endedAt = session.endedAt {
                if endedAt < session.startedAt {
                    if inPeriod {
                        issues.append(
                            .impossibleFocusSession, record: session.id,
                            detail:
                                "ended at \(shown(endedAt, clock)) before it started at "
                                + "\(shown(session.startedAt, clock))"
                        )
                    }
                } else {
                    let lasted = (endedAt - session.startedAt) / 1_000_000
                    if session.focusedSeconds > lasted + slackSeconds, inPeriod {
                        issues.append(
                            .impossibleFocusSession, record: session.id,
                            detail: "\(session.focusedSeconds) s of focus in \(lasted) s between start and end")
                    }
                }
            }
            open.removeAll { $0.end <= session.startedAt }
            guard end > session.startedAt else { continue }
            if inPeriod {
                for earlier in open {
                    issues.appendOverlap(session: session.id, earlier: earlier.id)
                }
            }
            open.append((session.id, end))
        }
    }

    /// The end of a session's interval for the overlap check: `endedAt` when present and not
    /// before `startedAt`, else `startedAt` + its focus (the interval is empty when end ≤ start).
    static func intervalEnd(of session: HabitsUserRecords.Session) -> Int64 {
        if let endedAt = session.endedAt, endedAt >= session.startedAt { return endedAt }
        let focusMicroseconds = session.focusedSeconds.multipliedReportingOverflow(by: 1_000_000)
        return session.startedAt &+ (focusMicroseconds.overflow ? Int64.max / 2 : focusMicroseconds.partialValue)
    }

    /// An instant as the user's wall clock shows it.
    private static func shown(_ microseconds: Int64, _ clock: HabitsUserClock) -> String {
        clock.local.localized(Timestamp(microseconds: microseconds)).description
    }
}
