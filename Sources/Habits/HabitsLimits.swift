/// The largest values a habits record may hold (issue 30), so that every sum of seconds and
/// minutes is exact: a record past a limit is rejected at import, naming the field and the limit.
enum HabitsLimits {
    /// A focus session's `totalSeconds` (and so `remainingSeconds`): one day at most.
    static let sessionSeconds: ClosedRange<Int64> = 1...86_400
    /// A flow's `tempsEstime` and `tempsRealise`: the minutes of one day at most (a flow is one
    /// day's goal).
    static let flowMinutes: ClosedRange<Double> = 0...1_440
}
