import ReportModel
/// The numbers a chart draws, read from the report table it names.
struct SVGChartData {
    struct Series {
        var title: String
        var type: ColumnType
        /// One per category; nil where the cell is empty or not a number.
        var values: [Double?]
    }

    /// The most categories drawn; a longer table is cut and the chart says so. Ten years of days
    /// (3,660, the longest period a report takes) are drawn whole: a line of one point per day,
    /// labels thinned to fit.
    static let maximumCategories = 4_000

    var categories: [String]
    var series: [Series]
    var categoryTitle: String
    /// Whether the categories are days (a time axis, whose labels may be thinned) rather than
    /// names (each bar labelled).
    var categoriesAreDays = false
    /// The number of rows in the table (more than `categories.count` when cut).
    var totalCategories: Int

    /// Whether there is at least one number to draw.
    var hasValues: Bool { series.contains { $0.values.contains { $0 != nil } } }

    /// The chart's data, or nil when its table, category column or every series column is missing.
    init?(chart: Chart, report: Report) {
        guard let table = report.table(named: chart.table),
            let categoryIndex = table.columns.firstIndex(where: { $0.name == chart.category })
        else { return nil }
        let seriesColumns = chart.series.compactMap { name in
            table.columns.firstIndex { $0.name == name }
        }
        guard !seriesColumns.isEmpty else { return nil }
        let categoryColumn = table.columns[categoryIndex]
        categoryTitle = categoryColumn.title
        categoriesAreDays = categoryColumn.type == .date
        categories = []
        series = seriesColumns.map { Series(title: table.columns[$0].title, type: table.columns[$0].type, values: []) }
        totalCategories = 0
        let rows = table.rows.makeIterator()
        while let row = rows.next() {
            totalCategories += 1
            guard categories.count < SVGChartData.maximumCategories else { continue }
            let category = categoryIndex < row.count ? row[categoryIndex] : .empty
            categories.append(DisplayText.text(category, as: categoryColumn.type))
            for (seriesIndex, columnIndex) in seriesColumns.enumerated() {
                let value = columnIndex < row.count ? row[columnIndex].doubleValue : nil
                series[seriesIndex].values.append(value.flatMap { $0.isFinite ? $0 : nil })
            }
        }
    }
}

/// Round axis ticks: steps of 1, 2, 2.5 or 5 times a power of ten, about five of them.
struct SVGAxis {
    let minimum: Double
    let maximum: Double
    let step: Double

    /// An axis covering the values and zero.
    init(values: [Double]) {
        var low = min(values.min() ?? 0, 0)
        var high = max(values.max() ?? 0, 0)
        if high - low <= 0 { high = low + 1 }
        let rawStep = (high - low) / 5
        let magnitude = decimalMagnitude(rawStep)
        let candidates = [1.0, 2.0, 2.5, 5.0, 10.0].map { $0 * magnitude }
        let step = candidates.first { $0 >= rawStep } ?? 10 * magnitude
        low = (low / step).rounded(.down) * step
        high = (high / step).rounded(.up) * step
        minimum = low
        maximum = high
        self.step = step
    }

    var ticks: [Double] {
        let count = Int(((maximum - minimum) / step).rounded())
        return (0...max(count, 0)).map { minimum + Double($0) * step }
    }

    /// A tick's label: a percent axis shows whole or tenth percents, others up to 2 decimals.
    func label(_ value: Double, type: ColumnType) -> String {
        if type == .percent {
            var text = FixedDecimal.string(value * 100, places: 1)
            if text.hasSuffix(".0") { text.removeLast(2) }
            return text + " %"
        }
        return SVGDocument.number(value)
    }
}

/// The power of ten at or just below `value` (1 for zero or non-finite values): exact loops rather
/// than `log10`/`pow`, so ticks are the same on every platform.
private func decimalMagnitude(_ value: Double) -> Double {
    guard value > 0, value.isFinite else { return 1 }
    var magnitude = 1.0
    while magnitude * 10 <= value { magnitude *= 10 }
    while magnitude > value { magnitude /= 10 }
    return magnitude
}
