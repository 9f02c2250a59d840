/// The lead-time figures of SPEC §4: how long before the appointment bookings are made.
///
/// Computed on microseconds and only turned into hours at the end, so that "strictly under 24 h"
/// is an exact integer comparison. Negative lead times (created after the start) stay in, as the
/// SPEC asks; they are also listed as data-quality issues.
struct LeadTimeSummary: Sendable, Equatable {
    /// nil without non-cancelled bookings.
    let medianHours: Double?
    let under24HoursShare: Double?
    let under7DaysShare: Double?

    static let microsecondsPerHour = 3_600_000_000.0

    /// From lead times sorted ascending.
    init(sortedMicroseconds values: [Int64]) {
        guard !values.isEmpty else {
            medianHours = nil
            under24HoursShare = nil
            under7DaysShare = nil
            return
        }
        let middle = values.count / 2
        let median =
            values.count % 2 == 1
            ? Double(values[middle])
            : (Double(values[middle - 1]) + Double(values[middle])) / 2
        medianHours = median / LeadTimeSummary.microsecondsPerHour
        let hour: Int64 = 3_600_000_000
        under24HoursShare = Double(LeadTimeSummary.countBelow(24 * hour, in: values)) / Double(values.count)
        under7DaysShare = Double(LeadTimeSummary.countBelow(168 * hour, in: values)) / Double(values.count)
    }

    /// How many sorted values are strictly below `limit` (a binary search).
    static func countBelow(_ limit: Int64, in values: [Int64]) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < limit { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
