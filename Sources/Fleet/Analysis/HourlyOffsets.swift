import Time

/// The event zone's UTC offsets, hour by hour from two days before the event to two days after,
/// so that the million instants a report shows (and the pass sorts into days) are localized by
/// an array lookup instead of a call into ICU each (`TimeZone.secondsFromGMT`, about half a
/// microsecond; it was a tenth of the 300,000-assignment report's time).
///
/// An hour whose first and last second have different offsets holds a transition, is left out
/// and asked of the zone instant by instant, as is every instant outside the range. (This takes
/// a zone's offset to change at most once within an hour, as it does in the tz database.)
struct HourlyOffsets: Sendable {
    private let local: LocalTime
    private let firstHour: Int64
    /// Seconds east of UTC per hour; nil for an hour with a transition.
    private let offsets: [Int32?]
    /// About two years of hours.
    static let mostHours = 24 * 800

    init(local: LocalTime, firstDay: Day, lastDay: Day) {
        self.local = local
        firstHour = Int64(firstDay.ordinal - 2) * 24
        let hours = (lastDay.ordinal + 3 - (firstDay.ordinal - 2)) * 24
        // An event of years (no motor show) would cost two zone calls an hour to set up: none then.
        offsets = (0..<Int64(hours <= Self.mostHours ? max(0, hours) : 0)).map { [firstHour] index in
            let start = (firstHour + index) * 3600
            let first = local.offset(at: Timestamp(seconds: start))
            let last = local.offset(at: Timestamp(seconds: start + 3599))
            return first == last ? Int32(first) : nil
        }
    }

    /// The zone's offset at an instant, in seconds: what `LocalTime.offset(at:)` answers.
    func offset(at microseconds: Int64) -> Int {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : -((-microseconds + 999_999) / 1_000_000)
        let hour = seconds >= 0 ? seconds / 3600 : -((-seconds + 3599) / 3600)
        let index = hour - firstHour
        if index >= 0, index < Int64(offsets.count), let offset = offsets[Int(index)] { return Int(offset) }
        return local.offset(at: Timestamp(microseconds: microseconds))
    }

    /// The instant shown with the zone's offset at that instant (`LocalTime.localized`).
    func localized(_ microseconds: Int64) -> Timestamp {
        Timestamp(microseconds: microseconds, offsetSeconds: offset(at: microseconds))
    }

    /// The local calendar day of an instant (`LocalTime.day(of:)`).
    func day(of microseconds: Int64) -> Day {
        Timestamp(microseconds: microseconds).localWallClock(offsetSeconds: offset(at: microseconds)).day
    }
}
