import Foundation

/// The tz database lacks a zone the generator writes (Debian's `tzdata` is not installed).
struct MissingTimeZone: Error, CustomStringConvertible {
    let identifier: String
    var description: String { "time zone \(identifier) missing from the tz database (install tzdata)" }
}

/// An instant as it will be written: UTC seconds, the offset to show, optional milliseconds.
struct ZonedInstant: Sendable {
    let utcSeconds: Int64
    /// Offset east of UTC in seconds; ignored when `zulu`.
    let offsetSeconds: Int
    /// 0…999 to write a `.mmm` fraction, nil for whole seconds.
    let milliseconds: Int?
    /// Written with `Z` instead of `+00:00`-style offsets (as an iOS `JSONEncoder` does).
    let zulu: Bool

    func adding(seconds: Int64, clock: ZoneClock, zone: Zone) -> ZonedInstant {
        clock.instant(utcSeconds: utcSeconds + seconds, zone: zone, milliseconds: milliseconds, zulu: zulu)
    }
}

/// The IANA zones the generator uses, read from the system's tz database through Foundation.
enum Zone: Int, CaseIterable, Sendable {
    case europeParis, americaNewYork, europeLondon, europeBerlin, americaMontreal, americaLosAngeles, asiaTokyo

    var identifier: String {
        switch self {
        case .europeParis: "Europe/Paris"
        case .americaNewYork: "America/New_York"
        case .europeLondon: "Europe/London"
        case .europeBerlin: "Europe/Berlin"
        case .americaMontreal: "America/Montreal"
        case .americaLosAngeles: "America/Los_Angeles"
        case .asiaTokyo: "Asia/Tokyo"
        }
    }
}

/// Turns local wall-clock times into instants with the right UTC offset, DST included.
///
/// Asking Foundation for an offset costs microseconds; the big modes ask millions of times, so
/// offsets are cached per zone and quarter hour over 2014–2031 (filled lazily, ~2.4 MB per zone
/// used) and Foundation is asked directly outside that range. Never adds 86,400 s to step a day.
final class ZoneClock {
    private let timeZones: [TimeZone]
    private var cache: [[Int32]]
    private let firstQuarter: Int64
    private let quarterCount: Int
    private static let unknown = Int32.min

    init() throws {
        var zones: [TimeZone] = []
        for zone in Zone.allCases {
            guard let timeZone = TimeZone(identifier: zone.identifier) else {
                throw MissingTimeZone(identifier: zone.identifier)
            }
            zones.append(timeZone)
        }
        timeZones = zones
        cache = Array(repeating: [], count: zones.count)
        let start = Int64(CivilDate(year: 2014, month: 1, day: 1).dayNumber) * 86_400
        let end = Int64(CivilDate(year: 2031, month: 1, day: 1).dayNumber) * 86_400
        firstQuarter = start / 900
        quarterCount = Int((end - start) / 900)
    }

    /// Offset east of UTC, in seconds, at the instant.
    func offset(atUTC seconds: Int64, zone: Zone) -> Int {
        let quarter = Int(floorDivide(seconds, 900) - firstQuarter)
        guard quarter >= 0, quarter < quarterCount else { return askFoundation(seconds, zone) }
        if cache[zone.rawValue].isEmpty {
            cache[zone.rawValue] = Array(repeating: ZoneClock.unknown, count: quarterCount)
        }
        let cached = cache[zone.rawValue][quarter]
        if cached != ZoneClock.unknown { return Int(cached) }
        let value = askFoundation((firstQuarter + Int64(quarter)) * 900, zone)
        cache[zone.rawValue][quarter] = Int32(value)
        return value
    }

    private func askFoundation(_ seconds: Int64, _ zone: Zone) -> Int {
        timeZones[zone.rawValue].secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// The UTC instant of a local wall-clock time. A time skipped by a spring-forward change
    /// comes out one hour later; a repeated time takes its first occurrence.
    func utcSeconds(of date: CivilDate, minute: Int, second: Int = 0, zone: Zone) -> Int64 {
        let local = Int64(date.dayNumber) * 86_400 + Int64(minute * 60 + second)
        // At most one change within a day: the offsets half a day before and after bracket it.
        let before = Int64(offset(atUTC: local - 43_200, zone: zone))
        let after = Int64(offset(atUTC: local + 43_200, zone: zone))
        if Int64(offset(atUTC: local - before, zone: zone)) == before { return local - before }
        if Int64(offset(atUTC: local - after, zone: zone)) == after { return local - after }
        return local - before
    }

    func instant(utcSeconds: Int64, zone: Zone, milliseconds: Int? = nil, zulu: Bool = false) -> ZonedInstant {
        ZonedInstant(
            utcSeconds: utcSeconds, offsetSeconds: zulu ? 0 : offset(atUTC: utcSeconds, zone: zone),
            milliseconds: milliseconds, zulu: zulu)
    }

    /// The instant of a local wall-clock time (minutes after local midnight, may pass 24 h).
    func local(
        _ date: CivilDate, minute: Int, second: Int = 0, zone: Zone,
        milliseconds: Int? = nil, zulu: Bool = false
    ) -> ZonedInstant {
        let dayOffset = minute >= 0 ? minute / 1440 : -((-minute + 1439) / 1440)
        let seconds = utcSeconds(
            of: date.adding(days: dayOffset), minute: minute - dayOffset * 1440,
            second: second, zone: zone)
        return instant(utcSeconds: seconds, zone: zone, milliseconds: milliseconds, zulu: zulu)
    }

    /// The local calendar date of an instant.
    func localDate(of utcSeconds: Int64, zone: Zone) -> CivilDate {
        let local = utcSeconds + Int64(offset(atUTC: utcSeconds, zone: zone))
        return CivilDate(dayNumber: Int(floorDivide(local, 86_400)))
    }
}
