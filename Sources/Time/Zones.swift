import Foundation

/// IANA time zones from the system tz database, looked up once and cached.
///
/// Days are computed from the zone's real offset at each instant, so DST days have their true
/// 23 or 25 hours.
public final class Zones: @unchecked Sendable {
    public static let shared = Zones()
    public static let defaultIdentifier = "Europe/Paris"

    private let lock = NSLock()
    private var cache: [String: TimeZone] = [:]

    public init() {}

    /// The zone of an IANA name, or nil when the tz database does not know it.
    /// Only region names (`Europe/Paris`, `UTC`) count: abbreviations like `CET` and raw offsets do not.
    public func zone(_ identifier: String) -> TimeZone? {
        lock.lock()
        defer { lock.unlock() }
        if let zone = cache[identifier] { return zone }
        guard Zones.looksLikeIANAName(identifier), let zone = TimeZone(identifier: identifier),
            TimeZone.knownTimeZoneIdentifiers.contains(identifier) || identifier == "UTC"
        else { return nil }
        cache[identifier] = zone
        return zone
    }

    public func isKnown(_ identifier: String) -> Bool { zone(identifier) != nil }

    /// `Europe/Paris`, `America/Argentina/Buenos_Aires`, `UTC`: letters, digits, `_`, `-`, `+`, `/`.
    static func looksLikeIANAName(_ identifier: String) -> Bool {
        guard !identifier.isEmpty, identifier.utf8.count <= 64 else { return false }
        return identifier.utf8.allSatisfy { byte in
            (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "/")
        }
    }
}

/// A zone resolved for fast repeated use: local days and wall clocks of instants, and instants of
/// local wall-clock times.
public struct LocalTime: Sendable {
    public let identifier: String
    public let zone: TimeZone

    public init(zone: TimeZone) {
        self.zone = zone
        identifier = zone.identifier
    }

    /// A zone by IANA name, or nil when unknown.
    public init?(identifier: String) {
        guard let zone = Zones.shared.zone(identifier) else { return nil }
        self.init(zone: zone)
    }

    /// `Europe/Paris`, which the tz database always has.
    public static var paris: LocalTime {
        guard let local = LocalTime(identifier: Zones.defaultIdentifier) else {
            return LocalTime(zone: TimeZone(secondsFromGMT: 3600) ?? TimeZone.current)
        }
        return local
    }

    /// The zone's UTC offset at an instant, in seconds.
    public func offset(at instant: Timestamp) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(floorDivide(instant.microseconds, 1_000_000).0)))
    }

    /// The local calendar day of an instant, with an optional day start (SPEC §2): the date of
    /// local wall-clock time minus `dayStartMinutes`.
    public func day(of instant: Timestamp, dayStartMinutes: Int = 0) -> Day {
        let shifted = instant.adding(microseconds: -Int64(dayStartMinutes) * 60_000_000)
        return wallClock(of: instant, shiftedBy: shifted).day
    }

    /// The local wall clock of an instant.
    public func wallClock(of instant: Timestamp) -> (day: Day, secondOfDay: Int, microsecond: Int) {
        instant.localWallClock(offsetSeconds: offset(at: instant))
    }

    private func wallClock(
        of instant: Timestamp, shiftedBy shifted: Timestamp
    ) -> (day: Day, secondOfDay: Int, microsecond: Int) {
        // The offset is the one in force at the real instant; the day start shifts the wall clock.
        shifted.localWallClock(offsetSeconds: offset(at: instant))
    }

    /// The instant at which the local wall clock shows `secondOfDay` on `day`. In a DST gap the
    /// instant after the gap is used; in an overlap, the first occurrence.
    public func instant(day: Day, secondOfDay: Int) -> Timestamp {
        let local = Int64(day.ordinal) * 86_400 + Int64(secondOfDay)
        let firstGuess = local - Int64(offset(at: Timestamp(seconds: local)))
        let offsetThere = Int64(offset(at: Timestamp(seconds: firstGuess)))
        var candidate = local - offsetThere
        // Prefer the earlier occurrence when the wall time happens twice.
        let earlier = local - Int64(offset(at: Timestamp(seconds: candidate - 3600)))
        if earlier < candidate, Int64(offset(at: Timestamp(seconds: earlier))) + earlier == local {
            candidate = earlier
        }
        // In a gap the wall time does not exist: the candidate then lies just after the gap.
        return Timestamp(seconds: candidate, offsetSeconds: offset(at: Timestamp(seconds: candidate)))
    }

    /// The instant shown with this zone's offset at that instant.
    public func localized(_ instant: Timestamp) -> Timestamp { instant.withOffset(offset(at: instant)) }
}
