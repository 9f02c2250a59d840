import Time

/// A user's zone with the day start: the day of each of their timestamps (SPEC §2).
///
/// Built once per user (zones themselves are cached by `Zones`), and shared by every metric so
/// that tasks, flows, sessions and logins all agree on which day an instant belongs to.
struct HabitsUserClock {
    let local: LocalTime
    let dayStartMinutes: Int

    /// The 10:00 limit of a morning login, in seconds of the local day.
    static let morningEndSecond = 10 * 3600

    /// The user's zone, or `Europe/Paris` when there is no `users` record, no timezone, or a
    /// name this machine's tz database does not know (the importer already refuses unknown ones).
    init(timezone: String?, dayStartMinutes: Int) {
        local = timezone.flatMap(LocalTime.init(identifier:)) ?? LocalTime.paris
        self.dayStartMinutes = dayStartMinutes
    }

    /// The day of an instant: the date of local wall-clock time minus the day start.
    func day(ofMicroseconds microseconds: Int64) -> Day {
        local.day(of: Timestamp(microseconds: microseconds), dayStartMinutes: dayStartMinutes)
    }

    /// The day of a login, and whether it is a morning login: local wall-clock time at or after
    /// the day start and before 10:00 (a login before the day start belongs to the day before
    /// and is not a morning login of either day).
    func login(atMicroseconds microseconds: Int64) -> (day: Day, isMorning: Bool) {
        let instant = Timestamp(microseconds: microseconds)
        let day = local.day(of: instant, dayStartMinutes: dayStartMinutes)
        let wallClock = local.wallClock(of: instant)
        let isMorning = wallClock.secondOfDay >= dayStartMinutes * 60 && wallClock.secondOfDay < Self.morningEndSecond
        return (day, isMorning)
    }
}
