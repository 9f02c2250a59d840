import ReportModel
/// SVG pictures of a report's charts and heat map, written beside the Markdown report.
///
/// Every picture has a fixed size, a title, and is deterministic and well-formed XML (see
/// `SVGDocument`). A chart whose table, columns or numbers are missing says "No data" rather than
/// failing: a report of an empty day is still a report.
public enum SVGCharts {
    public static let width = 640
    public static let height = 420

    /// The SVG of a column, line or pie chart drawn from `report.table(named: chart.table)`.
    public static func render(_ chart: Chart, in report: Report) -> String {
        guard let data = SVGChartData(chart: chart, report: report), data.hasValues else {
            return SVGDocument.noData(title: chart.title, width: width, height: height)
        }
        switch chart.kind {
        case .column, .line: return cartesian(chart, data)
        case .pie: return pie(chart, data) ?? SVGDocument.noData(title: chart.title, width: width, height: height)
        }
    }

    // The plot area of column and line charts; category labels, the axis title and the legend
    // sit below it.
    private static let plotLeft = 70.0
    private static let plotRight = 620.0
    private static let plotTop = 50.0
    private static let plotBottom = 300.0

    private static func cartesian(_ chart: Chart, _ data: SVGChartData) -> String {
        var document = SVGDocument(width: width, height: height, title: chart.title)
        let values = data.series.flatMap { $0.values.compactMap { $0 } }
        let axis = SVGAxis(values: values)
        let valueType = data.series[0].type
        let plotWidth = plotRight - plotLeft
        func y(_ value: Double) -> Double {
            plotBottom - (value - axis.minimum) / (axis.maximum - axis.minimum) * (plotBottom - plotTop)
        }
        for tick in axis.ticks {
            document.line(x1: plotLeft, y1: y(tick), x2: plotRight, y2: y(tick), stroke: "#e5e5e5")
            document.text(
                axis.label(tick, type: valueType), x: plotLeft - 6, y: y(tick) + 4, size: 10,
                anchor: "end")
        }
        document.line(x1: plotLeft, y1: y(0), x2: plotRight, y2: y(0), stroke: "#666666")
        document.line(x1: plotLeft, y1: plotTop, x2: plotLeft, y2: plotBottom, stroke: "#666666")

        let count = data.categories.count
        let band = plotWidth / Double(max(count, 1))
        func center(_ index: Int) -> Double { plotLeft + (Double(index) + 0.5) * band }
        if chart.kind == .column {
            let barWidth = band * 0.8 / Double(data.series.count)
            for (seriesIndex, series) in data.series.enumerated() {
                for (index, value) in series.values.enumerated() {
                    guard let value else { continue }
                    let x = plotLeft + Double(index) * band + band * 0.1 + Double(seriesIndex) * barWidth
                    document.rect(
                        x: x, y: min(y(value), y(0)), width: barWidth,
                        height: abs(y(value) - y(0)), fill: SVGDocument.colour(seriesIndex))
                }
            }
        } else {
            for (seriesIndex, series) in data.series.enumerated() {
                // An empty cell breaks the line: one polyline per run of values.
                var run: [(x: Double, y: Double)] = []
                for (index, value) in series.values.enumerated() {
                    if let value {
                        run.append((center(index), y(value)))
                    } else if !run.isEmpty {
                        draw(run, seriesIndex, &document)
                        run = []
                    }
                }
                if !run.isEmpty { draw(run, seriesIndex, &document) }
            }
        }
        categoryLabels(data, center: center, band: band, &document)
        document.text(axisTitle(data), x: (plotLeft + plotRight) / 2, y: 372, size: 12, anchor: "middle")
        if data.series.count == 1 {
            document.text(
                data.series[0].title, x: 18, y: (plotTop + plotBottom) / 2, size: 12, anchor: "middle",
                rotate: -90)
        }
        legend(data.series.map(\.title), y: 398, &document)
        return document.rendered()
    }

    private static func draw(_ run: [(x: Double, y: Double)], _ seriesIndex: Int, _ document: inout SVGDocument) {
        let colour = SVGDocument.colour(seriesIndex)
        if run.count > 1 { document.polyline(run, stroke: colour) }
        if run.count == 1 || run.count <= 31 {
            for point in run { document.circle(x: point.x, y: point.y, radius: 3, fill: colour) }
        }
    }

    /// The width a label of 10-point text takes, a little more than its glyphs (sans-serif digits
    /// are 0.56 em), so that labels placed by it never touch.
    static func labelWidth(_ label: String, size: Double = 10) -> Double { Double(label.count) * size * 0.62 }

    /// Labels under the plot, level, never smaller than 10 points and never turned: every label
    /// when they fit. Names (a bar each) are cut with `…` to the bar's width, down to 4
    /// characters; days, and names still too many, show every n-th label, n chosen so that the
    /// widest label and a gap of 8 points fit between two (a year of days shows about 8 dates).
    private static func categoryLabels(
        _ data: SVGChartData, center: (Int) -> Double, band: Double,
        _ document: inout SVGDocument
    ) {
        let count = data.categories.count
        var labels = data.categories.map(shorten)
        let fitting = Int(((band - 4) / labelWidth("x")).rounded(.down))
        if !data.categoriesAreDays, fitting >= 4 {
            labels = labels.map { $0.count > fitting ? String($0.prefix(fitting - 1)) + "…" : $0 }
        }
        let widest = labels.map { labelWidth($0) }.max() ?? 0
        let every = max(1, Int(((widest + 8) / max(band, 0.001)).rounded(.up)))
        for index in stride(from: 0, to: count, by: every) {
            // The last label may not pass the plot's right edge.
            guard center(index) + labelWidth(labels[index]) / 2 <= Double(width) - 4 else { continue }
            document.text(labels[index], x: center(index), y: plotBottom + 16, size: 10, anchor: "middle")
        }
    }

    /// The x-axis title: the category column, and a note when the table was cut.
    private static func axisTitle(_ data: SVGChartData) -> String {
        guard data.totalCategories > data.categories.count else { return data.categoryTitle }
        return data.categoryTitle + " (first \(data.categories.count) of \(data.totalCategories))"
    }

    static func shorten(_ label: String) -> String {
        label.count > 16 ? String(label.prefix(15)) + "…" : label
    }

    /// A row of colour swatches and names, centred under the chart.
    static func legend(_ names: [String], y: Double, _ document: inout SVGDocument) {
        let widths = names.map { 24 + Double(shorten($0).count) * 6.5 + 16 }
        var x = (Double(width) - widths.reduce(0, +)) / 2
        for (index, name) in names.enumerated() {
            document.rect(x: x, y: y - 10, width: 12, height: 12, fill: SVGDocument.colour(index))
            document.text(shorten(name), x: x + 18, y: y, size: 11)
            x += widths[index]
        }
    }
}
