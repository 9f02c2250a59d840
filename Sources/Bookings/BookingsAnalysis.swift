import ReportModel
import Store
import Time

/// `report bookings`: the metrics of SPEC §4 over a period, as a `Report`.
///
/// Set work (filtering by period, grouping by service, postal-code fallback, orphan look-ups,
/// customer order) runs in SQL with bound parameters; the day and period of each booking are
/// found in Swift over one streaming pass, against instants computed once per day from the time
/// zone. Memory is the per-bucket counters, one 8-byte lead time per non-cancelled booking, the
/// quality issues, and the small grouped tables; no booking row is kept.
///
/// Decisions where SPEC §4 is silent:
/// - Quality issues concern the bookings starting in the period; each `summary.csv` issue count
///   is the number of `quality.csv` rows of that issue. `unknown_service` has one row per booking
///   and missing service id (an id twice in one booking is one row).
/// - A cancelled booking without `cancelled_at` is not a late cancellation (it cannot be judged).
/// - An empty postal code (`""`) counts as none: the customer's code is used instead.
/// - Returning customers have their first booking before the month began (see `CustomerCounts`).
/// - Occupancy cells without capacity are blank (NaN) in the heat map, not 0 %.
/// - Periods longer than 3,660 days are refused with a message.
public enum BookingsAnalysis {
    public static func report(database: Database, options: BookingsOptions) throws -> Report {
        let metrics = try BookingsMetrics.compute(database: database, options: options)
        var report = BookingsReport.make(metrics)
        // No booking and no slot in the period: nothing to report (exit 5 unless --allow-empty).
        if metrics.totals.overall.bookings == 0, metrics.totals.overall.capacity.exactUnits == 0 {
            report.emptyPeriod = try BookingsScopes.emptyPeriod(
                database, options: options, local: metrics.calendar.local)
        }
        return report
    }
}

/// Every figure and table of a bookings report, computed, before any layout.
struct BookingsMetrics: Sendable {
    let options: BookingsOptions
    let calendar: BookingsCalendar
    let totals: BookingsTotals
    let leadTime: LeadTimeSummary
    let customers: CustomerCounts
    let services: [ServiceRow]
    let postalCodes: [PostalCodeRow]
    let quality: [QualityIssue]

    static func compute(database: Database, options: BookingsOptions) throws -> BookingsMetrics {
        guard let local = LocalTime(identifier: options.timeZone) else {
            throw BookingsAnalysisError.unknownTimeZone(options.timeZone)
        }
        let calendar = try BookingsCalendar(from: options.from, to: options.to, local: local)
        // One read transaction: every query sees the same snapshot even while an import writes.
        return try database.transaction(immediate: false) {
            let filter = try PeriodFilter.choose(database, calendar: calendar)
            var totals = try BookingsTotals.scan(database, calendar: calendar, filter: filter, asOf: options.asOf)
            let leadTime = LeadTimeSummary(sortedMicroseconds: totals.leadTimes)
            totals.leadTimes = []
            let services = try BookingsBreakdowns.services(database, calendar: calendar, filter: filter)
            var quality = totals.issues
            totals.issues = []
            if services.contains(where: { $0.name == nil }) {
                quality += try QualityIssue.unknownServices(database, filter: filter, calendar: calendar)
            }
            quality += QualityIssue.figuresOutOfRange(
                totals: totals, services: services, postalCodes: totals.postalCodeRows, calendar: calendar)
            quality.sort(by: QualityIssue.precedes)
            return BookingsMetrics(
                options: options, calendar: calendar, totals: totals, leadTime: leadTime,
                customers: try CustomerCounts.compute(database, calendar: calendar), services: services,
                postalCodes: totals.postalCodeRows, quality: quality)
        }
    }
}
