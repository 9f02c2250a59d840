import ReportCore

/// New and returning customers per month, and the repeat rate (SPEC §4).
///
/// A customer is a booking's `customer_id`, known in `customers` or not. Their *first booking* is
/// their non-cancelled booking with the earliest `starts_at` in the whole database, before the
/// period included: a customer whose first booking was cancelled is new when their next kept
/// booking happens. In a month of the period:
/// - *new*: the first booking lies in that month, inside the period;
/// - *returning*: a non-cancelled booking in that month, inside the period, and a first booking
///   before the month began.
/// So new and returning never overlap. When the period starts mid-month, a customer whose first
/// booking falls in that month but before the period is neither: their first booking is not
/// counted, and it is not before the month.
struct CustomerCounts: Sendable, Equatable {
    struct MonthRow: Sendable, Equatable {
        let month: String
        var newCustomers = 0
        var returningCustomers = 0
    }

    /// One row per month overlapping the period, zero-filled, in calendar order.
    var months: [MonthRow]
    /// Customers with ≥ 2 non-cancelled bookings / customers with ≥ 1, over every booking that
    /// starts before the period's end; nil without any.
    var repeatRate: Double?

    /// Σ new customers of the months: every customer's first booking lies in one month only.
    var newCustomers: Int { months.reduce(0) { $0 + $1.newCustomers } }

    static func compute(_ database: Database, calendar: BookingsCalendar) throws -> CustomerCounts {
        var counts = CustomerCounts(months: calendar.months.map { MonthRow(month: $0.key) }, repeatRate: nil)
        // Rows come grouped by customer; each group is reduced to a set of months, then dropped.
        let statement = try database.prepare("""
            SELECT b.customer_id, b.starts_at_us,
                   (SELECT MIN(e.starts_at_us) FROM bookings e
                    WHERE e.customer_id = b.customer_id AND e.status <> 'cancelled')
            FROM bookings b
            WHERE b.status <> 'cancelled' AND b.starts_at_us >= ? AND b.starts_at_us < ?
            ORDER BY b.customer_id
            """)
        try statement.bind([.integer(calendar.start), .integer(calendar.end)])
        var currentCustomer: String?
        var returningMonths = Set<Int>()
        func closeCustomer() {
            for month in returningMonths { counts.months[month].returningCustomers += 1 }
            returningMonths.removeAll(keepingCapacity: true)
        }
        while try statement.step() {
            let customer = statement.string(0)
            if customer != currentCustomer {
                closeCustomer()
                currentCustomer = customer
                // The first booking is counted once, from the customer's first row.
                let first = statement.int64(2)
                if let month = calendar.month(of: first) { counts.months[month].newCustomers += 1 }
            }
            let first = statement.int64(2)
            if let month = calendar.month(of: statement.int64(1)), first < calendar.months[month].monthStart {
                returningMonths.insert(month)
            }
        }
        closeCustomer()

        let repeaters = try database.prepare("""
            SELECT COUNT(*), TOTAL(kept >= 2) FROM (
                SELECT COUNT(*) AS kept FROM bookings
                WHERE status <> 'cancelled' AND starts_at_us < ? GROUP BY customer_id)
            """)
        try repeaters.bind([.integer(calendar.end)])
        if try repeaters.step(), repeaters.int64(0) > 0 {
            counts.repeatRate = repeaters.double(1) / Double(repeaters.int64(0))
        }
        return counts
    }
}
