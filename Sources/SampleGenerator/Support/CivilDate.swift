/// A calendar date kept as a day number (days since 1970-01-01), with proleptic Gregorian rules.
///
/// Day numbers make "the next day" an integer step, which is exactly right for calendar dates
/// (a DST day is still one date); instants are handled apart by `ZoneClock`.
struct CivilDate: Hashable, Comparable, Sendable {
    let dayNumber: Int

    init(dayNumber: Int) {
        self.dayNumber = dayNumber
    }

    /// Howard Hinnant's `days_from_civil`.
    init(year: Int, month: Int, day: Int) {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        dayNumber = era * 146_097 + dayOfEra - 719_468
    }

    /// Howard Hinnant's `civil_from_days`.
    var components: (year: Int, month: Int, day: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// 0 = Monday … 6 = Sunday.
    var weekday: Int {
        ((dayNumber % 7) + 7 + 3) % 7
    }

    var isWeekend: Bool { weekday >= 5 }

    func adding(days: Int) -> CivilDate {
        CivilDate(dayNumber: dayNumber + days)
    }

    /// Days from `self` to `other` (positive when other is later).
    func days(to other: CivilDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// `YYYY-MM-DD`.
    var text: String {
        let (year, month, day) = components
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }
}
