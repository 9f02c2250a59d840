import ReportModel
extension SVGCharts {
    /// The heat map: a rows × columns grid of counts coloured from white (0) to red (the
    /// largest), with row and column labels and a colour scale; drawn over the outline of a car
    /// seen from above (front at the top) when `carOutline` is true. "No data" for an empty grid.
    public static func render(_ heatMap: HeatMap) -> String {
        let rows = heatMap.cells.count
        let columns = heatMap.columnLabels.count
        guard rows > 0, columns > 0 else {
            return SVGDocument.noData(title: heatMap.title, width: width, height: heatMap.carOutline ? 480 : height)
        }
        let canvasHeight = heatMap.carOutline ? 480 : height
        var document = SVGDocument(width: width, height: canvasHeight, title: heatMap.title)
        // Over a car the grid is taller than wide, as a car seen from above is.
        let cellWidth = heatMap.carOutline ? min(60.0, 300.0 / Double(columns)) : min(80.0, 400.0 / Double(columns))
        let cellHeight = min(80.0, (heatMap.carOutline ? 330.0 : 320.0) / Double(rows))
        let gridWidth = cellWidth * Double(columns)
        let gridHeight = cellHeight * Double(rows)
        let left = 80 + (400 - gridWidth) / 2
        let top = heatMap.carOutline ? 110.0 : 70.0
        if heatMap.carOutline { drawCar(around: (left, top, gridWidth, gridHeight), &document) }

        let values = heatMap.cells.flatMap { $0 }.filter(\.isFinite)
        let largest = values.max() ?? 0
        for (index, label) in heatMap.columnLabels.enumerated() {
            document.text(label, x: left + (Double(index) + 0.5) * cellWidth, y: top - 8, size: 12,
                          anchor: "middle", weight: "bold")
        }
        for row in 0..<rows {
            let y = top + Double(row) * cellHeight
            let label = row < heatMap.rowLabels.count ? heatMap.rowLabels[row] : ""
            document.text(label, x: left - 8, y: y + cellHeight / 2 + 4, size: 12, anchor: "end", weight: "bold")
            for column in 0..<columns {
                let value = column < heatMap.cells[row].count ? heatMap.cells[row][column] : 0
                let share = largest > 0 && value.isFinite ? min(max(value / largest, 0), 1) : 0
                let x = left + Double(column) * cellWidth
                document.rect(x: x, y: y, width: cellWidth, height: cellHeight, fill: colour(share),
                              stroke: "#999999", opacity: heatMap.carOutline ? 0.85 : nil)
                document.text(value.isFinite ? cellText(value, heatMap.valueType) : "", x: x + cellWidth / 2, y: y + cellHeight / 2 + 4,
                              size: 12, anchor: "middle", fill: share > 0.6 ? "#ffffff" : "#222222")
            }
        }
        scale(largest: largest, type: heatMap.valueType, top: top, height: gridHeight, &document)
        return document.rendered()
    }

    /// White → red (`#dc2626`) by the share of the largest count.
    static func colour(_ share: Double) -> String {
        func channel(_ full: Double) -> String {
            let value = Int((255 - (255 - full) * share).rounded())
            let hex = String(value, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }
        return "#" + channel(220) + channel(38) + channel(38)
    }

    /// A count as a whole number when it is one, else with up to 2 decimals.
    private static func count(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? FixedDecimal.string(value, places: 0)
            : SVGDocument.number(value)
    }

    /// The colour scale at the right: a vertical white → red bar from 0 to the largest count.
    /// A cell's text: a ratio as a whole percent (`67 %`), a count as `count` shows it.
    private static func cellText(_ value: Double, _ type: ColumnType) -> String {
        type == .percent ? DisplayText.percent(value) : count(value)
    }

    private static func scale(largest: Double, type: ColumnType, top: Double, height: Double,
                              _ document: inout SVGDocument) {
        let x = 560.0
        let steps = 10
        for step in 0..<steps {
            let share = Double(steps - step) / Double(steps)
            document.rect(x: x, y: top + Double(step) * height / Double(steps), width: 18,
                          height: height / Double(steps), fill: colour(share))
        }
        document.rect(x: x, y: top, width: 18, height: height, fill: "none", stroke: "#999999")
        document.text(cellText(largest, type), x: x + 24, y: top + 10, size: 11)
        document.text(cellText(0, type), x: x + 24, y: top + height, size: 11)
    }

    /// A car seen from above, front at the top: rounded body, windscreen and rear window,
    /// four wheels, around the grid of damage zones.
    private static func drawCar(around grid: (x: Double, y: Double, width: Double, height: Double),
                                _ document: inout SVGDocument) {
        let body = (x: grid.x - 30, y: grid.y - 50, width: grid.width + 60, height: grid.height + 80)
        let wheelWidth = 16.0
        let wheelHeight = min(60.0, body.height / 5)
        for wheelY in [body.y + body.height * 0.14, body.y + body.height * 0.86 - wheelHeight] {
            document.rect(x: body.x - wheelWidth + 4, y: wheelY, width: wheelWidth, height: wheelHeight,
                          fill: "#444444", cornerRadius: 4)
            document.rect(x: body.x + body.width - 4, y: wheelY, width: wheelWidth, height: wheelHeight,
                          fill: "#444444", cornerRadius: 4)
        }
        document.rect(x: body.x, y: body.y, width: body.width, height: body.height, fill: "#f2f2f2",
                      stroke: "#555555", cornerRadius: min(60, body.width / 4))
        let inset = body.width * 0.16
        let windscreen = "M\(SVGDocument.number(body.x + inset)),\(SVGDocument.number(body.y + 30)) "
            + "L\(SVGDocument.number(body.x + body.width - inset)),\(SVGDocument.number(body.y + 30)) "
            + "L\(SVGDocument.number(body.x + body.width - inset * 1.5)),\(SVGDocument.number(body.y + 10)) "
            + "L\(SVGDocument.number(body.x + inset * 1.5)),\(SVGDocument.number(body.y + 10)) Z"
        document.path(windscreen, fill: "#cfe3f3", stroke: "#555555")
        let bottom = body.y + body.height
        let rearWindow = "M\(SVGDocument.number(body.x + inset)),\(SVGDocument.number(bottom - 22)) "
            + "L\(SVGDocument.number(body.x + body.width - inset)),\(SVGDocument.number(bottom - 22)) "
            + "L\(SVGDocument.number(body.x + body.width - inset * 1.5)),\(SVGDocument.number(bottom - 8)) "
            + "L\(SVGDocument.number(body.x + inset * 1.5)),\(SVGDocument.number(bottom - 8)) Z"
        document.path(rearWindow, fill: "#cfe3f3", stroke: "#555555")
        document.text("front", x: body.x + body.width / 2, y: body.y - 8, size: 11, anchor: "middle",
                      fill: "#777777")
    }
}
