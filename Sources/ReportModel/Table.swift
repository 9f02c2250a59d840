import Time

/// Where a table appears.
public struct Outputs: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let csv = Outputs(rawValue: 1)
    public static let xlsx = Outputs(rawValue: 2)
    public static let markdown = Outputs(rawValue: 4)
    public static let all: Outputs = [.csv, .xlsx, .markdown]
}

/// The rows of a table, produced on demand so that a million-row table never sits in memory
/// whole. Each writer asks for a fresh iterator; the rows must come out the same every time.
public struct Rows: Sendable {
    /// How many rows, when known in advance.
    public let count: Int?
    private let make: @Sendable () -> AnyIterator<[Value]>

    public init(count: Int? = nil, _ make: @escaping @Sendable () -> AnyIterator<[Value]>) {
        self.count = count
        self.make = make
    }

    /// Rows already in memory.
    public init(_ rows: [[Value]]) {
        self.count = rows.count
        self.make = { AnyIterator(rows.makeIterator()) }
    }

    public func makeIterator() -> AnyIterator<[Value]> { make() }

    /// All rows, in memory (for tests and small tables).
    public var all: [[Value]] { Array(make()) }
}

/// Which rows a Markdown section shows first (the whole table stays in CSV and XLSX).
public enum MarkdownOrder: Sendable, Equatable {
    /// The table's own order (already ranked, or a list read top to bottom).
    case asWritten
    /// The latest first by this date or timestamp column: a daily table in chat shows today.
    case latestFirst(String)
    /// The largest first by this numeric column: the table's main figure.
    case largestFirst(String)
    /// The latest first by this day column among the days up to the given one (the as-of day of
    /// a running event), then the later days in calendar order: today's figures on top, the days
    /// still to come after them rather than first.
    case latestFirstThrough(String, Day)
}

/// A table of a report: a CSV file, an XLSX sheet, a Markdown section.
public struct Table: Sendable {
    /// The file-name stem and contract name: `vehicles` → `vehicles.csv`.
    public var name: String
    /// The sheet and section title: `Vehicles`.
    public var title: String
    public var columns: [Column]
    public var rows: Rows
    public var outputs: Outputs
    /// How many rows Markdown shows (the rest are in CSV and XLSX).
    public var markdownLimit: Int
    /// One line under the Markdown section title, saying what the table ranks or holds.
    public var caption: String?
    /// The rows Markdown shows first; ties keep the table's order.
    public var markdownOrder: MarkdownOrder = .asWritten
    /// The columns Markdown shows, by name (nil: all), so that a line stays within about 120
    /// characters in a chat window.
    public var markdownColumns: [String]?
    /// The most data rows the workbook's sheet holds (nil: all, continued on further sheets past
    /// Excel's limit). A table that can pass millions of rows sets it so that the workbook stays
    /// one sheet that Excel opens and the report is bound by its analysis, not by writing cells;
    /// the sheet's last row then says that the whole table is in the CSV file.
    public var workbookRowLimit: Int?
    /// The columns that identify a row, in the order rows are sorted by (SPEC §6.1: "by their key
    /// columns"); written as the CSV schema's `primaryKey`. Empty for a table whose rows have no
    /// key that is never empty (the quality list, the fleet's daily rows of a car without group).
    public var primaryKey: [String] = []
    /// Whether an empty CSV field is a value of its own rather than "no value": `postal_codes.csv`
    /// lists bookings without a code under the empty code, its key, so its schema declares no
    /// missing value and a loader keeps `""` as a code.
    public var emptyIsAValue = false
    /// Whether the workbook prints the table's sheet. A long list whose every row another sheet
    /// already counts (the habits `badges`, counted by day in `daily` and by type on the Summary)
    /// stays in the workbook for filtering but off paper.
    public var printsInWorkbook = true
    /// The columns the workbook prints, by name (nil: all). The sheet still shows every column;
    /// the printed ones come first, in table order, and the print area stops after them, so that a
    /// sheet too wide for a page at 8-point text prints what a reader needs on paper rather than
    /// in strips (the fleet `loans`). The page footer says how many columns are on screen only.
    /// CSV, its schema and Markdown keep the table's own columns and order.
    public var printColumns: [String]?

    public init(
        name: String, title: String? = nil, columns: [Column], rows: Rows,
        outputs: Outputs = .all, markdownLimit: Int = 10, caption: String? = nil
    ) {
        self.name = name
        self.title = title ?? Column.humanize(name)
        self.columns = columns
        self.rows = rows
        self.outputs = outputs
        self.markdownLimit = markdownLimit
        self.caption = caption
    }

    public init(
        name: String, title: String? = nil, columns: [Column], rows: [[Value]],
        outputs: Outputs = .all, markdownLimit: Int = 10, caption: String? = nil
    ) {
        self.init(
            name: name, title: title, columns: columns, rows: Rows(rows), outputs: outputs,
            markdownLimit: markdownLimit, caption: caption)
    }
}

extension Table {
    /// The same table with `columns` as its key (`primaryKey`).
    public func keyed(_ columns: String...) -> Table {
        var table = self
        table.primaryKey = columns
        return table
    }

    /// The same table, printed from the workbook with only `columns` (`printColumns`).
    public func printed(_ columns: [String]) -> Table {
        var table = self
        table.printColumns = columns
        return table
    }

    /// The same table, shown in Markdown in `order` and with only `columns` (nil: all).
    public func markdown(_ order: MarkdownOrder, columns: [String]? = nil) -> Table {
        var table = self
        table.markdownOrder = order
        table.markdownColumns = columns
        return table
    }
}

/// One data-quality issue as every report lists it: the issue's name (SPEC §3–§5), the record it
/// concerns (an id, or where a rejected record was), and what is wrong with it.
public struct QualityRow: Sendable, Equatable {
    public let issue: String
    public let record: String
    public let detail: String

    public init(issue: String, record: String, detail: String) {
        self.issue = issue
        self.record = record
        self.detail = detail
    }
}

extension Table {
    /// The table every report ends with (`quality.csv`: issue, record, detail, all text), built in
    /// one place for every domain.
    public static func quality(
        count: Int, caption: String, _ rows: @escaping @Sendable () -> AnyIterator<QualityRow>
    ) -> Table {
        Table(
            name: "quality", title: "Quality",
            columns: [Column("issue", .text), Column("record", .text), Column("detail", .text)],
            rows: Rows(count: count) {
                let issues = rows()
                return AnyIterator { issues.next().map { [.text($0.issue), .text($0.record), .text($0.detail)] } }
            }, caption: caption)
    }
}
