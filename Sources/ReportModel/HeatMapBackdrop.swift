/// What a heat map is drawn over, as data: the domain that makes the heat map says what its grid
/// stands for (the fleet: zones of a car seen from above) and the SVG writer draws whatever shapes
/// it is given, knowing no domain.
///
/// Shapes are placed in a *frame*: the grid grown by `frameMargins` points on each side. A length
/// is a fraction of the frame's width (x, widths) or height (y, heights) plus points, optionally
/// capped, so the backdrop follows the grid whatever its number of rows and columns.
public struct HeatMapBackdrop: Sendable, Equatable {
    /// A position or size in the frame: `fraction × frame size + offset`, at most `maximum`.
    public struct Length: Sendable, Equatable {
        public var fraction: Double
        public var offset: Double
        public var maximum: Double?
        public init(_ fraction: Double, plus offset: Double = 0, maximum: Double? = nil) {
            self.fraction = fraction
            self.offset = offset
            self.maximum = maximum
        }
        /// Points only.
        public static func points(_ offset: Double) -> Length { Length(0, plus: offset) }

        public func resolve(origin: Double, size: Double) -> Double {
            let length = fraction * size + offset
            return origin + (maximum.map { min($0, length) } ?? length)
        }
    }

    public struct Point: Sendable, Equatable {
        public var x: Length
        public var y: Length
        public init(_ x: Length, _ y: Length) {
            self.x = x
            self.y = y
        }
    }

    public enum Shape: Sendable, Equatable {
        /// A rectangle; with `fromBottom` its `y` is its bottom edge (it grows upwards).
        case rectangle(
            x: Length, y: Length, width: Length, height: Length, fill: String, stroke: String?,
            cornerRadius: Length?, fromBottom: Bool)
        case polygon([Point], fill: String, stroke: String?)
        case label(String, at: Point, size: Double, fill: String)
    }

    /// The canvas height the picture needs.
    public var canvasHeight: Int
    /// The largest cell width, and the width and height the grid may take.
    public var maximumCellWidth: Double
    public var gridWidth: Double
    public var gridHeight: Double
    /// Where the grid starts from the top of the canvas.
    public var gridTop: Double
    /// How opaque the cells are, so that the backdrop shows through.
    public var cellOpacity: Double
    /// The frame's margins around the grid, in points: left, top, right, bottom.
    public var frameMargins: (left: Double, top: Double, right: Double, bottom: Double)
    /// Drawn in order, under the grid.
    public var shapes: [Shape]

    public init(
        canvasHeight: Int, maximumCellWidth: Double, gridWidth: Double, gridHeight: Double, gridTop: Double,
        cellOpacity: Double, frameMargins: (left: Double, top: Double, right: Double, bottom: Double),
        shapes: [Shape]
    ) {
        self.canvasHeight = canvasHeight
        self.maximumCellWidth = maximumCellWidth
        self.gridWidth = gridWidth
        self.gridHeight = gridHeight
        self.gridTop = gridTop
        self.cellOpacity = cellOpacity
        self.frameMargins = frameMargins
        self.shapes = shapes
    }

    public static func == (lhs: HeatMapBackdrop, rhs: HeatMapBackdrop) -> Bool {
        lhs.canvasHeight == rhs.canvasHeight && lhs.maximumCellWidth == rhs.maximumCellWidth
            && lhs.gridWidth == rhs.gridWidth && lhs.gridHeight == rhs.gridHeight && lhs.gridTop == rhs.gridTop
            && lhs.cellOpacity == rhs.cellOpacity && lhs.frameMargins == rhs.frameMargins && lhs.shapes == rhs.shapes
    }
}
