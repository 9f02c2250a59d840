import DomainInterface
import Store
import Time

/// What habits data the database holds, for `report status` and for the line a report of an
/// empty period prints (`no habits data on 2026-12-03; the data covers 2026-10-01 to 2026-11-28`).
enum HabitsScopes {
    /// The first and last day with a task, flow or mood (their `date`), a focus session or a login
    /// (the Paris day of the instant, the default zone), and how many such records: of `user` only
    /// when given.
    static func coverage(_ database: Database, user: String? = nil) throws -> (from: Day, to: Day, records: Int)? {
        let filter = user == nil ? "" : " WHERE user_id = ?"
        let parameters: [SQLValue] = user.map { [.text($0)] } ?? []
        var days: [Day] = []
        var records = 0
        for table in ["tasks", "flows", "moods"] where try database.tableExists(table) {
            for row in try database.rows("SELECT MIN(date), MAX(date), COUNT(*) FROM \(table)" + filter, parameters) {
                days += [row[0].string, row[1].string].compactMap { $0.flatMap(Day.init) }
                records += Int(row[2].int ?? 0)
            }
        }
        for (table, column) in [("focus_sessions", "started_at_us"), ("logins", "at_us")]
        where try database.tableExists(table) {
            for row in try database.rows(
                "SELECT MIN(\(column)), MAX(\(column)), COUNT(*) FROM \(table)" + filter, parameters)
            {
                days += [row[0].int, row[1].int].compactMap { $0 }.map {
                    LocalTime.paris.day(of: Timestamp(microseconds: $0))
                }
                records += Int(row[2].int ?? 0)
            }
        }
        guard let first = days.min(), let last = days.max() else { return nil }
        return (first, last, records)
    }

    /// The one habits report that covers all the data.
    static func scopes(_ database: Database) throws -> [ReportScope] {
        guard let coverage = try coverage(database) else { return [] }
        return [
            ReportScope(
                domain: "habits", options: "--from \(coverage.from) --to \(coverage.to)", from: coverage.from,
                to: coverage.to, count: coverage.records, unit: "records")
        ]
    }

    /// The line of an empty period: what was asked, and what the data covers.
    static func emptyPeriod(_ database: Database, options: HabitsOptions) throws -> String {
        let period = options.from == options.to ? "on \(options.from)" : "from \(options.from) to \(options.to)"
        let who = options.user.map { " for user \($0)" } ?? ""
        guard let coverage = try coverage(database, user: options.user) else {
            return "no habits data\(who) \(period); the database holds none"
        }
        return "no habits data\(who) \(period); the data covers \(coverage.from) to \(coverage.to)"
    }
}
