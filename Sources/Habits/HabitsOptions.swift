import ArgumentParsing
import Time

/// What `report habits` is asked for (SPEC §3): a period of calendar days, an optional user and
/// the day start (SPEC §2).
public struct HabitsOptions: Sendable {
    /// The first day of the period.
    public var from: Day
    /// The last day of the period (inclusive).
    public var to: Day
    /// Only this user in every table (`--user`); nil for everyone.
    public var user: String?
    /// `--day-start HH:MM` in minutes after midnight (0…1439): timestamps belong to the date of
    /// their local wall-clock time minus this; `date` fields never move.
    public var dayStartMinutes: Int = 0
    /// The moment the report describes (`--as-of`).
    public var asOf: Timestamp
    /// Resume streaks and consistency from `habits_streak_state` and save checkpoints there
    /// (the figures are the same either way; tests turn it off to compare with the full walk).
    public var usesStreakStateCache = true

    public init(from: Day, to: Day, user: String? = nil, dayStartMinutes: Int = 0, asOf: Timestamp) {
        self.from = from
        self.to = to
        self.user = user
        self.dayStartMinutes = dayStartMinutes
        self.asOf = asOf
    }

    /// One day (`--date`).
    public init(day: Day, user: String? = nil, dayStartMinutes: Int = 0, asOf: Timestamp) {
        self.init(from: day, to: day, user: user, dayStartMinutes: dayStartMinutes, asOf: asOf)
    }

    /// The default `--date`: the day before `asOf` in `Europe/Paris` (SPEC §3), whatever the users'
    /// own zones, so that a nightly cron job in Paris reports the day that just ended.
    public static func defaultDay(asOf: Timestamp) -> Day {
        LocalTime.paris.day(of: asOf).adding(days: -1)
    }

    /// The part of file names after `habits-`: `2026-11-28` for one day, else `FROM_TO`.
    public var scope: String {
        from == to ? from.description : from.description + "_" + to.description
    }

    /// The day start as `HH:MM`, as the command line writes it.
    public var dayStartText: String {
        let hours = dayStartMinutes / 60
        let minutes = dayStartMinutes % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }

    /// Throws the first option a user must correct.
    func validate() throws(HabitsAnalysisError) {
        guard from <= to else { throw .periodReversed(from: from, to: to) }
        guard (0..<1440).contains(dayStartMinutes) else { throw .dayStartOutOfRange(dayStartMinutes) }
        if let user, user.isEmpty { throw .emptyUser }
    }
}

/// An error in the options of `report habits` that the user can fix; `description` is one line
/// saying what to do.
public enum HabitsAnalysisError: Error, Equatable, CustomStringConvertible {
    case periodReversed(from: Day, to: Day)
    case dayStartOutOfRange(Int)
    case emptyUser
    case unknownUser(String)

    public var description: String {
        switch self {
        case .periodReversed(let from, let to):
            return "--from \(from) is after --to \(to): give the earlier day first"
        case .dayStartOutOfRange(let minutes):
            return "--day-start must be between 00:00 and 23:59 (got \(minutes) minutes)"
        case .emptyUser:
            return "--user needs a user id"
        case .unknownUser(let user):
            return "unknown user \"\(user)\": no users record and no habits records; check the id given to --user"
        }
    }
}

extension HabitsAnalysisError: ExitCodeError {
    /// A user the data does not know is a failure; the other cases are options to correct.
    public var exitCode: ExitCode {
        if case .unknownUser = self { return .failure }
        return .usage
    }
}
