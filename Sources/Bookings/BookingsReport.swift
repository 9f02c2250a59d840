import ReportModel
import Time

/// The layout of a bookings report: headline figures in `summary.csv` order, the two charts of
/// SPEC §6.2, the occupancy heat map, the CSV-contract tables of §6.1, the Markdown top-10 lists,
/// and `quality` last.
enum BookingsReport {
    static func make(_ metrics: BookingsMetrics) -> Report {
        let options = metrics.options
        let local = metrics.calendar.local
        var parameters: [(name: String, value: String)] = []
        if let month = options.monthScope { parameters.append(("month", month)) }
        parameters += [
            ("from", options.from.description), ("to", options.to.description),
            ("time_zone", local.identifier),
        ]
        let period = options.monthScope ?? (options.from.description + " to " + options.to.description)
        let tables = BookingsReportTables(metrics)
        var report = Report(
            kind: "bookings", title: "Bookings, " + period, scope: options.scope,
            asOf: local.localized(options.asOf), parameters: parameters, figures: figures(metrics),
            // Markdown (chat) shows the latest days first; CSV and XLSX keep the contract order.
            tables: [
                tables.daily.markdown(.latestFirst("day")), tables.occupancy.markdown(.latestFirst("day")),
                tables.occupancyByPeriod, tables.services, tables.topServices,
                tables.postalCodes, tables.topPostalCodes, tables.customers, tables.quality,
            ],
            charts: [
                Chart(
                    .line, title: "Revenue per day (EUR)", table: "daily", category: "day",
                    series: ["revenue_eur"], fileStem: "revenue"),
                Chart(
                    .column, title: "Occupancy by period", table: "occupancy_by_period", category: "period",
                    series: ["occupancy"], fileStem: "occupancy-by-period"),
            ],
            heatMap: heatMap(metrics),
            notes: [
                "Revenue and discounts count paid and done bookings on the day of the appointment (service-day basis).",
                "Occupancy = booked / capacity: empty where no slot capacity exists (blank heat-map cells), "
                    + "above 100 % when overbooked.",
                "A customer's first booking is their earliest non-cancelled booking in all the data, before the "
                    + "period too.",
            ])
        report.timeZone = local.identifier
        return report
    }

    /// The `summary.csv` metrics of SPEC §4, in its order.
    static func figures(_ metrics: BookingsMetrics) -> [Figure] {
        let overall = metrics.totals.overall
        let totals = metrics.totals
        var figures: [Figure] = [
            Figure("bookings", .integer(overall.bookings), .integer),
            Figure("cancelled", .integer(overall.cancelled), .integer),
            Figure("no_show", .integer(overall.noShow), .integer, title: "No-show"),
            Figure("done", .integer(overall.done), .integer),
            Figure("revenue_eur", BookingsReportTables.euros(overall.revenueCents), .euros, title: "Revenue (EUR)"),
            Figure(
                "discount_eur", BookingsReportTables.euros(overall.discountCents), .euros, title: "Discount (EUR)"),
            Figure("cancellation_rate", .number(ratio(overall.cancelled, overall.bookings)), .percent),
            Figure("late_cancellations", .integer(totals.lateCancellations), .integer),
            Figure(
                "lead_time_median_hours", .number(metrics.leadTime.medianHours), .duration,
                title: "Median lead time (hours)"),
            Figure(
                "lead_time_under_24h_share", .number(metrics.leadTime.under24HoursShare), .percent,
                title: "Lead time under 24 h"),
            Figure(
                "lead_time_under_7d_share", .number(metrics.leadTime.under7DaysShare), .percent,
                title: "Lead time under 7 days"),
            Figure(
                "average_basket_eur",
                .number(
                    overall.revenueCents.value(dividedBy: 100, places: 2).flatMap {
                        totals.paidOrDone > 0 ? $0 / Double(totals.paidOrDone) : nil
                    }),
                .euros, title: "Average basket (EUR)"),
            Figure("repeat_rate", .number(metrics.customers.repeatRate), .percent),
            Figure("new_customers", .integer(metrics.customers.newCustomers), .integer),
        ]
        for kind in QualityIssue.Kind.allCases {
            let count = metrics.quality.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) }
            figures.append(Figure(kind.metric, .integer(count), .integer))
        }
        return figures
    }

    static func ratio(_ numerator: Int, _ denominator: Int) -> Double? {
        denominator > 0 ? Double(numerator) / Double(denominator) : nil
    }

    /// Occupancy as a ratio shown in percent, rows = days (date cells in the workbook), columns =
    /// day periods named in words, under the XLSX colour scale and as an SVG grid. A cell without
    /// slot capacity has no occupancy: it holds NaN, which both writers leave blank (a 0 would
    /// read as "nobody booked"); overbooking shows above 100 %.
    static func heatMap(_ metrics: BookingsMetrics) -> HeatMap {
        let buckets = metrics.totals.buckets
        let cells = metrics.calendar.days.indices.map { dayIndex in
            DayPeriod.allCases.map { period in
                buckets[dayIndex * 3 + period.rawValue].occupancy ?? Double.nan
            }
        }
        var heatMap = HeatMap(
            title: "Occupancy by day and period", rowLabels: metrics.calendar.days.map(\.description),
            columnLabels: DayPeriod.allCases.map { Column.humanize($0.name) }, cells: cells,
            fileStem: "occupancy", rowDays: metrics.calendar.days, valueType: .percent, rowHeader: "Day")
        // Booked and capacity, so that a picture of weeks or months shows booked / capacity of each.
        let parts = metrics.calendar.days.indices.map { dayIndex in
            DayPeriod.allCases.map { buckets[dayIndex * 3 + $0.rawValue] }
        }
        heatMap.ratioParts = (
            parts.map { $0.map { Double($0.booked) } },
            parts.map { $0.map { $0.capacity.exactUnits.map(Double.init) ?? .nan } }
        )
        return heatMap
    }
}
