import Time

/// The part of a day a booking or slot starts in (SPEC §4): local start before 12:00, before
/// 18:00, or later.
public enum DayPeriod: Int, CaseIterable, Sendable {
    case morning, afternoon, evening

    /// The name used in `occupancy.csv`.
    public var name: String {
        switch self {
        case .morning: return "morning"
        case .afternoon: return "afternoon"
        case .evening: return "evening"
        }
    }

    /// The local second of the day at which the period starts.
    var startSecond: Int {
        switch self {
        case .morning: return 0
        case .afternoon: return 12 * 3600
        case .evening: return 18 * 3600
        }
    }
}

/// The period of a report cut into instants: one bucket per day and day period, and one range per
/// calendar month.
///
/// Every boundary is the instant at which the local wall clock shows 00:00, 12:00 or 18:00 on a
/// day, found through the zone (`LocalTime.instant`), so that a DST day has its true 23 or 25
/// hours and no code ever adds 86,400 s. A booking then finds its day and period by a binary search
/// over instants, with no time-zone lookup per booking: what keeps 500,000 bookings cheap.
struct BookingsCalendar: Sendable {
    /// A calendar month overlapping the period.
    struct Month: Sendable {
        /// `2026-11`.
        let key: String
        /// The instant the month starts (local midnight of its first day), even before the period.
        let monthStart: Int64
        /// The part of the month inside the period: `[lower, upper)` in microseconds.
        let lower: Int64
        let upper: Int64
    }

    /// The longest period one report covers: ten years, so that a typing slip (`--from 0001-01-01`)
    /// fails with a message instead of building millions of empty rows.
    static let maximumDays = 3660

    let local: LocalTime
    /// Every day of the period, in order.
    let days: [Day]
    /// `days.count × 3 + 1` instants in microseconds: bucket `i` is `[boundaries[i], boundaries[i + 1])`,
    /// bucket `3 × dayIndex + period.rawValue`.
    let boundaries: [Int64]
    let months: [Month]

    init(from: Day, to: Day, local: LocalTime) throws(BookingsAnalysisError) {
        guard from <= to else { throw .periodReversed(from: from, to: to) }
        guard to - from + 1 <= BookingsCalendar.maximumDays else {
            throw .periodTooLong(from: from, to: to, limit: BookingsCalendar.maximumDays)
        }
        self.local = local
        days = Day.range(from, to)
        var boundaries: [Int64] = []
        boundaries.reserveCapacity(days.count * 3 + 1)
        func append(_ instant: Int64) {
            // Kept non-decreasing even in a zone whose clock jumps across a boundary: a bucket
            // may then be empty, never overlap another.
            boundaries.append(max(instant, boundaries.last ?? Int64.min))
        }
        for day in days {
            for period in DayPeriod.allCases {
                append(local.instant(day: day, secondOfDay: period.startSecond).microseconds)
            }
        }
        append(local.instant(day: to.adding(days: 1), secondOfDay: 0).microseconds)
        self.boundaries = boundaries

        var months: [Month] = []
        var monthFirst = Day(year: from.year, month: from.month, day: 1) ?? from
        let periodStart = boundaries[0]
        let periodEnd = boundaries[boundaries.count - 1]
        while monthFirst <= to {
            let (year, month, _) = monthFirst.components
            let nextFirst = monthFirst.adding(days: Day.daysInMonth(year: year, month: month))
            let start = local.instant(day: monthFirst, secondOfDay: 0).microseconds
            let end = local.instant(day: nextFirst, secondOfDay: 0).microseconds
            months.append(
                Month(
                    key: monthFirst.monthKey, monthStart: start,
                    lower: max(start, periodStart), upper: min(end, periodEnd)))
            monthFirst = nextFirst
        }
        self.months = months
    }

    /// The first instant of the period (local midnight of `from`).
    var start: Int64 { boundaries[0] }
    /// The instant just after the period (local midnight after `to`).
    var end: Int64 { boundaries[boundaries.count - 1] }
    var bucketCount: Int { boundaries.count - 1 }

    /// The bucket (`3 × dayIndex + period`) holding an instant, or nil outside the period.
    func bucket(of instant: Int64) -> Int? {
        guard instant >= start, instant < end else { return nil }
        // The last boundary not after the instant.
        var low = 0
        var high = boundaries.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if boundaries[middle] <= instant { low = middle } else { high = middle }
        }
        return low
    }

    /// The index in `months` of the month holding an instant of the period, or nil outside it.
    func month(of instant: Int64) -> Int? {
        guard instant >= start, instant < end else { return nil }
        var low = 0
        var high = months.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if months[middle].lower <= instant { low = middle } else { high = middle }
        }
        return low
    }
}
