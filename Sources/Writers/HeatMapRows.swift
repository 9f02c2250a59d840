import ReportModel
import Time

/// The rows a heat map picture shows: its own rows when they fit, else its day rows grouped into
/// weeks, months, quarters or years: the smallest unit that gives at most `maximumRows` rows.
///
/// Why: a row must be at least `minimumRowHeight` points tall for its 12-point label and cell text
/// to be read (61 day rows once took 5.25 points each under 12-point text). The picture may grow
/// to `maximumRows` such rows; past that it groups. A group of a grid of ratios is Σ numerators /
/// Σ denominators of its days (occupancy of a week = booked / capacity of the week); of a grid of
/// counts, the sum. The workbook's heat map sheet keeps every day row (a sheet scrolls).
/// Rule written in docs/PRINTING.md ("Charts at any range").
struct HeatMapRows {
    static let maximumRows = 31
    static let minimumRowHeight = 16.0

    enum Unit: String { case day, week, month, quarter, year }

    let unit: Unit
    let labels: [String]
    let cells: [[Double]]

    init(_ heatMap: HeatMap) {
        guard let days = heatMap.rowDays, days.count == heatMap.cells.count, days.count > Self.maximumRows else {
            unit = .day
            labels = heatMap.rowLabels
            cells = heatMap.cells
            return
        }
        var chosen = Unit.year
        for candidate in [Unit.week, .month, .quarter] where Self.groups(days, by: candidate).count <= Self.maximumRows
        {
            chosen = candidate
            break
        }
        let groups = Self.groups(days, by: chosen)
        unit = chosen
        labels = groups.map { Self.label($0.key, unit: chosen) }
        let columns = heatMap.cells.map(\.count).max() ?? 0
        cells = groups.map { group in
            (0..<columns).map { column in
                func value(_ grid: [[Double]], _ row: Int) -> Double? {
                    column < grid[row].count && grid[row][column].isFinite ? grid[row][column] : nil
                }
                if let parts = heatMap.ratioParts, parts.numerators.count == days.count,
                    parts.denominators.count == days.count
                {
                    let numerator = group.rows.compactMap { value(parts.numerators, $0) }.reduce(0, +)
                    let denominator = group.rows.compactMap { value(parts.denominators, $0) }.reduce(0, +)
                    return denominator > 0 ? numerator / denominator : .nan
                }
                let values = group.rows.compactMap { value(heatMap.cells, $0) }
                guard !values.isEmpty else { return .nan }
                // Ratios without their parts: the mean, the best a picture can do.
                return heatMap.valueType == .percent
                    ? values.reduce(0, +) / Double(values.count) : values.reduce(0, +)
            }
        }
    }

    /// The title suffix that says how rows are grouped (empty for day rows).
    var titleSuffix: String {
        switch unit {
        case .day: return ""
        case .week: return " (by week, from Monday)"
        case .month: return " (by month)"
        case .quarter: return " (by quarter)"
        case .year: return " (by year)"
        }
    }

    /// Consecutive row indices by the first day of their week (Monday), month, quarter or year.
    private static func groups(_ days: [Day], by unit: Unit) -> [(key: Day, rows: [Int])] {
        var result: [(key: Day, rows: [Int])] = []
        for (index, day) in days.enumerated() {
            let key = start(of: day, unit: unit)
            if result.last?.key == key {
                result[result.count - 1].rows.append(index)
            } else {
                result.append((key, [index]))
            }
        }
        return result
    }

    private static func start(of day: Day, unit: Unit) -> Day {
        let (year, month, _) = day.components
        switch unit {
        case .day: return day
        // 1970-01-01 (ordinal 0) was a Thursday: Monday is 3 days before a multiple of 7.
        case .week: return Day(ordinal: day.ordinal - ((day.ordinal + 3) % 7 + 7) % 7)
        case .month: return Day(year: year, month: month, day: 1) ?? day
        case .quarter: return Day(year: year, month: (month - 1) / 3 * 3 + 1, day: 1) ?? day
        case .year: return Day(year: year, month: 1, day: 1) ?? day
        }
    }

    private static func label(_ start: Day, unit: Unit) -> String {
        let (year, month, _) = start.components
        switch unit {
        case .day, .week: return start.description
        case .month: return start.monthKey
        case .quarter: return "\(year) Q\((month - 1) / 3 + 1)"
        case .year: return String(year)
        }
    }
}
