import Time

/// What `report bookings` describes: a period of calendar days in one time zone, seen at one
/// moment (SPEC §4, §2).
public struct BookingsOptions: Sendable {
    /// The first day of the period, inclusive.
    public var from: Day
    /// The last day of the period, inclusive.
    public var to: Day
    /// `2026-11` when the period is a month given with `--month` (or the default month); nil for
    /// `--from/--to`. It only names the report (`bookings-2026-11`).
    public var monthScope: String?
    /// The IANA zone that gives bookings and slots their day and period.
    public var timeZone: String = Zones.defaultIdentifier
    /// The moment the report describes: it decides `unresolved_past` (and the default period),
    /// nothing else.
    public var asOf: Timestamp

    public init(
        from: Day, to: Day, monthScope: String? = nil, timeZone: String = Zones.defaultIdentifier,
        asOf: Timestamp
    ) {
        self.from = from
        self.to = to
        self.monthScope = monthScope
        self.timeZone = timeZone
        self.asOf = asOf
    }

    /// The period of `--month YYYY-MM`: the whole calendar month, also the month holding the
    /// as-of day (SPEC §4): its days after as-of are zero-filled and its upcoming bookings count.
    public static func month(
        _ text: String, timeZone: String = Zones.defaultIdentifier,
        asOf: Timestamp
    ) throws(BookingsAnalysisError) -> BookingsOptions {
        guard LocalTime(identifier: timeZone) != nil else { throw .unknownTimeZone(timeZone) }
        guard let first = BookingsOptions.firstDay(ofMonth: text) else { throw .invalidMonth(text) }
        let (year, month, _) = first.components
        let last = first.adding(days: Day.daysInMonth(year: year, month: month) - 1)
        return BookingsOptions(from: first, to: last, monthScope: first.monthKey, timeZone: timeZone, asOf: asOf)
    }

    /// The default period (no `--month`, `--from` or `--to`): the month holding the as-of day, up
    /// to that day (what has happened so far this month). Named after the month.
    public static func currentMonth(
        timeZone: String = Zones.defaultIdentifier,
        asOf: Timestamp
    ) throws(BookingsAnalysisError) -> BookingsOptions {
        guard let local = LocalTime(identifier: timeZone) else { throw .unknownTimeZone(timeZone) }
        let asOfDay = local.day(of: asOf)
        var options = try month(asOfDay.monthKey, timeZone: timeZone, asOf: asOf)
        options.to = asOfDay
        return options
    }

    /// The part of file names after `bookings-`: the month, or `FROM_TO`.
    public var scope: String { monthScope ?? (from.description + "_" + to.description) }

    /// The first day of a month written exactly `YYYY-MM`, or nil.
    static func firstDay(ofMonth text: String) -> Day? {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || ($0.element >= 48 && $0.element <= 57) }),
            let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)),
            let month = Int(String(decoding: bytes[5..<7], as: UTF8.self))
        else { return nil }
        return Day(year: year, month: month, day: 1)
    }
}

/// A bookings report that cannot be made as asked, said in one line with what to do instead.
public enum BookingsAnalysisError: Error, Equatable, CustomStringConvertible {
    case unknownTimeZone(String)
    case invalidMonth(String)
    case periodReversed(from: Day, to: Day)
    case periodTooLong(from: Day, to: Day, limit: Int)

    public var description: String {
        switch self {
        case .unknownTimeZone(let name):
            return "unknown time zone \"\(name)\": use an IANA name such as Europe/Paris"
        case .invalidMonth(let text):
            return "invalid month \"\(text)\": write it YYYY-MM, e.g. 2026-11"
        case .periodReversed(let from, let to):
            return "the period ends (\(to)) before it starts (\(from)): give --from on or before --to"
        case .periodTooLong(let from, let to, let limit):
            return
                "the period \(from) to \(to) is \(to - from + 1) days long; at most \(limit) days fit in one "
                + "report: split it"
        }
    }
}
