import ReportCore

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
    /// Σ amount_cents of `paid` and `done` bookings. A Double: amounts are only bounded by Int64,
    /// and a sum must never trap; cents stay exact up to 2^53.
    var revenueCents = 0.0
    /// Σ max(old − price, 0) over the lines of `paid` and `done` bookings.
    var discountCents = 0.0
    /// Σ capacity of the slots starting here (saturating: capacities are only bounded by Int64).
    var capacity: Int64 = 0

    mutating func add(_ other: BucketTotals) {
        bookings += other.bookings
        cancelled += other.cancelled
        noShow += other.noShow
        done += other.done
        booked += other.booked
        revenueCents += other.revenueCents
        discountCents += other.discountCents
        addCapacity(other.capacity)
    }

    mutating func addCapacity(_ value: Int64) {
        let (sum, overflow) = capacity.addingReportingOverflow(value)
        capacity = overflow ? Int64.max : sum
    }

    /// booked / capacity; nil (an empty cell) without capacity; above 1 when overbooked.
    var occupancy: Double? { capacity > 0 ? Double(booked) / Double(capacity) : nil }
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
/// times of non-cancelled bookings (kept, 8 bytes each, because a median needs them all) and the
/// cancellation and basket counts.
struct BookingsTotals: Sendable {
    var buckets: [BucketTotals]
    /// starts_at − created_at in microseconds, non-cancelled bookings only, sorted ascending.
    var leadTimes: [Int64] = []
    var lateCancellations = 0
    /// `paid` and `done` bookings: the denominator of the average basket.
    var paidOrDone = 0

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

    /// A cancellation is late when it comes strictly less than 24 h before the start, or after it.
    static let lateCancellationMicroseconds: Int64 = 24 * 3600 * 1_000_000

    /// Reads the bookings and slots starting in the period. One streaming query each, rows never
    /// held: memory is the buckets and the lead times.
    static func scan(_ database: Database, calendar: BookingsCalendar) throws -> BookingsTotals {
        var totals = BookingsTotals(bucketCount: calendar.bucketCount)
        let bookings = try database.prepare("""
            SELECT b.starts_at_us, b.created_at_us, \(BookingStatus.sqlCode), b.amount_cents, b.cancelled_at_us,
                   CASE WHEN b.status IN ('paid', 'done') THEN
                       (SELECT TOTAL(MAX(l.old_price_cents - l.price_cents, 0)) FROM booking_lines l
                        WHERE l.booking_id = b.id AND l.old_price_cents IS NOT NULL)
                   ELSE 0 END
            FROM bookings b
            WHERE b.starts_at_us >= ? AND b.starts_at_us < ?
            """)
        try bookings.bind([.integer(calendar.start), .integer(calendar.end)])
        while try bookings.step() {
            let startsAt = bookings.int64(0)
            guard let index = calendar.bucket(of: startsAt) else { continue }
            let status = BookingStatus(rawValue: bookings.int64(2)) ?? .noShow
            var bucket = totals.buckets[index]
            bucket.bookings += 1
            switch status {
            case .cancelled:
                bucket.cancelled += 1
                if let cancelledAt = bookings.int64OrNil(4), startsAt - cancelledAt < lateCancellationMicroseconds {
                    totals.lateCancellations += 1
                }
            case .paid, .done:
                if status == .done { bucket.done += 1 }
                bucket.revenueCents += bookings.double(3)
                bucket.discountCents += bookings.double(5)
                totals.paidOrDone += 1
            case .noShow:
                bucket.noShow += 1
            case .pending, .confirmed:
                break
            }
            if status != .cancelled {
                bucket.booked += 1
                totals.leadTimes.append(startsAt - bookings.int64(1))
            }
            totals.buckets[index] = bucket
        }
        totals.leadTimes.sort()

        let slots = try database.prepare("SELECT starts_at_us, capacity FROM slots WHERE starts_at_us >= ? AND starts_at_us < ?")
        try slots.bind([.integer(calendar.start), .integer(calendar.end)])
        while try slots.step() {
            guard let index = calendar.bucket(of: slots.int64(0)) else { continue }
            totals.buckets[index].addCapacity(slots.int64(1))
        }
        return totals
    }
}
