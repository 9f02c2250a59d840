import ReportModel
/// A chart of one category is not drawn: a line of one point draws nothing, a lone bar or dot
/// says less than its number, and spreadsheet programs label a lone date axis with a wrong day
/// (LibreOffice shows `2026-01-01` for a one-day chart of 2026-11-28). The nightly one-day report
/// is such a case, every morning. The XLSX Summary and the Markdown report give this sentence in
/// the chart's place instead, with the value itself.
enum ChartSinglePoint {
    /// The sentence for `chart` when its table has exactly one row; nil otherwise.
    static func sentence(for chart: Chart, in report: Report) -> String? {
        guard let data = SVGChartData(chart: chart, report: report), data.totalCategories == 1,
            let category = data.categories.first
        else { return nil }
        let values = data.series.map { series -> String in
            let shown =
                series.values.first.flatMap { $0 }.map { DisplayText.text(.number($0), as: series.type) } ?? "no value"
            return data.series.count > 1 ? series.title + " " + shown : shown
        }
        return "\(chart.title): one \(data.categoryTitle.lowercased()) only (\(category): "
            + values.joined(separator: ", ") + "), so it is given here rather than drawn as a chart."
    }
}
