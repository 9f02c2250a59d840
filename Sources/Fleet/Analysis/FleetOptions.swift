import Time

/// What `report fleet` is asked for: one event, the moment the report describes, and how late a
/// return may be before it counts as late (SPEC §5, §7).
public struct FleetOptions: Sendable {
    /// The event's id (`salon2016`).
    public var eventId: String
    /// The moment the report describes: windows are cut here, records made after it are ignored.
    public var asOf: Timestamp
    /// Minutes after planned_time_in (and after planned_time_out, for no-shows) still on time.
    public var graceMinutes: Int = 15

    public init(eventId: String, asOf: Timestamp, graceMinutes: Int = 15) {
        self.eventId = eventId
        self.asOf = asOf
        self.graceMinutes = graceMinutes
    }
}

/// Why a fleet report cannot be made, in one line that says what to do.
public enum FleetAnalysisError: Error, CustomStringConvertible, Sendable, Equatable {
    case noEvents
    case unknownEvent(String, known: [String])
    case negativeGraceMinutes(Int)
    case unknownTimeZone(event: String, timeZone: String)
    /// A damaged row: the importer stores valid dates only.
    case invalidStoredDates(event: String)

    public var description: String {
        switch self {
        case .noEvents:
            return "no events imported yet; import an events file first"
        case .unknownEvent(let id, let known):
            return "unknown event \"\(id)\"; known events: " + known.joined(separator: ", ")
        case .negativeGraceMinutes(let minutes):
            return "--grace-minutes must be 0 or more (got \(minutes))"
        case .unknownTimeZone(let event, let timeZone):
            return
                "event \"\(event)\" has the time zone \"\(timeZone)\", which this system's tz database does not "
                + "know; install tzdata or re-import the event"
        case .invalidStoredDates(let event):
            return "event \"\(event)\" has invalid dates in the database; re-import the events file"
        }
    }
}
