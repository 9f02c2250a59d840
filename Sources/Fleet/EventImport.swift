import Import
import Store
import Time

/// Imports `events`: a motor show with its days, its time zone and its daily opening hours.
///
/// The time zone is stored resolved (`Europe/Paris` when absent) so that analysis never has to
/// know the default. Opening hours are minutes after local midnight.
public final class EventImporter: KindImporter {
    /// The validated record, built on the reader thread.
    public struct Fields: Sendable {
        let id: String
        let name: String
        let startsOn: Day
        let endsOn: Day
        let timezone: String
        let opensAtMinutes: Int
        let closesAtMinutes: Int

        init(_ reader: RecordReader) throws(FieldError) {
            let id = try reader.id("id")
            let name = try reader.string("name")
            let startsOn = try reader.day("starts_on")
            let endsOn = try reader.day("ends_on")
            if endsOn < startsOn {
                throw reader.fail(
                    "ends_on", try reader.required("ends_on"), "must not be before starts_on (\(startsOn))")
            }
            // A show lasts days or weeks; a year at most keeps every sum of hours over its days and
            // cars far inside 64 bits (issue 30), and a typo in a year from filling a report.
            if endsOn.ordinal - startsOn.ordinal > EventImporter.maximumDays - 1 {
                throw reader.fail(
                    "ends_on", try reader.required("ends_on"),
                    "must be at most \(EventImporter.maximumDays) days from starts_on (\(startsOn)), both included")
            }
            let timezone = try reader.optionalTimeZone("timezone") ?? Zones.defaultIdentifier
            let opensAtMinutes = try reader.clockTime("opens_at")
            let closesAtMinutes = try reader.clockTime("closes_at")
            if closesAtMinutes <= opensAtMinutes {
                throw reader.fail(
                    "closes_at", try reader.required("closes_at"),
                    "must be after opens_at (\(EventImporter.clock(opensAtMinutes)))")
            }
            self.id = id
            self.name = name
            self.startsOn = startsOn
            self.endsOn = endsOn
            self.timezone = timezone
            self.opensAtMinutes = opensAtMinutes
            self.closesAtMinutes = closesAtMinutes
        }
    }

    private let upsert: UpsertWriter

    public init(database: Database) throws {
        upsert = try database.upsertWriter(
            table: "events",
            columns: [
                "id", "name", "starts_on", "ends_on", "timezone", "opens_at_minutes", "closes_at_minutes", "import_seq",
            ])
    }

    public static func validate(_ reader: RecordReader) throws(FieldError) -> Fields {
        try Fields(reader)
    }

    public func store(_ event: Fields, sequence: Int64) throws {
        try upsert.write([
            .text(event.id), .text(event.name), .text(event.startsOn.description), .text(event.endsOn.description),
            .text(event.timezone), .integer(Int64(event.opensAtMinutes)), .integer(Int64(event.closesAtMinutes)),
            .integer(sequence),
        ])
    }

    /// The longest event, in days (issue 30).
    public static let maximumDays = 366

    /// `09:00` from 540, for messages.
    static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }
}
