import Store
import Time

/// One event as the analysis sees it: its days, its zone and its daily opening windows.
struct FleetEvent: Sendable {
    let id: String
    let name: String
    let firstDay: Day
    let lastDay: Day
    let local: LocalTime
    let opensAtMinutes: Int
    let closesAtMinutes: Int
    /// The zone's offsets around the event's days, for localizing many instants quickly.
    let offsets: HourlyOffsets

    /// Loads the event, or throws an error listing the events that exist.
    static func load(_ database: Database, id: String) throws -> FleetEvent {
        guard try database.tableExists("events") else { throw FleetAnalysisError.noEvents }
        let statement = try database.prepare(
            "SELECT name, starts_on, ends_on, timezone, opens_at_minutes, closes_at_minutes FROM events WHERE id = ?")
        try statement.bind([.text(id)])
        guard try statement.step() else {
            let known = try database.rows("SELECT id FROM events ORDER BY id").compactMap { $0.first?.string }
            if known.isEmpty { throw FleetAnalysisError.noEvents }
            throw FleetAnalysisError.unknownEvent(id, known: known)
        }
        let timeZone = statement.string(3)
        guard let local = LocalTime(identifier: timeZone) else {
            throw FleetAnalysisError.unknownTimeZone(event: id, timeZone: timeZone)
        }
        // The importer stores valid dates only; a damaged row still must not crash the report.
        guard let first = Day(statement.string(1)), let last = Day(statement.string(2)) else {
            throw FleetAnalysisError.invalidStoredDates(event: id)
        }
        return FleetEvent(
            id: id, name: statement.string(0), firstDay: first, lastDay: last, local: local,
            opensAtMinutes: Int(statement.int64(4)), closesAtMinutes: Int(statement.int64(5)),
            offsets: HourlyOffsets(local: local, firstDay: first, lastDay: last))
    }

    /// The instant the last day's window closes: where a loan still out stops counting.
    var lastClose: Int64 { local.instant(day: lastDay, secondOfDay: closesAtMinutes * 60).microseconds }

    /// The opening windows of every event day, cut at `asOf` (SPEC §5).
    func windows(asOf: Timestamp) -> [OpeningWindow] {
        Day.range(firstDay, lastDay).map { day in
            let start = local.instant(day: day, secondOfDay: opensAtMinutes * 60).microseconds
            let close = local.instant(day: day, secondOfDay: closesAtMinutes * 60).microseconds
            return OpeningWindow(day: day, start: start, end: max(start, min(close, asOf.microseconds)))
        }
    }
}

/// The hours of one event day when cars can be out, as instants in microseconds: [start, end).
///
/// `end` is already cut at as-of, so a window after as-of is empty and today's is partial: while
/// an event runs, utilization is measured to date.
struct OpeningWindow: Sendable, Equatable {
    let day: Day
    let start: Int64
    let end: Int64

    var length: Int64 { end - start }
}
