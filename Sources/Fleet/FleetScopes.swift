import DomainInterface
import Store
import Time

/// The events the database holds, with their days and loans: what `report status` lists under
/// "what can be reported" and what `report fleet` prints without `--event`.
enum FleetScopes {
    /// Every event by id, with its loans: non-cancelled assignments with a check-out record.
    static func scopes(_ database: Database) throws -> [ReportScope] {
        try events(database).map {
            ReportScope(
                domain: "fleet", options: "--event \($0.id)", name: $0.name, from: $0.from, to: $0.to,
                count: $0.loans, unit: "loans")
        }
    }

    private static func events(
        _ database: Database
    ) throws -> [(id: String, name: String, from: Day, to: Day, loans: Int)] {
        guard try database.tableExists("events"), try database.tableExists("assignments"),
            try database.tableExists("loan_records")
        else { return [] }
        // The loans are counted per event apart from the events: a distributed database (Citus)
        // runs the count on each shard (its join equates the distribution column, event_id), where
        // a count correlated to each row of the reference table `events` is refused.
        var loans: [String: Int] = [:]
        for row in try database.rows(
            """
            SELECT a.event_id, COUNT(*) FROM assignments a WHERE a.cancelled = 0
                AND EXISTS (SELECT 1 FROM loan_records r
                    WHERE r.event_id = a.event_id AND r.assignment_id = a.id AND r.kind = 'check_out')
            GROUP BY a.event_id
            """)
        {
            if let event = row[0].string { loans[event] = Int(row[1].int ?? 0) }
        }
        let rows = try database.rows("SELECT id, name, starts_on, ends_on FROM events ORDER BY id")
        return rows.compactMap { row in
            guard let id = row[0].string, let from = row[2].string.flatMap(Day.init),
                let to = row[3].string.flatMap(Day.init)
            else { return nil }
            return (id, row[1].string ?? "", from, to, loans[id] ?? 0)
        }
    }

    /// The line of an event without any assignment that is not cancelled.
    static func emptyPeriod(_ database: Database, event: FleetEvent) throws -> String {
        let withData = try events(database).filter { $0.loans > 0 }.map { "\($0.id) (\($0.from) to \($0.to))" }
        let others = withData.isEmpty ? "no event has loans" : "events with loans: " + withData.joined(separator: ", ")
        return "no fleet data for event \(event.id) (\(event.firstDay) to \(event.lastDay)): no assignment that is "
            + "not cancelled; " + others
    }
}
