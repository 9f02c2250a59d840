import ArgumentParsing
import DomainInterface
import Import
import Store
import Time

extension DomainName {
    public static let bookings: DomainName = "bookings"
}

extension ExportKind {
    public static let services = ExportKind("services", domain: .bookings)
    public static let slots = ExportKind("slots", domain: .bookings)
    public static let customers = ExportKind("customers", domain: .bookings)
    public static let bookings = ExportKind("bookings", domain: .bookings)
}

/// The bookings domain as the application sees it: its four kinds and their importers, its
/// schema, `report bookings`, the date ranges `report status` shows and the nightly month report.
public enum BookingsModule {
    public static let module = DomainModule(
        imports: ImportModule(
            domain: .bookings,
            importers: [
                .services: ServicesImporter.self, .slots: SlotsImporter.self, .customers: CustomersImporter.self,
                .bookings: BookingsImporter.self,
            ],
            migrations: BookingsSchema.migrations),
        report: DomainReport(command: command, request: request),
        statusColumns: [
            .slots: .instant("starts_at_us"), .customers: .instant("created_at_us"),
            .bookings: .instant("starts_at_us"),
        ],
        distribution: [
            .reference(table: "services"), .reference(table: "slots"), .reference(table: "customers"),
            .distributed(table: "bookings", column: "customer_id", colocatedWith: nil),
            .distributed(table: "booking_lines", column: "customer_id", colocatedWith: "bookings"),
        ],
        nightlyReports: { asOf, _ in
            // The month to date, as `report bookings` without a period.
            [reportRequest(try BookingsOptions.currentMonth(asOf: asOf))]
        },
        reportScopes: BookingsScopes.scopes)

    static let command = CommandSpec(
        name: "bookings",
        abstract: "Bookings report of a month or period: revenue, occupancy, cancellations, customers.",
        discussion: """
            The period is --month YYYY-MM (every day of the month, also of the month holding --as-of:
            upcoming bookings count), or --from and --to (dates, inclusive); by default the current
            month up to the --as-of day. Days and morning/afternoon/evening are taken in --timezone.
            Files: bookings-<month>.xlsx, bookings-<month>/ (CSV), bookings-<month>.md; a range gives
            bookings-<from>_<to>.
            """,
        options: [Options.month.spec, Options.from.spec, Options.to.spec, Options.timeZone.spec])

    /// The options of `report bookings`, each declared once.
    enum Options {
        static let month = Option<String>(
            "month", "YYYY-MM", help: "The whole month to report, the current one too (upcoming bookings count).")
        static let from = Option.day("from", help: "First day of the period (with --to).")
        static let to = Option.day("to", help: "Last day of the period (with --from).")
        static let timeZone = Option<String>(
            "timezone", "TZ", help: "The IANA time zone of days and periods (default Europe/Paris).")
    }

    /// `report bookings` options, checked once: the period and the time zone.
    @Sendable static func request(_ arguments: ParsedArguments, asOf: Timestamp) throws -> ReportRequest {
        let zone = try arguments.value(Options.timeZone) ?? "Europe/Paris"
        let from = try arguments.value(Options.from), to = try arguments.value(Options.to)
        let options: BookingsOptions
        switch (try arguments.value(Options.month), from, to) {
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
        try ReportPeriod.requireBegun(from: options.from, asOf: asOf)
        return reportRequest(options)
    }

    static func reportRequest(_ options: BookingsOptions) -> ReportRequest {
        ReportRequest(label: "bookings") { database in try BookingsAnalysis.report(database: database, options: options)
        }
    }
}

extension BookingsAnalysisError: ExitCodeError {
    /// Every case is an option the user must correct.
    public var exitCode: ExitCode { .usage }
}
