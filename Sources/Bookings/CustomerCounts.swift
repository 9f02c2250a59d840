import Store

/// New and returning customers per month, and the repeat rate (SPEC §4).
///
/// A customer is a booking's `customer_id`, known in `customers` or not. Their *first booking* is
/// their non-cancelled booking with the earliest `starts_at` in the whole database, before the
/// period included: a customer whose first booking was cancelled is new when their next kept
/// booking happens. A customer *counts* in a month of the period when they have a non-cancelled
/// booking in that month, inside the period; each one who counts is exactly one of:
/// - *new*: the first booking lies in that month, even before the period's start (a period that
///   starts mid-month still calls a customer who began earlier that month new, issue 30);
/// - *returning*: the first booking lies before the month began.
/// (The first booking cannot lie after the month: the counted booking is one of theirs.) So
/// new + returning = customers with a counted booking, month by month.
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

    /// One pass over every kept booking that starts before the period's end, in customer then
    /// start order (the `bookings_customer` index gives that order without a sort): a customer's
    /// first row is their first booking, their row count decides the repeat rate, and their rows
    /// inside the period decide the months. Bookings after the end cannot matter: a customer with
    /// a kept booking in the period has their first booking before that one.
    static func compute(_ database: Database, calendar: BookingsCalendar) throws -> CustomerCounts {
        var counts = CustomerCounts(months: calendar.months.map { MonthRow(month: $0.key) }, repeatRate: nil)
        // The unary + keeps SQLite from reading the range through the starts_at index and sorting.
        let statement = try database.prepare(
            """
            SELECT customer_id, starts_at_us FROM bookings
            WHERE status <> 'cancelled' AND +starts_at_us < ?
            ORDER BY customer_id, starts_at_us
            """)
        try statement.bind([.integer(calendar.end)])
        var customers = 0
        var repeaters = 0
        var currentCustomer: String?
        var first: Int64 = 0
        var kept = 0
        var countedMonths = Set<Int>()
        func closeCustomer() {
            guard currentCustomer != nil else { return }
            customers += 1
            if kept >= 2 { repeaters += 1 }
            for month in countedMonths {
                if first >= calendar.months[month].monthStart {
                    counts.months[month].newCustomers += 1
                } else {
                    counts.months[month].returningCustomers += 1
                }
            }
            countedMonths.removeAll(keepingCapacity: true)
        }
        while try statement.step() {
            let customer = statement.string(0)
            let startsAt = statement.int64(1)
            if customer != currentCustomer {
                closeCustomer()
                currentCustomer = customer
                first = startsAt
                kept = 0
            }
            kept += 1
            if let month = calendar.month(of: startsAt) { countedMonths.insert(month) }
        }
        closeCustomer()
        if customers > 0 { counts.repeatRate = Double(repeaters) / Double(customers) }
        return counts
    }
}
