import ReportModel
import Store
import Time

/// The one streaming pass over the period's bookings (and the small one over its slots).
///
/// Each booking row carries what every per-booking metric needs, decided in SQL: its status as a
/// code, its discount (Σ over its lines, for paid and done), its postal code after the fallback
/// to the customer's, and whether its customer and slot are known. Swift then finds its bucket by
/// a binary search over the period's instants and adds it to compact counters. Rows are never
/// held; ids are only read for the few bookings with an issue.
extension BookingsTotals {
    /// A cancellation is late when it comes strictly less than 24 h before the start, or after it.
    /// A cancelled booking without `cancelled_at` cannot be judged and is not counted late.
    static let lateCancellationMicroseconds: Int64 = 24 * 3600 * 1_000_000

    /// The period's bookings with their discount (a subquery over their lines), their customer
    /// (a reference table on Citus) and whether their slot exists: on Citus, pushed down whole to
    /// each worker, bookings and lines colocated by customer (`BookingsCitusPlanTests`).
    static func bookingsSQL(condition: String) -> String {
        """
        SELECT b.starts_at_us, b.created_at_us, \(BookingStatus.sqlCode), b.amount_cents, b.cancelled_at_us,
               CASE WHEN b.status IN ('paid', 'done') THEN
                   (SELECT TOTAL(CASE WHEN l.old_price_cents > l.price_cents
                                  THEN l.old_price_cents - l.price_cents ELSE 0 END)
                    FROM booking_lines l
                    WHERE l.customer_id = b.customer_id AND l.booking_id = b.id AND l.old_price_cents IS NOT NULL)
               ELSE 0 END,
               COALESCE(NULLIF(b.postal_code, ''), NULLIF(c.postal_code, ''), ''),
               c.id IS NULL,
               b.slot_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM slots s WHERE s.id = b.slot_id),
               b.id, b.customer_id, b.slot_id
        FROM bookings b
        LEFT JOIN customers c ON c.id = b.customer_id
        WHERE \(condition)
        """
    }

    static func scan(
        _ database: Database, calendar: BookingsCalendar, filter: PeriodFilter,
        asOf: Timestamp
    ) throws -> BookingsTotals {
        var totals = BookingsTotals(bucketCount: calendar.bucketCount)
        let bookings = try database.prepare(bookingsSQL(condition: filter.condition))
        try bookings.bind([.integer(calendar.start), .integer(calendar.end)])
        let asOfMicroseconds = asOf.microseconds
        while try bookings.step() {
            let startsAt = bookings.int64(0)
            guard let index = calendar.bucket(of: startsAt) else { continue }
            let createdAt = bookings.int64(1)
            let status = BookingStatus(rawValue: bookings.int64(2)) ?? .noShow
            let amount = bookings.int64(3)
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
                bucket.revenueCents.add(amount)
                // TOTAL over one booking's lines, each at most 10^12 cents: exact, or marked.
                bucket.discountCents.add(CheckedTotal(sqlTotal: bookings.double(5)))
                totals.paidOrDone += 1
            case .noShow:
                bucket.noShow += 1
            case .pending, .confirmed:
                break
            }
            if status != .cancelled {
                bucket.booked += 1
                totals.leadTimes.append(startsAt - createdAt)
            }
            totals.buckets[index] = bucket

            let code = bookings.string(6)
            var group =
                totals.postalCodes[code] ?? PostalCodeRow(postalCode: code, bookings: 0, revenueCents: CheckedTotal())
            group.bookings += 1
            if status == .paid || status == .done { group.revenueCents.add(amount) }
            totals.postalCodes[code] = group

            func issue(_ kind: QualityIssue.Kind, _ subject: String) {
                totals.issues.append(
                    QualityIssue(
                        kind: kind, record: bookings.string(9), subject: subject,
                        startsAt: startsAt, createdAt: createdAt))
            }
            if (status == .pending || status == .confirmed) && startsAt < asOfMicroseconds {
                issue(.unresolvedPast, status == .pending ? "pending" : "confirmed")
            }
            if status != .cancelled && createdAt > startsAt { issue(.negativeLeadTime, "") }
            if bookings.int64(7) != 0 { issue(.unknownCustomer, bookings.string(10)) }
            if bookings.int64(8) != 0 { issue(.unknownSlot, bookings.string(11)) }
        }
        totals.leadTimes.sort()

        let slots = try database.prepare(
            "SELECT starts_at_us, capacity FROM slots WHERE starts_at_us >= ? AND starts_at_us < ?")
        try slots.bind([.integer(calendar.start), .integer(calendar.end)])
        while try slots.step() {
            guard let index = calendar.bucket(of: slots.int64(0)) else { continue }
            totals.buckets[index].capacity.add(slots.int64(1))
        }
        return totals
    }
}

/// How SQL selects the bookings of the period: through the `starts_at` index when they are a
/// small part of the table (a month out of years), or by reading the table in order when they
/// are most of it (a year of a year's data), where a lookup per row would cost far more than the
/// rows it skips. Either way the condition is the same range with bound parameters `?1`, `?2`.
struct PeriodFilter: Sendable {
    /// The WHERE condition on the alias `b`.
    let condition: String

    static let indexed = PeriodFilter(condition: "b.starts_at_us >= ?1 AND b.starts_at_us < ?2")
    /// The unary `+` keeps SQLite from using the index for the range.
    static let tableScan = PeriodFilter(condition: "+b.starts_at_us >= ?1 AND +b.starts_at_us < ?2")

    /// Counts (from the index alone) how many bookings the period holds against the whole table.
    static func choose(_ database: Database, calendar: BookingsCalendar) throws -> PeriodFilter {
        let inPeriod =
            try database.scalarInt(
                "SELECT COUNT(*) FROM bookings WHERE starts_at_us >= ? AND starts_at_us < ?",
                [.integer(calendar.start), .integer(calendar.end)]) ?? 0
        let all = try database.scalarInt("SELECT COUNT(*) FROM bookings") ?? 0
        return inPeriod * 8 < all ? .indexed : .tableScan
    }
}
