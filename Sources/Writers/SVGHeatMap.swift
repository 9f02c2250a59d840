import ReportModel
extension SVGCharts {
    /// The heat map: a rows × columns grid of counts coloured from white (0) to red (the
    /// largest), with row and column labels and a colour scale; drawn over the heat map's
    /// backdrop when it has one (the shapes are data: `HeatMapBackdrop`). Day rows past 31 are
    /// grouped into weeks, months, quarters or years (`HeatMapRows`), and every row is at least 16
    /// points tall, the picture growing to hold them, so that no label is smaller than its row.
    /// "No data" for an empty grid (writers leave such a map out: `ChartAbsence`).
    public static func render(_ heatMap: HeatMap) -> String {
        let grouped = HeatMapRows(heatMap)
        let rows = grouped.cells.count
        let columns = heatMap.columnLabels.count
        guard rows > 0, columns > 0 else {
            return SVGDocument.noData(
                title: heatMap.title, width: width, height: heatMap.backdrop?.canvasHeight ?? height)
        }
        let backdrop = heatMap.backdrop
        // A backdrop sets the room the grid may take (over a car it is taller than wide).
        let cellWidth = min(backdrop?.maximumCellWidth ?? 80.0, (backdrop?.gridWidth ?? 400.0) / Double(columns))
        let cellHeight = max(min(80.0, (backdrop?.gridHeight ?? 320.0) / Double(rows)), HeatMapRows.minimumRowHeight)
        let canvasHeight = max(
            backdrop?.canvasHeight ?? height,
            Int(((backdrop?.gridTop ?? 70.0) + cellHeight * Double(rows) + 40).rounded(.up)))
        var document = SVGDocument(width: width, height: canvasHeight, title: heatMap.title + grouped.titleSuffix)
        let gridWidth = cellWidth * Double(columns)
        let gridHeight = cellHeight * Double(rows)
        let left = 80 + (400 - gridWidth) / 2
        let top = backdrop?.gridTop ?? 70.0
        if let backdrop { draw(backdrop, around: (left, top, gridWidth, gridHeight), &document) }

        let values = grouped.cells.flatMap { $0 }.filter(\.isFinite)
        let largest = values.max() ?? 0
        for (index, label) in heatMap.columnLabels.enumerated() {
            document.text(
                label, x: left + (Double(index) + 0.5) * cellWidth, y: top - 8, size: 12,
                anchor: "middle", weight: "bold")
        }
        for row in 0..<rows {
            let y = top + Double(row) * cellHeight
            let label = row < grouped.labels.count ? grouped.labels[row] : ""
            document.text(label, x: left - 8, y: y + cellHeight / 2 + 4, size: 12, anchor: "end", weight: "bold")
            for column in 0..<columns {
                let value = column < grouped.cells[row].count ? grouped.cells[row][column] : 0
                let share = largest > 0 && value.isFinite ? min(max(value / largest, 0), 1) : 0
                let x = left + Double(column) * cellWidth
                document.rect(
                    x: x, y: y, width: cellWidth, height: cellHeight, fill: colour(share),
                    stroke: "#999999", opacity: backdrop?.cellOpacity)
                document.text(
                    value.isFinite ? cellText(value, heatMap.valueType) : "", x: x + cellWidth / 2,
                    y: y + cellHeight / 2 + 4,
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
        value == value.rounded() && value.magnitude < 1e15
            ? FixedDecimal.string(value, places: 0)
            : SVGDocument.number(value)
    }

    /// The colour scale at the right: a vertical white → red bar from 0 to the largest count.
    /// A cell's text: a ratio as a whole percent (`67 %`), a count as `count` shows it.
    private static func cellText(_ value: Double, _ type: ColumnType) -> String {
        type == .percent ? DisplayText.percent(value) : count(value)
    }

    private static func scale(
        largest: Double, type: ColumnType, top: Double, height: Double,
        _ document: inout SVGDocument
    ) {
        let x = 560.0
        let steps = 10
        for step in 0..<steps {
            let share = Double(steps - step) / Double(steps)
            document.rect(
                x: x, y: top + Double(step) * height / Double(steps), width: 18,
                height: height / Double(steps), fill: colour(share))
        }
        document.rect(x: x, y: top, width: 18, height: height, fill: "none", stroke: "#999999")
        document.text(cellText(largest, type), x: x + 24, y: top + 10, size: 11)
        document.text(cellText(0, type), x: x + 24, y: top + height, size: 11)
    }

    /// A car seen from above, front at the top: rounded body, windscreen and rear window,
    /// four wheels, around the grid of damage zones.
    /// The backdrop's shapes in its frame: the grid grown by the backdrop's margins.
    private static func draw(
        _ backdrop: HeatMapBackdrop, around grid: (x: Double, y: Double, width: Double, height: Double),
        _ document: inout SVGDocument
    ) {
        let margins = backdrop.frameMargins
        let frame = (
            x: grid.x - margins.left, y: grid.y - margins.top,
            width: grid.width + margins.left + margins.right, height: grid.height + margins.top + margins.bottom
        )
        func x(_ length: HeatMapBackdrop.Length) -> Double { length.resolve(origin: frame.x, size: frame.width) }
        func y(_ length: HeatMapBackdrop.Length) -> Double { length.resolve(origin: frame.y, size: frame.height) }
        func width(_ length: HeatMapBackdrop.Length) -> Double { length.resolve(origin: 0, size: frame.width) }
        func height(_ length: HeatMapBackdrop.Length) -> Double { length.resolve(origin: 0, size: frame.height) }
        for shape in backdrop.shapes {
            switch shape {
            case .rectangle(let left, let top, let w, let h, let fill, let stroke, let corner, let fromBottom):
                let rectangleHeight = height(h)
                document.rect(
                    x: x(left), y: y(top) - (fromBottom ? rectangleHeight : 0), width: width(w),
                    height: rectangleHeight, fill: fill, stroke: stroke, cornerRadius: corner.map(width))
            case .polygon(let points, let fill, let stroke):
                let data =
                    points.enumerated().map { index, point in
                        (index == 0 ? "M" : "L") + SVGDocument.number(x(point.x)) + "," + SVGDocument.number(y(point.y))
                    }.joined(separator: " ") + " Z"
                document.path(data, fill: fill, stroke: stroke)
            case .label(let text, let point, let size, let fill):
                document.text(text, x: x(point.x), y: y(point.y), size: size, anchor: "middle", fill: fill)
            }
        }
    }
}
