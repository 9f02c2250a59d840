import Foundation
import ReportModel

extension SVGCharts {
    /// A pie of the first series: one slice per category with a positive value, clockwise from
    /// twelve o'clock, and a legend with each slice's share. Nil when no value is positive
    /// (negative and empty cells have no place in a pie).
    static func pie(_ chart: Chart, _ data: SVGChartData) -> String? {
        let positive = zip(data.categories, data.series[0].values).compactMap { category, value in
            value.flatMap { $0 > 0 ? (category, $0) : nil }
        }
        let slices = grouped(positive)
        let total = slices.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return nil }
        var document = SVGDocument(width: width, height: height, title: chart.title)
        let centerX = 210.0
        let centerY = 225.0
        let radius = 150.0
        if slices.count == 1 {
            document.circle(x: centerX, y: centerY, radius: radius, fill: SVGDocument.colour(0), stroke: "#ffffff")
        } else {
            var start = 0.0
            for (index, slice) in slices.enumerated() {
                let end = start + slice.1 / total
                let large = end - start > 0.5 ? 1 : 0
                let from = point(start, centerX, centerY, radius)
                let to = point(end, centerX, centerY, radius)
                let data =
                    "M\(SVGDocument.number(centerX)),\(SVGDocument.number(centerY)) "
                    + "L\(SVGDocument.number(from.x)),\(SVGDocument.number(from.y)) "
                    + "A\(SVGDocument.number(radius)),\(SVGDocument.number(radius)) 0 \(large) 1 "
                    + "\(SVGDocument.number(to.x)),\(SVGDocument.number(to.y)) Z"
                document.path(data, fill: SVGDocument.colour(index), stroke: "#ffffff")
                start = end
            }
        }
        let legendX = 400.0
        let step = min(24.0, 330.0 / Double(slices.count))
        for (index, slice) in slices.enumerated() {
            let y = 70 + Double(index) * step
            document.rect(x: legendX, y: y - 10, width: 12, height: 12, fill: SVGDocument.colour(index))
            document.text(shorten(slice.0) + "  " + share(slice.1 / total), x: legendX + 18, y: y, size: 11)
        }
        document.text(data.series[0].title, x: centerX, y: 405, size: 12, anchor: "middle")
        return document.rendered()
    }

    /// The most slices drawn: beyond it the palette would repeat, so the smallest become "Other"
    /// (the last slice, in the palette's last colour, grey).
    static let maximumSlices = 10

    /// At most `maximumSlices` slices: the largest ones in their table order, then "Other"
    /// holding the rest (ties broken by table order, so the result is deterministic).
    static func grouped(_ slices: [(String, Double)]) -> [(String, Double)] {
        guard slices.count > maximumSlices else { return slices }
        let ranked = slices.indices.sorted { slices[$0].1 != slices[$1].1 ? slices[$0].1 > slices[$1].1 : $0 < $1 }
        let kept = Set(ranked.prefix(maximumSlices - 1))
        let other = slices.indices.filter { !kept.contains($0) }.reduce(0.0) { $0 + slices[$1].1 }
        return slices.indices.filter(kept.contains).map { slices[$0] } + [("Other", other)]
    }

    /// The point at `fraction` of a turn, clockwise from twelve o'clock.
    private static func point(
        _ fraction: Double, _ centerX: Double, _ centerY: Double,
        _ radius: Double
    ) -> (x: Double, y: Double) {
        let angle = fraction * 2 * Double.pi
        return (centerX + radius * sin(angle), centerY - radius * cos(angle))
    }

    /// A share to one decimal: `42.9 %`.
    private static func share(_ fraction: Double) -> String {
        FixedDecimal.string(fraction * 100, places: 1) + " %"
    }
}
