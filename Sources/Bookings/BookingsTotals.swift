import ReportModel

/// The counts of one day period (or, summed, of one day): what `daily.csv` and `occupancy.csv`
/// are made of.
struct BucketTotals: Sendable {
    /// Bookings of any status.
    var bookings = 0
    var cancelled = 0
    var noShow = 0
    var done = 0
    /// Bookings of any status but `cancelled` (the occupancy numerator).
    var booked = 0
    /// Σ amount_cents of `paid` and `done` bookings, exact (checked: an absurd total is marked,
    /// never wrapped, saturated or rounded; issue 30).
    var revenueCents = CheckedTotal()
    /// Σ max(old − price, 0) over the lines of `paid` and `done` bookings.
    var discountCents = CheckedTotal()
    /// Σ capacity of the slots starting here.
    var capacity = CheckedTotal()

    mutating func add(_ other: BucketTotals) {
        bookings += other.bookings
        cancelled += other.cancelled
        noShow += other.noShow
        done += other.done
        booked += other.booked
        revenueCents.add(other.revenueCents)
        discountCents.add(other.discountCents)
        capacity.add(other.capacity)
    }

    /// The capacity as a cell: empty when the sum cannot be shown exactly.
    var capacityValue: Value { capacity.value(dividedBy: 1, places: 0).map { .integer(Int64($0)) } ?? .empty }

    /// booked / capacity; nil (an empty cell) without capacity, or with one too large to show;
    /// above 1 when overbooked.
    var occupancy: Double? {
        guard let capacity = capacity.value(dividedBy: 1, places: 0), capacity > 0 else { return nil }
        return Double(booked) / capacity
    }
}

/// Statuses as small codes, decided in SQL so that no status string is read per booking.
enum BookingStatus: Int64 {
    case pending = 0, confirmed, paid, done, cancelled, noShow

    /// The SQL expression giving a booking's code (the table alias must be `b`).
    static let sqlCode = """
        CASE b.status WHEN 'pending' THEN 0 WHEN 'confirmed' THEN 1 WHEN 'paid' THEN 2 WHEN 'done' THEN 3 \
        WHEN 'cancelled' THEN 4 ELSE 5 END
        """
}

/// Everything one pass over the period's bookings and slots yields: per-bucket counts, the lead
/// times of non-cancelled bookings (kept, 8 bytes each, because a median needs them all), the
/// cancellation and basket counts, the postal-code groups and the per-booking quality issues.
struct BookingsTotals: Sendable {
    var buckets: [BucketTotals]
    /// starts_at − created_at in microseconds, non-cancelled bookings only, sorted ascending.
    var leadTimes: [Int64] = []
    var lateCancellations = 0
    /// `paid` and `done` bookings: the denominator of the average basket.
    var paidOrDone = 0
    /// By postal code ("" for none): bookings and revenue. A few hundred keys at most.
    var postalCodes: [String: PostalCodeRow] = [:]
    /// Unresolved past, negative lead time, unknown customer and unknown slot issues, in the
    /// order met (sorted later with the unknown services).
    var issues: [QualityIssue] = []

    init(bucketCount: Int) { buckets = Array(repeating: BucketTotals(), count: bucketCount) }

    /// The totals of the whole period.
    var overall: BucketTotals {
        var total = BucketTotals()
        for bucket in buckets { total.add(bucket) }
        return total
    }

    /// The totals of one day (its three periods).
    func day(_ dayIndex: Int) -> BucketTotals {
        var total = BucketTotals()
        for period in DayPeriod.allCases { total.add(buckets[dayIndex * 3 + period.rawValue]) }
        return total
    }

    /// The totals of one day period over every day.
    func period(_ period: DayPeriod) -> BucketTotals {
        var total = BucketTotals()
        for index in stride(from: period.rawValue, to: buckets.count, by: 3) { total.add(buckets[index]) }
        return total
    }

    /// The postal-code rows in key order (byte order, "" first), as SQL's ORDER BY would give.
    var postalCodeRows: [PostalCodeRow] {
        postalCodes.values.sorted { $0.postalCode.utf8.lexicographicallyPrecedes($1.postalCode.utf8) }
    }
}
