import ReportModel

/// The tables of a bookings report. The CSV-contract tables carry the exact names and columns of
/// SPEC §6.1; the Markdown-only tables (`top_services`, `top_postal_codes`) and the chart table
/// (`occupancy_by_period`) have names no CSV file uses.
///
/// `services` and `postal_codes` go to CSV and XLSX only: in Markdown their first ten rows in key
/// order would say nothing, so the ranked top-10 tables stand in for them there.
struct BookingsReportTables {
    let metrics: BookingsMetrics

    init(_ metrics: BookingsMetrics) { self.metrics = metrics }

    /// Euros from an exact total of cents; empty when it is too large to show to the cent (a
    /// `figure_out_of_range` quality row says so).
    static func euros(_ cents: CheckedTotal) -> Value { .number(cents.value(dividedBy: 100, places: 2)) }

    /// Ranks totals, largest first; one too large to show ranks above every other.
    static func more(_ left: CheckedTotal, _ right: CheckedTotal) -> Bool {
        if left.overflowed != right.overflowed { return left.overflowed }
        return left.units > right.units
    }

    /// `daily.csv`: every day of the period, zero-filled.
    var daily: Table {
        let totals = metrics.totals
        let rows = metrics.calendar.days.enumerated().map { dayIndex, day -> [Value] in
            let total = totals.day(dayIndex)
            return [
                .day(day), .integer(total.bookings), .integer(total.cancelled), .integer(total.noShow),
                .integer(total.done), Self.euros(total.revenueCents), Self.euros(total.discountCents),
            ]
        }
        return Table(
            name: "daily", title: "Daily",
            columns: [
                Column("day", .date), Column("bookings", .integer), Column("cancelled", .integer),
                Column("no_show", .integer, title: "No-show"), Column("done", .integer),
                Column("revenue_eur", .euros, title: "Revenue (EUR)"),
                Column("discount_eur", .euros, title: "Discount (EUR)"),
            ], rows: rows,
            caption: "Bookings by day of the appointment; revenue and discounts of paid and done bookings."
        ).keyed("day")
    }

    /// `occupancy.csv`: every day × morning, afternoon, evening, in that order. Rows are made on
    /// demand from the compact counters.
    var occupancy: Table {
        let days = metrics.calendar.days
        let buckets = metrics.totals.buckets
        let rows = Rows(count: buckets.count) {
            var index = 0
            return AnyIterator {
                guard index < buckets.count else { return nil }
                defer { index += 1 }
                let bucket = buckets[index]
                return [
                    .day(days[index / 3]), .text(DayPeriod.allCases[index % 3].name), bucket.capacityValue,
                    .integer(bucket.booked), .number(bucket.occupancy),
                ]
            }
        }
        return Table(
            name: "occupancy", title: "Occupancy",
            columns: [
                Column("day", .date), Column("period", .text), Column("capacity", .integer), Column("booked", .integer),
                Column("occupancy", .percent, dataBar: true),
            ], rows: rows, caption: "Booked (not cancelled) against slot capacity; empty without capacity."
        ).keyed("day", "period")
    }

    /// Occupancy of each day period over the whole period: the data of the column chart.
    var occupancyByPeriod: Table {
        let rows = DayPeriod.allCases.map { period -> [Value] in
            let total = metrics.totals.period(period)
            return [.text(period.name), total.capacityValue, .integer(total.booked), .number(total.occupancy)]
        }
        return Table(
            name: "occupancy_by_period", title: "Occupancy by period",
            columns: [
                Column("period", .text), Column("capacity", .integer), Column("booked", .integer),
                Column("occupancy", .percent, dataBar: true),
            ], rows: rows, outputs: [.xlsx, .markdown])
    }

    /// `services.csv`: every service with a line in the period, by id; unknown ids with empty
    /// name and category.
    var services: Table {
        let rows = metrics.services.map { service -> [Value] in
            [
                .text(service.serviceId), .text(service.name), .text(service.category), .integer(service.lines),
                Self.euros(service.revenueCents), Self.euros(service.discountCents),
            ]
        }
        return Table(
            name: "services", title: "Services", columns: Self.serviceColumns, rows: rows, outputs: [.csv, .xlsx]
        ).keyed("service_id")
    }

    static let serviceColumns = [
        Column("service_id", .text, title: "Service id"), Column("service", .text), Column("category", .text),
        Column("bookings", .integer), Column("revenue_eur", .euros, title: "Revenue (EUR)"),
        Column("discount_eur", .euros, title: "Discount (EUR)"),
    ]

    /// The ten services with the most revenue (ties: more bookings, then id).
    var topServices: Table {
        let ranked = metrics.services.sorted { left, right in
            if left.revenueCents != right.revenueCents { return Self.more(left.revenueCents, right.revenueCents) }
            if left.lines != right.lines { return left.lines > right.lines }
            return left.serviceId.utf8.lexicographicallyPrecedes(right.serviceId.utf8)
        }
        let rows = ranked.prefix(10).map { service -> [Value] in
            [
                .text(service.serviceId), .text(service.name), .text(service.category), .integer(service.lines),
                Self.euros(service.revenueCents), Self.euros(service.discountCents),
            ]
        }
        return Table(
            name: "top_services", title: "Top services by revenue", columns: Self.serviceColumns,
            rows: Array(rows), outputs: [.markdown],
            caption: "The ten services with the most revenue from paid and done bookings; all are in services.csv.")
    }

    /// `postal_codes.csv`, by code; bookings without any code come first with an empty code.
    var postalCodes: Table {
        let rows = metrics.postalCodes.map { code -> [Value] in
            [.text(code.postalCode), .integer(code.bookings), Self.euros(code.revenueCents)]
        }
        // Bookings without any code are listed under the empty code: a value of the key, not a
        // missing one (the schema says so, and a loader keeps it as "").
        var table = Table(
            name: "postal_codes", title: "Postal codes", columns: Self.postalCodeColumns, rows: rows,
            outputs: [.csv, .xlsx]
        ).keyed("postal_code")
        table.emptyIsAValue = true
        return table
    }

    static let postalCodeColumns = [
        Column("postal_code", .text), Column("bookings", .integer),
        Column("revenue_eur", .euros, title: "Revenue (EUR)"),
    ]

    /// The ten postal codes with the most bookings (ties: more revenue, then code).
    var topPostalCodes: Table {
        let ranked = metrics.postalCodes.sorted { left, right in
            if left.bookings != right.bookings { return left.bookings > right.bookings }
            if left.revenueCents != right.revenueCents { return Self.more(left.revenueCents, right.revenueCents) }
            return left.postalCode.utf8.lexicographicallyPrecedes(right.postalCode.utf8)
        }
        let rows = ranked.prefix(10).map { code -> [Value] in
            [
                .text(code.postalCode.isEmpty ? "(none)" : code.postalCode), .integer(code.bookings),
                Self.euros(code.revenueCents),
            ]
        }
        return Table(
            name: "top_postal_codes", title: "Top postal codes by bookings", columns: Self.postalCodeColumns,
            rows: Array(rows), outputs: [.markdown],
            caption: "The ten postal codes with the most bookings (the booking's code, else the customer's).")
    }

    /// `customers.csv`: one row per month overlapping the period, zero-filled.
    var customers: Table {
        let rows = metrics.customers.months.map { month -> [Value] in
            [.text(month.month), .integer(month.newCustomers), .integer(month.returningCustomers)]
        }
        return Table(
            name: "customers", title: "Customers",
            columns: [
                Column("month", .text), Column("new_customers", .integer), Column("returning_customers", .integer),
            ], rows: rows,
            caption:
                "New: first kept booking ever in that month. Returning: a kept booking then, the first before "
                + "the month."
        ).keyed("month")
    }

    /// `quality.csv`: (issue, record, detail), details written only when read.
    var quality: Table {
        let issues = metrics.quality
        let local = metrics.calendar.local
        return Table.quality(
            count: issues.count, caption: "Data-quality issues of the period's bookings; record is the booking id."
        ) {
            var iterator = issues.makeIterator()
            return AnyIterator {
                iterator.next().map { QualityRow(issue: $0.kind.name, record: $0.record, detail: $0.detail(local)) }
            }
        }
    }
}
