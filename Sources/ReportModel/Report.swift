import Time
/// A headline figure: `utilization 0.7312`, shown in the Summary sheet, `summary.csv` and at the
/// top of the Markdown report.
public struct Figure: Sendable, Equatable {
    /// The `summary.csv` metric name (SPEC §3–§5).
    public var metric: String
    public var title: String
    public var value: Value
    public var type: ColumnType

    public init(_ metric: String, _ value: Value, _ type: ColumnType, title: String? = nil) {
        self.metric = metric
        self.value = value
        self.type = type
        self.title = title ?? Column.humanize(metric)
    }
}

/// A chart drawn from columns of one of the report's tables.
public struct Chart: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case column, line, pie }
    public var kind: Kind
    public var title: String
    /// The `name` of the table the data comes from.
    public var table: String
    /// The column holding the categories (x axis, pie slices).
    public var category: String
    /// The columns holding the values: one series each (a pie uses the first).
    public var series: [String]
    /// The stem of the SVG file written beside the Markdown report.
    public var fileStem: String

    public init(_ kind: Kind, title: String, table: String, category: String, series: [String], fileStem: String) {
        self.kind = kind
        self.title = title
        self.table = table
        self.category = category
        self.series = series
        self.fileStem = fileStem
    }
}

/// A grid of counts drawn with a colour scale: the damage zones `A1`–`D4` of the car diagram.
public struct HeatMap: Sendable, Equatable {
    public var title: String
    /// Row labels, top to bottom (`1`…`4`).
    public var rowLabels: [String]
    /// Column labels, left to right (`A`…`D`).
    public var columnLabels: [String]
    /// `cells[row][column]`.
    public var cells: [[Double]]
    /// What the grid is drawn over (the fleet: a car seen from above), nil for a plain grid.
    public var backdrop: HeatMapBackdrop?
    public var fileStem: String
    /// The days the rows stand for, when they are days: the workbook writes them as date cells.
    public var rowDays: [Day]?
    /// How the cells read: `.integer` for counts, `.percent` for ratios (0.5 shows as 50 %).
    public var valueType: ColumnType
    /// The header of the row-label column (`Day`, `Row`), so every column has one.
    public var rowHeader: String
    /// For a grid of ratios (occupancy = booked / capacity): each cell's numerator and
    /// denominator, so that a picture that groups day rows into weeks or months shows Σ numerators /
    /// Σ denominators, never a mean of ratios. Nil for a grid of counts, which groups by summing.
    public var ratioParts: (numerators: [[Double]], denominators: [[Double]])?

    public init(
        title: String, rowLabels: [String], columnLabels: [String], cells: [[Double]],
        backdrop: HeatMapBackdrop? = nil, fileStem: String, rowDays: [Day]? = nil, valueType: ColumnType = .integer,
        rowHeader: String = ""
    ) {
        self.title = title
        self.rowLabels = rowLabels
        self.columnLabels = columnLabels
        self.cells = cells
        self.backdrop = backdrop
        self.fileStem = fileStem
        self.rowDays = rowDays
        self.valueType = valueType
        self.rowHeader = rowHeader
    }

    public static func == (lhs: HeatMap, rhs: HeatMap) -> Bool {
        lhs.title == rhs.title && lhs.rowLabels == rhs.rowLabels && lhs.columnLabels == rhs.columnLabels
            && lhs.cells.elementsEqual(rhs.cells) { $0.elementsEqual($1) { $0 == $1 || ($0.isNaN && $1.isNaN) } }
            && lhs.backdrop == rhs.backdrop && lhs.fileStem == rhs.fileStem && lhs.rowDays == rhs.rowDays
            && lhs.valueType == rhs.valueType && lhs.rowHeader == rhs.rowHeader
            && lhs.ratioParts?.numerators == rhs.ratioParts?.numerators
            && lhs.ratioParts?.denominators == rhs.ratioParts?.denominators
    }
}

/// What an analyzer produces and every writer renders: plain values, no SQLite, no file format.
public struct Report: Sendable {
    /// `fleet`, `habits`, `bookings`.
    public var kind: String
    public var title: String
    /// `salon2016`, `2026-11-28`, `2026-11-01_2026-11-28`: the part of file names after the kind.
    public var scope: String
    /// The moment the report describes; also the workbook's creation time.
    public var asOf: Timestamp
    /// Options that shaped it (`grace_minutes 15`), shown on the Summary sheet and in Markdown.
    public var parameters: [(name: String, value: String)]
    public var figures: [Figure]
    /// In order; the table named `quality` goes last in XLSX.
    public var tables: [Table]
    public var charts: [Chart]
    public var heatMap: HeatMap?
    public var notes: [String]
    /// The version of the tool that made it (shown in Markdown).
    public var toolVersion: String
    /// When the report's period holds no data: one line saying so and what the data covers
    /// (`no habits data on 2026-12-03; the data covers 2026-10-01 to 2026-11-28`). The command
    /// exits 5 with it unless `--allow-empty` is given; nil for a report with data.
    public var emptyPeriod: String?
    /// The IANA zone the workbook's and the Markdown's local times are in (`Europe/Paris`), said
    /// beside the as-of; nil when the times are in several zones (habits: each user's own).
    public var timeZone: String?

    public init(
        kind: String, title: String, scope: String, asOf: Timestamp,
        parameters: [(name: String, value: String)] = [], figures: [Figure] = [],
        tables: [Table] = [], charts: [Chart] = [], heatMap: HeatMap? = nil,
        notes: [String] = [], toolVersion: String = ReportVersion.current
    ) {
        self.kind = kind
        self.title = title
        self.scope = scope
        self.asOf = asOf
        self.parameters = parameters
        self.figures = figures
        self.tables = tables
        self.charts = charts
        self.heatMap = heatMap
        self.notes = notes
        self.toolVersion = toolVersion
    }

    /// The file-name stem: `fleet-salon2016` (sanitised by the writers, never trusted).
    public var baseName: String { kind + "-" + scope }

    public func table(named name: String) -> Table? { tables.first { $0.name == name } }
}

/// The tool's version, shown by `--version` and in every report.
public enum ReportVersion {
    public static let current = "0.1.0"
}
