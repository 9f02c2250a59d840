import ReportModel
/// How values read for people, in Markdown cells and chart labels (CSV has its own, stricter rules).
///
/// Locale-independent and deterministic: `.` decimal point, no thousands separators, percentages
/// as whole percents (`74 %`, the app's category-card style), euros with a ` €` suffix, hours and
/// decimals with their places, booleans `yes`/`no`, days `YYYY-MM-DD`, timestamps ISO 8601.
enum DisplayText {
    static func text(_ value: Value, as type: ColumnType) -> String {
        switch value {
        case .empty:
            return ""
        case .text(let text):
            return text
        case .boolean(let flag):
            return flag ? "yes" : "no"
        case .day(let day):
            return day.description
        case .timestamp(let timestamp):
            return timestamp.description
        case .integer(let whole):
            // Whole numbers stay exact (a Double would turn 2^63 - 1 into …776000).
            switch type {
            case .decimal, .percent, .duration, .euros, .measure: return number(Double(whole), as: type)
            case .integer, .text, .date, .timestamp, .boolean: return String(whole)
            }
        case .number(let number):
            guard number.isFinite else { return "" }
            return self.number(number, as: type)
        }
    }

    private static func number(_ number: Double, as type: ColumnType) -> String {
        switch type {
        case .percent:
            return percent(number)
        case .euros:
            return FixedDecimal.string(number, places: 2) + " €"
        case .duration:
            return FixedDecimal.string(number, places: 2)
        case .decimal(let places):
            return FixedDecimal.string(number, places: places)
        case .measure(let maximumPlaces):
            return FixedDecimal.trimmedString(number, maximumPlaces: maximumPlaces)
        case .integer:
            return FixedDecimal.string(number, places: 0)
        case .text, .date, .timestamp, .boolean:
            return number.description
        }
    }

    /// A ratio as a whole percent: 0.7312 → `73 %` (half away from zero).
    static func percent(_ ratio: Double) -> String {
        FixedDecimal.string(ratio * 100, places: 0) + " %"
    }

    /// A ten-cell text bar and the percent: `███████░░░  74 %`. Cells are the ratio × 10 rounded,
    /// clamped to 0…10 (a ratio over 1 fills the bar; its percent still says how far over).
    static func percentBar(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "" }
        let scaled = (min(max(ratio, 0), 1) * 10).rounded(.toNearestOrAwayFromZero)
        let filled = Int(scaled)
        return String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
            + "  " + percent(ratio)
    }
}
