import Foundation
import Store

/// `report-bench store --from SOURCE DB [TABLE…]`: SQLite's floor for each table of an imported
/// database, B-tree by B-tree (issue 32 item 2).
///
/// The floor of a table is what SQLite alone spends storing its rows the way `report import` stores
/// them: the same rows (read from SOURCE, a database `report import` made), in the import's order
/// (`import_seq`; a child table's rows in its parents' order), into a new file opened by `Database`
/// (the import's pragmas), in one transaction, through the import's writer statement
/// (`UpsertWriter`, `ChildRows`: `BulkWriteLimits.sqliteRows` rows a statement), the secondary
/// indexes created after the load as a bulk file's are, then the commit. No JSON is parsed and
/// nothing is validated; the rows are read from SOURCE in chunks of 50,000 with the clocks
/// stopped, so only the writes are timed.
///
/// Per B-tree: the table alone is the same rows through a plain `INSERT` (same rows a statement)
/// into the same table without its key, in a second file, so the key's B-tree costs the
/// difference; each secondary index is its `CREATE INDEX` after the load. A `WITHOUT ROWID` table
/// is one B-tree, its key, loaded as the import loads a bulk file (`Database.loadInKeyOrder`:
/// staged, then merged in key order).
func runFloorBench(_ arguments: [String]) {
    guard arguments.count >= 2 else {
        FileHandle.standardError.write(Data("usage: report-bench store --from SOURCE DB [TABLE…]\n".utf8))
        exit(2)
    }
    let path = arguments[1]
    for file in [path, path + "-bare"] {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
    }
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + "-bare" + suffix) }
    }
    do {
        let source = try Database(path: arguments[0], mode: .readOnly)
        let target = try Database(path: path)
        let bare = try Database(path: path + "-bare")
        let tables =
            arguments.count > 2
            ? Array(arguments.dropFirst(2))
            : try source.tableNames().filter { !FloorTable.bookkeeping.contains($0) }
        print(floorLine("table", "B-tree (what is timed)", "rows", "wall s", "CPU s"))
        var total = Meter()
        for name in tables {
            let table = try FloorTable(name: name, source: source)
            if table.rows == 0 { continue }
            let floor = try table.measure(into: target, bare: bare)
            total.add(floor)
        }
        print(floorLine("all", "sum of the tables' floors", "", total.wall, total.cpu))
    } catch {
        FileHandle.standardError.write(Data("report-bench: \(error)\n".utf8))
        exit(1)
    }
}

/// A line of the floor table: table, B-tree, rows, wall and CPU seconds, in columns.
private func floorLine(_ table: String, _ what: String, _ rows: String, _ wall: Double, _ cpu: Double) -> String {
    floorLine(table, what, rows, String(format: "%.2f", wall), String(format: "%.2f", cpu))
}

private func floorLine(_ table: String, _ what: String, _ rows: String, _ wall: String, _ cpu: String) -> String {
    func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
    return left(table, 16) + " " + left(what, 66) + " " + right(rows, 10) + " " + right(wall, 8) + " " + right(cpu, 8)
}

/// Wall and CPU seconds of the timed parts only.
struct Meter {
    var wall = 0.0
    var cpu = 0.0

    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let startWall = ContinuousClock.now
        let startCPU = processCPUSeconds()
        defer {
            wall += (ContinuousClock.now - startWall) / .seconds(1)
            cpu += processCPUSeconds() - startCPU
        }
        return try body()
    }

    mutating func add(_ other: Meter) {
        wall += other.wall
        cpu += other.cpu
    }
}

/// One table of SOURCE: its schema, key and rows in import order.
struct FloorTable {
    static let bookkeeping: Set<String> = [
        "import_log", "import_rejects", "schema_migrations", "habits_streak_state", "store_changes",
    ]
    /// Child tables (a list per parent, key `(parent, position)`) and the table of their parents.
    static let parents = ["flow_contexts": "flows", "booking_lines": "bookings", "loan_impacts": "loan_records"]
    static let chunk = 50_000

    let name: String
    let source: Database
    let createSQL: String
    let columns: [String]
    let key: [String]
    let withoutRowid: Bool
    let indexes: [(name: String, sql: String)]
    let rows: Int

    init(name: String, source: Database) throws {
        self.name = name
        self.source = source
        guard
            let sql = try source.rows("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)])
                .first?[0].string
        else { throw StoreError("\(source.path): no table \(name)") }
        createSQL = sql
        let info = try source.rows("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
        columns = info.compactMap { $0[0].string }
        key = info.filter { ($0[1].int ?? 0) > 0 }.sorted { ($0[1].int ?? 0) < ($1[1].int ?? 0) }
            .compactMap { $0[0].string }
        withoutRowid = sql.uppercased().contains("WITHOUT ROWID")
        indexes = try source.secondaryIndexes(of: name)
        rows = Int(try source.scalarInt("SELECT count(*) FROM \(name)") ?? 0)
    }

    /// The parent column of a child table.
    var parentColumn: String? { Self.parents[name] == nil ? nil : key.first }

    /// The rows in the order the import wrote them.
    var orderedSelect: String {
        let list = columns.map { "t.\($0)" }.joined(separator: ", ")
        if let parent = Self.parents[name], let column = parentColumn {
            return "SELECT \(list) FROM \(name) t JOIN \(parent) p ON p.id = t.\(column) "
                + "ORDER BY p.import_seq, t.position"
        }
        // A table without `import_seq` goes in its stored order: by rowid, or by key for a `WITHOUT
        // ROWID` table (`habits_record_users`, which has no rowid).
        let order =
            columns.contains("import_seq")
            ? "t.import_seq" : withoutRowid ? key.map { "t.\($0)" }.joined(separator: ", ") : "t.rowid"
        return "SELECT \(list) FROM \(name) t ORDER BY " + order
    }

    /// Loads the rows into `target` (the floor) and, for a rowid table, into `bare` without the
    /// key; prints a line per B-tree and returns the floor.
    func measure(into target: Database, bare: Database) throws -> Meter {
        try target.execute(createSQL)
        let bareTable = !withoutRowid && parentColumn == nil
        if bareTable { try bare.execute(createSQL.replacingOccurrences(of: " PRIMARY KEY", with: "")) }
        var load = Meter()
        var bareLoad = Meter()
        try target.execute("BEGIN IMMEDIATE")
        try target.loadInKeyOrder([name])
        if bareTable { try bare.execute("BEGIN IMMEDIATE") }
        var writer = try FloorWriter(table: self, database: target)
        let plain = bareTable ? try PlainInsert(table: name, columns: columns, database: bare) : nil
        let read = try source.prepare(orderedSelect)
        var chunk: [[SQLValue]] = []
        chunk.reserveCapacity(Self.chunk)
        var more = true
        while more {
            chunk.removeAll(keepingCapacity: true)
            while chunk.count < Self.chunk {
                guard try read.step() else {
                    more = false
                    break
                }
                chunk.append((0..<columns.count).map { read.value($0) })
            }
            if let plain { try bareLoad.time { for row in chunk { try plain.write(row) } } }
            try load.time { for row in chunk { try writer.write(row) } }
        }
        try load.time { try writer.finish() }
        var bareCommit = Meter()
        if let plain {
            try bareLoad.time { try plain.finish() }
            try bareCommit.time { try bare.execute("COMMIT") }
        }
        var floor = load
        let what =
            withoutRowid
            ? "key (\(key.joined(separator: ", "))) = the table (WITHOUT ROWID), the import's writer" : ""
        if bareTable {
            line("table alone: plain INSERT into it without its key, load only", rows, bareLoad)
            line("  (that load's commit, not in the floor)", nil, bareCommit)
            line("+ key (\(key.joined(separator: ", "))): the import's upsert, load only", nil, load)
            let keyOnly = Meter(wall: load.wall - bareLoad.wall, cpu: load.cpu - bareLoad.cpu)
            line("  = key B-tree alone (difference)", nil, keyOnly)
        } else {
            line(what.isEmpty ? "key (\(key.joined(separator: ", "))): the import's writer" : what, rows, load)
        }
        for index in indexes {
            var build = Meter()
            try build.time { try target.execute(index.sql) }
            let columns = (index.sql.firstIndex(of: "(").map { String(index.sql[$0...]) } ?? "")
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            line("+ \(index.name) \(columns)", nil, build)
            floor.add(build)
        }
        var commit = Meter()
        try commit.time { try target.execute("COMMIT") }
        line("commit", nil, commit)
        floor.add(commit)
        line("floor of \(name)", nil, floor)
        return floor
    }

    private func line(_ what: String, _ count: Int?, _ meter: Meter) {
        let shown = what.count > 66 ? String(what.prefix(65)) + "…" : what
        print(floorLine(name, shown, count.map(String.init) ?? "", meter.wall, meter.cpu))
    }
}

/// The import's writer of a table: an upsert by key, or a child table's lists replaced per parent.
struct FloorWriter {
    private var upsert: UpsertWriter?
    private var children: ChildRows?
    private let parentIndex: Int
    private let positionIndex: Int
    private var parent: String?
    private var list: [[SQLValue]] = []

    init(table: FloorTable, database: Database) throws {
        if let parentColumn = table.parentColumn {
            parentIndex = table.columns.firstIndex(of: parentColumn) ?? 0
            positionIndex = table.columns.firstIndex(of: "position") ?? 1
            let others = table.columns.enumerated().filter { $0.offset != parentIndex && $0.offset != positionIndex }
            children = try ChildRows(
                database: database, table: table.name, parentColumn: parentColumn, columns: others.map(\.element))
        } else {
            parentIndex = -1
            positionIndex = -1
            upsert = try database.upsertWriter(table: table.name, columns: table.columns, key: table.key)
        }
    }

    mutating func write(_ row: [SQLValue]) throws {
        if let upsert { return try upsert.write(row) }
        let id = row[parentIndex].string ?? ""
        if id != parent { try finishList() }
        parent = id
        list.append(row.enumerated().filter { $0.offset != parentIndex && $0.offset != positionIndex }.map(\.element))
    }

    private mutating func finishList() throws {
        guard let parent else { return }
        try children?.replace(parent: parent, rows: list)
        list.removeAll(keepingCapacity: true)
    }

    mutating func finish() throws {
        try finishList()
        parent = nil
        try upsert?.flush()
        try children?.flush()
    }
}

/// `INSERT INTO table (columns) VALUES …`, as many rows a statement as the import's writer.
final class PlainInsert {
    private let single: Statement
    private let batch: Statement
    private let width: Int
    private let rowsPerStatement: Int
    private var held: [SQLValue] = []

    init(table: String, columns: [String], database: Database) throws {
        width = columns.count
        rowsPerStatement = database.bulkWriteLimits.sqliteRows
        let values = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        single = try database.prepare(head + values)
        batch = try database.prepare(head + Array(repeating: values, count: rowsPerStatement).joined(separator: ", "))
        held.reserveCapacity(width * rowsPerStatement)
    }

    func write(_ row: [SQLValue]) throws {
        held.append(contentsOf: row)
        if held.count == width * rowsPerStatement {
            try batch.bind(held)
            try batch.run()
            held.removeAll(keepingCapacity: true)
        }
    }

    func finish() throws {
        for start in stride(from: 0, to: held.count, by: width) {
            try single.bind(Array(held[start..<start + width]))
            try single.run()
        }
        held.removeAll()
    }
}
