import ReportModel

/// The outline of a car seen from above, front at the top, that the damage heat map is drawn
/// over (the 4 × 4 zones of the app's car diagram): body, four wheels, windscreen, rear window.
enum CarOutline {
    typealias Length = HeatMapBackdrop.Length

    static let backdrop: HeatMapBackdrop = {
        let wheelHeight = Length(0.2, maximum: 60)  // a fifth of the body, 60 points at most
        let wheelWidth = Length.points(16)
        var shapes: [HeatMapBackdrop.Shape] = []
        for (y, fromBottom) in [(Length(0.14), false), (Length(0.86), true)] {
            shapes.append(
                .rectangle(
                    x: .points(-12), y: y, width: wheelWidth, height: wheelHeight,
                    fill: "#444444", stroke: nil, cornerRadius: .points(4), fromBottom: fromBottom))
            shapes.append(
                .rectangle(
                    x: Length(1, plus: -4), y: y, width: wheelWidth, height: wheelHeight,
                    fill: "#444444", stroke: nil, cornerRadius: .points(4), fromBottom: fromBottom))
        }
        shapes.append(
            .rectangle(
                x: .points(0), y: .points(0), width: Length(1), height: Length(1), fill: "#f2f2f2",
                stroke: "#555555", cornerRadius: Length(0.25, maximum: 60), fromBottom: false))
        // Windscreen and rear window: trapezoids 16 % in from the sides, narrowing to 24 %.
        let glass = { (near: Length, far: Length) -> HeatMapBackdrop.Shape in
            .polygon(
                [
                    .init(Length(0.16), near), .init(Length(0.84), near), .init(Length(0.76), far),
                    .init(Length(0.24), far),
                ], fill: "#cfe3f3", stroke: "#555555")
        }
        shapes.append(glass(.points(30), .points(10)))
        shapes.append(glass(Length(1, plus: -22), Length(1, plus: -8)))
        shapes.append(.label("front", at: .init(Length(0.5), .points(-8)), size: 11, fill: "#777777"))
        return HeatMapBackdrop(
            canvasHeight: 480, maximumCellWidth: 60, gridWidth: 300, gridHeight: 330, gridTop: 110,
            cellOpacity: 0.85, frameMargins: (30, 50, 30, 30), shapes: shapes)
    }()
}
