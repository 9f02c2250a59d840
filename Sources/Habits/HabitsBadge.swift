/// The app's five daily badges (SPEC §3), kept as bits so that a day's badges cost one byte.
///
/// The order of `all` is the SPEC's order; it is the order of the rows of `badges.csv` within a
/// user and day, and of the `badges_by_type` chart.
public struct HabitsBadges: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A login on the day at or after the day start and before 10:00 local.
    public static let morningLogin = HabitsBadges(rawValue: 1)
    /// At least three tasks done on the day.
    public static let threeTasks = HabitsBadges(rawValue: 2)
    /// One focus session started on the day with at least 900 s of focus.
    public static let focus15 = HabitsBadges(rawValue: 4)
    /// At least one flow done on the day.
    public static let flowDone = HabitsBadges(rawValue: 8)
    /// The four others on the same day.
    public static let ultimate = HabitsBadges(rawValue: 16)

    /// Every badge with its contract name, in SPEC order.
    public static let all: [(badge: HabitsBadges, name: String)] = [
        (.morningLogin, "morning_login"), (.threeTasks, "three_tasks"), (.focus15, "focus_15"),
        (.flowDone, "flow_done"), (.ultimate, "ultimate"),
    ]

    /// How a person reads a badge in charts and figures (`morning login`); CSV keeps the codes.
    public static func words(_ name: String) -> String {
        switch name {
        case "focus_15": return "15 min focus"
        default: return name.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// The four badges that together earn `ultimate`.
    static let ultimateRequirements: HabitsBadges = [.morningLogin, .threeTasks, .focus15, .flowDone]

    /// Adds `ultimate` when, and only when, the four others are all present.
    func completed() -> HabitsBadges {
        var badges = subtracting(.ultimate)
        if badges.isSuperset(of: HabitsBadges.ultimateRequirements) { badges.insert(.ultimate) }
        return badges
    }

    /// How many badges, `ultimate` included: the `badges` column of `daily`.
    public var count: Int { rawValue.nonzeroBitCount }
}
