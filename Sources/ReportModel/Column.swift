/// How a column's values are to be read and shown.
///
/// CSV (SPEC §6.1): ratios with 4 decimals, hours and minutes with 2, euros with 2, decimals with
/// their own places. XLSX: real numbers with a number format per type.
public enum ColumnType: Sendable, Equatable {
    case text
    case integer
    /// A decimal number with a fixed number of places.
    case decimal(places: Int)
    /// A ratio stored as a fraction (0.7312 for 73.12 %): 4 places in CSV, `0.0%` in XLSX.
    case percent
    /// A duration in hours or in minutes (the column's name says which: `hours_out`,
    /// `late_minutes`) with 2 places.
    case duration
    /// Euros with 2 places.
    case euros
    /// A real quantity that is usually whole (kilometres between two odometer readings, a median
    /// of whole streaks): shown with as few decimals as the value needs, at most `maximumPlaces`,
    /// so `18962` stays `18962` and `12.5` stays `12.5`. A loader reads it as a number.
    case measure(maximumPlaces: Int)
    case date
    case timestamp
    case boolean
}

/// A column of a table.
public struct Column: Sendable, Equatable {
    /// The CSV header: the contract name (`utilization`, `best_streak_start`).
    public var name: String
    /// The human header for XLSX and Markdown (`Utilization`); defaults to the name.
    public var title: String
    public var type: ColumnType
    /// Draw XLSX data bars over this column (utilization, score, percent).
    public var dataBar: Bool
    /// The unit of a number (`hours`, `minutes`, `km`), written into the CSV schema's description
    /// (`datapackage.json`) so that a loader knows what a figure counts; nil where the type says
    /// it all (euros, ratios, counts, dates).
    public var unit: String?

    public init(
        _ name: String, _ type: ColumnType = .text, title: String? = nil, dataBar: Bool = false, unit: String? = nil
    ) {
        self.name = name
        self.type = type
        self.title = title ?? Column.humanize(name)
        self.dataBar = dataBar
        self.unit = unit
    }

    /// `best_streak_start` → `Best streak start`.
    public static func humanize(_ name: String) -> String {
        let words = name.split(separator: "_").map(String.init)
        guard let first = words.first else { return name }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
    }
}
