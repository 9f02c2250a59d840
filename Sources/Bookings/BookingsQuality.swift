import ReportCore

/// A data-quality issue of SPEC §4, about one booking of the period (`record` is its id).
///
/// Kept compact (the issue, two strings, two instants) because a database without customers
/// gives one issue per booking; the `detail` text is only built when a writer reads the row.
struct QualityIssue: Sendable, Equatable {
    enum Kind: Int, CaseIterable, Sendable {
        case unresolvedPast, negativeLeadTime, unknownCustomer, unknownService, unknownSlot

        /// The `issue` value of `quality.csv`.
        var name: String {
            switch self {
            case .unresolvedPast: return "unresolved_past"
            case .negativeLeadTime: return "negative_lead_time"
            case .unknownCustomer: return "unknown_customer"
            case .unknownService: return "unknown_service"
            case .unknownSlot: return "unknown_slot"
            }
        }

        /// The `summary.csv` metric counting this issue.
        var metric: String {
            switch self {
            case .unresolvedPast: return "unresolved_past"
            case .negativeLeadTime: return "negative_lead_times"
            case .unknownCustomer: return "unknown_customers"
            case .unknownService: return "unknown_services"
            case .unknownSlot: return "unknown_slots"
            }
        }
    }

    let kind: Kind
    /// The booking id.
    let record: String
    /// The status (unresolved past) or the unknown customer, service or slot id.
    let subject: String
    let startsAt: Int64
    /// created_at, for a negative lead time.
    let createdAt: Int64

    /// One line saying what is wrong, instants shown in the report's zone.
    func detail(_ local: LocalTime) -> String {
        func instant(_ microseconds: Int64) -> String { local.localized(Timestamp(microseconds: microseconds)).description }
        switch kind {
        case .unresolvedPast:
            return "starts \(instant(startsAt)), before the as-of moment, and is still \(subject)"
        case .negativeLeadTime:
            let hours = Double(createdAt - startsAt) / LeadTimeSummary.microsecondsPerHour
            return "created \(instant(createdAt)), \(QualityIssue.hoursText(hours)) h after it starts (\(instant(startsAt)))"
        case .unknownCustomer:
            return "customer \(subject) is not in the customers export"
        case .unknownService:
            return "service \(subject) is not in the services export"
        case .unknownSlot:
            return "slot \(subject) is not in the slots export"
        }
    }

    /// Hours with 2 decimals (`2.50`), without Foundation's locale-dependent formatting.
    static func hoursText(_ hours: Double) -> String {
        let hundredths = Int64((abs(hours) * 100).rounded())
        let fraction = hundredths % 100
        return (hours < 0 && hundredths > 0 ? "-" : "") + String(hundredths / 100) + "."
            + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// Every issue of the bookings starting in the period, by issue (SPEC order), then booking id,
    /// then subject. Orphans are looked up with NOT EXISTS on the referenced table's primary key.
    static func find(_ database: Database, calendar: BookingsCalendar, asOf: Timestamp) throws -> [QualityIssue] {
        let period = "b.starts_at_us >= ?1 AND b.starts_at_us < ?2"
        let queries: [(Kind, String)] = [
            (.unresolvedPast, """
                SELECT b.id, b.status, b.starts_at_us, b.created_at_us FROM bookings b
                WHERE \(period) AND b.starts_at_us < ?3 AND b.status IN ('pending', 'confirmed') ORDER BY b.id
                """),
            (.negativeLeadTime, """
                SELECT b.id, '', b.starts_at_us, b.created_at_us FROM bookings b
                WHERE \(period) AND b.status <> 'cancelled' AND b.created_at_us > b.starts_at_us ORDER BY b.id
                """),
            (.unknownCustomer, """
                SELECT b.id, b.customer_id, b.starts_at_us, b.created_at_us FROM bookings b
                WHERE \(period) AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = b.customer_id) ORDER BY b.id
                """),
            (.unknownService, """
                SELECT DISTINCT b.id, l.service_id, b.starts_at_us, b.created_at_us FROM bookings b
                JOIN booking_lines l ON l.booking_id = b.id
                WHERE \(period) AND NOT EXISTS (SELECT 1 FROM services s WHERE s.id = l.service_id)
                ORDER BY b.id, l.service_id
                """),
            (.unknownSlot, """
                SELECT b.id, b.slot_id, b.starts_at_us, b.created_at_us FROM bookings b
                WHERE \(period) AND b.slot_id IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM slots s WHERE s.id = b.slot_id) ORDER BY b.id
                """),
        ]
        var issues: [QualityIssue] = []
        for (kind, sql) in queries {
            let statement = try database.prepare(sql)
            try statement.bind(.integer(calendar.start), at: 1)
            try statement.bind(.integer(calendar.end), at: 2)
            if kind == .unresolvedPast { try statement.bind(.integer(asOf.microseconds), at: 3) }
            while try statement.step() {
                issues.append(QualityIssue(kind: kind, record: statement.string(0), subject: statement.string(1),
                                           startsAt: statement.int64(2), createdAt: statement.int64(3)))
            }
        }
        return issues
    }
}
