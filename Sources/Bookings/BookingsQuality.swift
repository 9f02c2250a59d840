import ReportModel
import Store
import Time

/// A data-quality issue of SPEC §4, about one booking of the period (`record` is its id).
///
/// Kept compact (the issue, two strings, two instants) because a database without customers
/// gives one issue per booking; the `detail` text is only built when a writer reads the row.
struct QualityIssue: Sendable, Equatable {
    enum Kind: Int, CaseIterable, Sendable {
        case unresolvedPast, negativeLeadTime, unknownCustomer, unknownService, unknownSlot
        /// A total too large to show exactly (issue 30): `record` names the row, `subject` the figure.
        case figureOutOfRange

        /// The `issue` value of `quality.csv`.
        var name: String {
            switch self {
            case .unresolvedPast: return "unresolved_past"
            case .negativeLeadTime: return "negative_lead_time"
            case .unknownCustomer: return "unknown_customer"
            case .unknownService: return "unknown_service"
            case .unknownSlot: return "unknown_slot"
            case .figureOutOfRange: return "figure_out_of_range"
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
            case .figureOutOfRange: return "figures_out_of_range"
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
        func instant(_ microseconds: Int64) -> String {
            local.localized(Timestamp(microseconds: microseconds)).description
        }
        switch kind {
        case .unresolvedPast:
            return "starts \(instant(startsAt)), before the as-of moment, and is still \(subject)"
        case .negativeLeadTime:
            let hours = Double(createdAt - startsAt) / LeadTimeSummary.microsecondsPerHour
            return
                "created \(instant(createdAt)), \(QualityIssue.hoursText(hours)) h after it starts "
                + "(\(instant(startsAt)))"
        case .unknownCustomer:
            return "customer \(subject) is not in the customers export"
        case .unknownService:
            return "service \(subject) is not in the services export"
        case .unknownSlot:
            return "slot \(subject) is not in the slots export"
        case .figureOutOfRange:
            return
                "\(subject) is a total of more than 15 digits (or past 2^63 units) and cannot be shown exactly; the "
                + "cell is left empty"
        }
    }

    /// Hours with 2 decimals (`2.50`), without Foundation's locale-dependent formatting.
    static func hoursText(_ hours: Double) -> String {
        let hundredths = Int64((abs(hours) * 100).rounded())
        let fraction = hundredths % 100
        return (hours < 0 && hundredths > 0 ? "-" : "") + String(hundredths / 100) + "."
            + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// The order of `quality.csv`: by issue (SPEC order), then booking id, then subject, in byte
    /// order like SQL's.
    static func precedes(_ left: QualityIssue, _ right: QualityIssue) -> Bool {
        if left.kind != right.kind { return left.kind.rawValue < right.kind.rawValue }
        if left.record != right.record { return left.record.utf8.lexicographicallyPrecedes(right.record.utf8) }
        return left.subject.utf8.lexicographicallyPrecedes(right.subject.utf8)
    }

    /// One issue per booking of the period and service id missing from `services`. Only run when
    /// the services table showed such an id, so a clean database pays nothing for it.
    static func unknownServices(
        _ database: Database, filter: PeriodFilter,
        calendar: BookingsCalendar
    ) throws -> [QualityIssue] {
        let statement = try database.prepare(
            """
            SELECT DISTINCT b.id, l.service_id, b.starts_at_us, b.created_at_us FROM bookings b
            JOIN booking_lines l ON l.customer_id = b.customer_id AND l.booking_id = b.id
            WHERE \(filter.condition) AND NOT EXISTS (SELECT 1 FROM services s WHERE s.id = l.service_id)
            """)
        try statement.bind([.integer(calendar.start), .integer(calendar.end)])
        var issues: [QualityIssue] = []
        while try statement.step() {
            issues.append(
                QualityIssue(
                    kind: .unknownService, record: statement.string(0), subject: statement.string(1),
                    startsAt: statement.int64(2), createdAt: statement.int64(3)))
        }
        return issues
    }
}

extension QualityIssue {
    /// One `figure_out_of_range` row per total of the report that `CheckedTotal` will not show:
    /// the days, day periods, services and postal codes, and the summary. Real data never gives
    /// one (import limits: docs/RELIABILITY.md); absurd data gets an empty cell and this row.
    static func figuresOutOfRange(
        totals: BookingsTotals, services: [ServiceRow], postalCodes: [PostalCodeRow], calendar: BookingsCalendar
    ) -> [QualityIssue] {
        var issues: [QualityIssue] = []
        func check(_ total: CheckedTotal, money: Bool, _ figure: String, _ row: String) {
            guard !total.isShown(dividedBy: money ? 100 : 1, places: money ? 2 : 0) else { return }
            issues.append(
                QualityIssue(kind: .figureOutOfRange, record: row, subject: figure, startsAt: 0, createdAt: 0))
        }
        let overall = totals.overall
        check(overall.revenueCents, money: true, "revenue_eur", "summary")
        check(overall.discountCents, money: true, "discount_eur", "summary")
        for (index, day) in calendar.days.enumerated() {
            let total = totals.day(index)
            check(total.revenueCents, money: true, "revenue_eur", "daily \(day)")
            check(total.discountCents, money: true, "discount_eur", "daily \(day)")
            for period in DayPeriod.allCases {
                check(
                    totals.buckets[index * 3 + period.rawValue].capacity, money: false, "capacity",
                    "occupancy \(day) \(period.name)")
            }
        }
        for period in DayPeriod.allCases {
            check(totals.period(period).capacity, money: false, "capacity", "occupancy_by_period \(period.name)")
        }
        for service in services {
            check(service.revenueCents, money: true, "revenue_eur", "service \(service.serviceId)")
            check(service.discountCents, money: true, "discount_eur", "service \(service.serviceId)")
        }
        for code in postalCodes {
            check(code.revenueCents, money: true, "revenue_eur", "postal_code \(code.postalCode)")
        }
        return issues
    }
}
