import DomainInterface
import Store
import Time

/// What bookings data the database holds, for `report status` (the months with bookings) and
/// for the line a report of an empty period prints (`no bookings data in 2026-12; the data covers
/// 2026-10-01 to 2026-11-30`).
enum BookingsScopes {
    /// The first and last local day of a booking's start, in `local`; nil without bookings.
    static func coverage(_ database: Database, local: LocalTime) throws -> (from: Day, to: Day)? {
        guard try database.tableExists("bookings"),
            let row = try database.rows("SELECT MIN(starts_at_us), MAX(starts_at_us) FROM bookings").first,
            let first = row[0].int, let last = row[1].int
        else { return nil }
        return (local.day(of: Timestamp(microseconds: first)), local.day(of: Timestamp(microseconds: last)))
    }

    /// One scope per calendar month (Paris time, the default) with at least one booking, counted
    /// with the `starts_at_us` index one month at a time.
    static func scopes(_ database: Database) throws -> [ReportScope] {
        let local = LocalTime.paris
        guard let coverage = try coverage(database, local: local) else { return [] }
        var scopes: [ReportScope] = []
        var month = Day(year: coverage.from.year, month: coverage.from.month, day: 1) ?? coverage.from
        // Months are few; a stray date centuries away stops the list at 1,200 months.
        for _ in 0..<1_200 where month <= coverage.to {
            let next = month.adding(days: 32)
            let following = Day(year: next.year, month: next.month, day: 1) ?? next
            let start = local.instant(day: month, secondOfDay: 0).microseconds
            let end = local.instant(day: following, secondOfDay: 0).microseconds
            let count =
                try database.scalarInt(
                    "SELECT COUNT(*) FROM bookings WHERE starts_at_us >= ? AND starts_at_us < ?",
                    [.integer(start), .integer(end)]) ?? 0
            if count > 0 {
                scopes.append(
                    ReportScope(
                        domain: "bookings", options: "--month \(month.monthKey)", from: month,
                        to: following.adding(days: -1), count: Int(count), unit: "bookings"))
            }
            month = following
        }
        return scopes
    }

    /// The line of an empty period: what was asked, and what the data covers.
    static func emptyPeriod(_ database: Database, options: BookingsOptions, local: LocalTime) throws -> String {
        let period =
            options.monthScope.map { "in \($0)" }
            ?? (options.from == options.to ? "on \(options.from)" : "from \(options.from) to \(options.to)")
        guard let coverage = try coverage(database, local: local) else {
            return "no bookings data \(period); the database holds no booking"
        }
        return "no bookings data \(period); the data covers \(coverage.from) to \(coverage.to)"
    }
}
