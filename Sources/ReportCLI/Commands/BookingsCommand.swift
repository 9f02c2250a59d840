import Bookings
import Foundation
import ReportCore

/// `report bookings`: revenue, occupancy, cancellations, lead time and customers of a period.
public enum BookingsCommand: Command {
    public static let spec = CommandSpec(
        name: "bookings",
        abstract: "Bookings report of a month or period: revenue, occupancy, cancellations, customers.",
        discussion: """
            The period is --month YYYY-MM, or --from and --to (dates, inclusive); by default the current
            month up to --as-of. Days and morning/afternoon/evening are taken in --timezone.
            Files: bookings-<month>.xlsx, bookings-<month>/ (CSV), bookings-<month>.md; a range gives
            bookings-<from>_<to>.
            """,
        options: [
            .value("month", "YYYY-MM", help: "The month to report (the current month ends at --as-of)."),
            .value("from", "DATE", help: "First day of the period (with --to)."),
            .value("to", "DATE", help: "Last day of the period (with --from)."),
            .value("timezone", "TZ", help: "The IANA time zone of days and periods (default Europe/Paris)."),
            CommonOptions.asOf, CommonOptions.database, CommonOptions.busyTimeout,
        ] + ReportOutput.options + [CommonOptions.quiet])

    public static func run(_ context: CommandContext) throws -> ExitCode {
        let asOf = try context.asOf()
        let zone = context.arguments.value("timezone") ?? "Europe/Paris"
        let from = try ReportOutput.day(context, "from"), to = try ReportOutput.day(context, "to")
        let options: BookingsOptions
        do {
            switch (context.arguments.value("month"), from, to) {
            case (let month?, nil, nil):
                options = try BookingsOptions.month(month, timeZone: zone, asOf: asOf)
            case (nil, let from?, let to?):
                guard Zones.shared.isKnown(zone) else { throw UsageError("--timezone: unknown time zone \"\(zone)\"") }
                guard from <= to else { throw UsageError("--from \(from) is after --to \(to)") }
                options = BookingsOptions(from: from, to: to, timeZone: zone, asOf: asOf)
            case (nil, nil, nil):
                options = try BookingsOptions.currentMonth(timeZone: zone, asOf: asOf)
            default:
                throw UsageError("give --month YYYY-MM, or both --from and --to, or neither (the current month)")
            }
        } catch let error as BookingsAnalysisError {
            throw UsageError(error.description)
        }
        try ReportPreconditions.requirePeriodBegun(from: options.from, asOf: asOf)
        try ReportPreconditions.requireData(of: .bookings, context)
        return try ReportOutput.write(try makeReport(options, context), context)
    }

    /// The report of a period, read from the context's database (also used by `report nightly`).
    static func makeReport(_ options: BookingsOptions, _ context: CommandContext) throws -> Report {
        try ReportOutput.withDatabase(context) { try BookingsAnalysis.report(database: $0, options: options) }
    }
}
