import ReportModel
import Store

/// One row of `services.csv`: a service with at least one line among the period's bookings.
struct ServiceRow: Sendable, Equatable {
    let serviceId: String
    /// nil for a service id missing from `services` (shown empty).
    let name: String?
    let category: String?
    /// Lines of any status: a service twice in one booking counts 2.
    let lines: Int
    /// Σ line price_cents of `paid` and `done` bookings.
    let revenueCents: CheckedTotal
    /// Σ max(old_price_cents − price_cents, 0) of those lines, each with its own old price.
    let discountCents: CheckedTotal
}

/// One row of `postal_codes.csv`.
struct PostalCodeRow: Sendable, Equatable {
    /// The booking's own code, else its customer's, else "" (no code).
    let postalCode: String
    /// Bookings of any status.
    var bookings: Int
    /// Σ amount_cents of `paid` and `done` bookings.
    var revenueCents: CheckedTotal
}

/// The per-service table, grouped in SQL: a few hundred rows at most come back, whatever the
/// number of bookings. Ordered by key (SQLite's byte order). (Postal codes are grouped during the
/// bookings scan, which already reads each booking's code.)
enum BookingsBreakdowns {
    static func services(_ database: Database, calendar: BookingsCalendar, filter: PeriodFilter) throws -> [ServiceRow]
    {
        // Money sums use TOTAL (a double) over non-negative integers: exact up to 2^53, and a larger
        // total is marked rather than trusted (`CheckedTotal(sqlTotal:)`); SUM would fail the whole
        // report on SQLite's integer overflow, and PostgreSQL's numeric SUM could not be read whole.
        let statement = try database.prepare(
            """
            SELECT l.service_id, s.name, s.category, COUNT(*),
                   TOTAL(CASE WHEN b.status IN ('paid', 'done') THEN l.price_cents ELSE 0 END),
                   TOTAL(CASE WHEN b.status IN ('paid', 'done') AND l.old_price_cents > l.price_cents
                              THEN l.old_price_cents - l.price_cents ELSE 0 END)
            FROM bookings b
            JOIN booking_lines l ON l.customer_id = b.customer_id AND l.booking_id = b.id
            LEFT JOIN services s ON s.id = l.service_id
            WHERE \(filter.condition)
            GROUP BY l.service_id, s.name, s.category
            ORDER BY l.service_id
            """)
        try statement.bind([.integer(calendar.start), .integer(calendar.end)])
        var rows: [ServiceRow] = []
        while try statement.step() {
            rows.append(
                ServiceRow(
                    serviceId: statement.string(0), name: statement.stringOrNil(1),
                    category: statement.stringOrNil(2), lines: Int(statement.int64(3)),
                    revenueCents: CheckedTotal(sqlTotal: statement.double(4)),
                    discountCents: CheckedTotal(sqlTotal: statement.double(5))))
        }
        return rows
    }
}
