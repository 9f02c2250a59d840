import ReportModel

/// When a chart is not drawn, and the one sentence said in its place (on the workbook's Summary
/// and in the Markdown report): a picture that shows nothing ("No data", an empty pie, a 0–0
/// colour scale) costs a reader a look and tells less than the sentence.
///
/// - Nothing to chart: the table has no rows, no value, or only zeros (a flat line at 0 and a
///   pie of nothing say "none" less clearly than words).
/// - One category: a line of one point draws nothing, a lone bar or dot says less than its number,
///   and spreadsheet programs label a lone date axis with a wrong day (LibreOffice shows
///   `2026-01-01` for a one-day chart of 2026-11-28). The nightly one-day report is such a case,
///   every morning; the sentence gives the value itself.
enum ChartAbsence {
    /// The sentence for `chart` when it is not drawn; nil when it is.
    static func sentence(for chart: Chart, in report: Report) -> String? {
        guard let data = SVGChartData(chart: chart, report: report) else {
            return
                "\(chart.title): nothing to chart, as its table “\(chart.table)” or its columns are not in the report."
        }
        let what = data.series.map { $0.title.lowercased() }.joined(separator: " or ")
        if data.totalCategories == 0 {
            return "\(chart.title): nothing to chart, as the period has no \(data.categoryTitle.lowercased()) rows."
        }
        if !data.series.contains(where: { $0.values.contains { $0 != nil } }) {
            return "\(chart.title): nothing to chart, as no \(data.categoryTitle.lowercased()) has a \(what)."
        }
        let drawable =
            chart.kind == .pie
            ? data.series[0].values.contains { ($0 ?? 0) > 0 }
            : data.series.contains { $0.values.contains { ($0 ?? 0) != 0 } }
        if !drawable {
            return "\(chart.title): nothing to chart, as every \(what) is 0 in this period."
        }
        guard data.totalCategories == 1, let category = data.categories.first else { return nil }
        let values = data.series.map { series -> String in
            let shown =
                series.values.first.flatMap { $0 }.map { DisplayText.text(.number($0), as: series.type) } ?? "no value"
            return data.series.count > 1 ? series.title + " " + shown : shown
        }
        return "\(chart.title): one \(data.categoryTitle.lowercased()) only (\(category): "
            + values.joined(separator: ", ") + "), so it is given here rather than drawn as a chart."
    }

    /// The sentence for a heat map with no cell above 0 (no colour to scale); nil when drawn.
    static func sentence(for heatMap: HeatMap) -> String? {
        let positive = heatMap.cells.contains { $0.contains { $0.isFinite && $0 > 0 } }
        guard !positive else { return nil }
        let hasValue = heatMap.cells.contains { $0.contains { $0.isFinite } }
        return heatMap.title + ": nothing to chart, as "
            + (hasValue ? "every cell is 0 in this period." : "no cell has a value in this period.")
    }
}
