import Bookings
import Fleet
import Foundation
import Habits
import ReportModel
import Time

/// The reports a night writes (SPEC §7, issue 7), each made by its command's own code:
///
/// - the fleet report of every event whose days (starts_on…ends_on) include the as-of day or the
///   day before, each in the event's own time zone: so an event is reported every morning while
///   it runs and once more the morning after its last day, which then holds the final figures;
/// - the habits report of the day before the as-of day in Europe/Paris (`report habits`' default);
/// - the bookings report of the month to date (`report bookings`' default).
struct NightlyReport {
    /// What the log calls it: `fleet salon2016`, `habits`, `bookings`.
    let label: String
    let make: () throws -> Report
}

enum NightlyReports {
    /// The reports to write at `asOf`. Reading the events can fail (a damaged database): that is
    /// thrown, and the caller still writes the habits and bookings reports.
    static func fleet(asOf: Timestamp, context: CommandContext) throws -> [NightlyReport] {
        let events = try ReportOutput.withDatabase(context) { database in
            try database.rows("SELECT id, starts_on, ends_on, timezone FROM events ORDER BY id")
        }
        var reports: [NightlyReport] = []
        for row in events {
            guard let id = row[0].string, let startsOn = row[1].string.flatMap(Day.init),
                  let endsOn = row[2].string.flatMap(Day.init) else { continue }
            // An unknown zone falls back to Paris for choosing; the report itself then says what is wrong.
            let zone = row[3].string.flatMap { LocalTime(identifier: $0) } ?? LocalTime.paris
            guard isOpen(startsOn: startsOn, endsOn: endsOn, today: zone.day(of: asOf)) else { continue }
            let options = FleetOptions(eventId: id, asOf: asOf)
            reports.append(NightlyReport(label: "fleet \(id)") { try FleetCommand.makeReport(options, context) })
        }
        return reports
    }

    /// The habits report of yesterday in Paris, and the bookings report of the month to date.
    static func daily(asOf: Timestamp, context: CommandContext) -> [NightlyReport] {
        let habits = HabitsOptions(day: HabitsOptions.defaultDay(asOf: asOf), asOf: asOf)
        return [
            NightlyReport(label: "habits") { try HabitsCommand.makeReport(habits, context) },
            NightlyReport(label: "bookings") {
                let options: BookingsOptions
                do { options = try BookingsOptions.currentMonth(asOf: asOf) } catch {
                    throw CommandFailure(String(describing: error))
                }
                return try BookingsCommand.makeReport(options, context)
            },
        ]
    }

    /// The event's days meet {yesterday, today}.
    static func isOpen(startsOn: Day, endsOn: Day, today: Day) -> Bool {
        startsOn <= today && today.adding(days: -1) <= endsOn
    }
}
