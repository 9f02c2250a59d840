import CLibPQ
import Foundation
import Time

/// A PostgreSQL statement: parameters sent as text (the server parses them by the column or
/// operator they meet).
///
/// A query (`SELECT`, `WITH`, `VALUES`) streams, so that a report over millions of rows holds a
/// bounded part of them, as a SQLite cursor does, instead of the whole result. In a reading
/// transaction (a report's snapshot) it reads through a server-side cursor, a chunk of up to
/// 10,000 rows at a time (`PostgresCursor`: one result object per chunk instead of one per row);
/// another statement can run between two chunks, so two queries read side by side each hold
/// at most two chunks. Elsewhere (no transaction, or a writing one) it runs in libpq's single-row
/// mode: while its rows are being read the connection can run nothing else, and when something
/// else needs it (another statement, a write, a commit), the rest of the rows are read ahead into
/// memory first (`drain`). Other statements receive their whole result on the first `step`, and
/// so do queries prepared to be read whole (`Database.prepare(readingWhole:)`: few rows, many runs).
///
/// A statement run once (most queries of a report) costs one round trip (`PQexecParams`); from
/// its second run on it is prepared on the server (`PQprepare`, then `PQexecPrepared`), so that an
/// upsert reused for every record of a file is planned once. Columns come back as text and are
/// read as SQLite would give them: a boolean as 0/1, a numeric as an integer when it has no
/// fraction, a float by `strtod` of its shortest exact form (the same Double as was stored). A
/// cursor whose columns are all booleans, integers, floats and texts reads its chunks in the
/// binary format instead (`PostgresType`), which gives the same values without the digits.
final class PostgresStatement: StoreStatement, PostgresStream {
    /// Strong: the statement deallocates its server-side plan through the connection when it goes.
    let connection: PostgresConnection
    let sql: String
    let text: String
    private var parameters: [UnsafeMutablePointer<CChar>?] = []
    private var preparedName: String?
    private var runs = 0
    private var result: OpaquePointer? {
        didSet { binary = result.map { PQnfields($0) > 0 && PQfformat($0, 0) == 1 } ?? false }
    }
    /// Whether `result` is in the binary format (a cursor's chunk, `PostgresType.canReadBinary`).
    private(set) var binary = false
    private var row = -1
    private var rowCount = 0
    private var types: [UInt32] = []
    /// Whether this statement's SQL returns rows and so runs in single-row mode (or through a
    /// cursor); false for a query prepared to be read whole (`Database.prepare(readingWhole:)`).
    private let streams: Bool
    /// A run has started and its last row has not been reached (the next `step` reads on).
    private var running = false
    /// Rows of a streaming run are still on the wire (`PQgetResult` gives more).
    private var live = false
    /// Results read ahead by `drain`, handed out before reading the wire again.
    private var drained: [OpaquePointer] = []
    private var drainedIndex = 0
    /// The cursor this run reads its chunks from (a query in a reading transaction), if any;
    /// `result` is then the chunk being read.
    private var cursor: PostgresCursor?

    init(connection: PostgresConnection, sql: String, readingWhole: Bool = false) {
        self.connection = connection
        self.sql = sql
        text = PostgresSQL.placeholders(sql)
        let keyword = sql.drop(while: { $0.isWhitespace || $0 == "(" }).prefix(6).uppercased()
        streams =
            !readingWhole && (keyword.hasPrefix("SELECT") || keyword.hasPrefix("WITH") || keyword.hasPrefix("VALUES"))
    }

    deinit {
        clearParameters()
        discardStream()
        if let result { PQclear(result) }
        connection.finishStream()
        // Not while a merge runs: PQexec would read and drop its result, an error included.
        if let preparedName, PQstatus(connection.handle) == CONNECTION_OK, connection.pendingSQL == nil {
            PQclear(PQexec(connection.handle, "DEALLOCATE \(preparedName)"))
        }
        cursor?.abandon()
    }

    /// Whether this run reads through a cursor (tests).
    var readsThroughCursor: Bool { cursor != nil }

    /// The rows this statement holds in memory: the chunk being read and any read ahead (tests).
    var heldRows: Int { (result.map { Int(PQntuples($0)) } ?? 0) + (cursor?.heldRows ?? 0) }

    private func clearParameters() {
        for pointer in parameters { free(pointer) }
        parameters.removeAll(keepingCapacity: true)
    }

    func bind(_ value: SQLValue, at index: Int32) throws {
        let position = Int(index) - 1
        while parameters.count <= position { parameters.append(nil) }
        free(parameters[position])
        switch value {
        case .null: parameters[position] = nil
        case .integer(let number): parameters[position] = strdup(String(number))
        case .real(let number): parameters[position] = strdup(PostgresStatement.text(of: number))
        case .text(let string): parameters[position] = strdup(string)
        }
    }

    /// A Double as PostgreSQL reads it back exactly: Swift's shortest round-trip digits.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }

    func reset() {
        discardStream()
        endCursor()
        if let result { PQclear(result) }
        result = nil
        row = -1
        rowCount = 0
        running = false
        clearParameters()
    }

    func step() throws -> Bool {
        if !running {
            // First step, or a step after the last row: run (again), as SQLite does.
            discardStream()
            endCursor()
            if let result { PQclear(result) }
            result = nil
            rowCount = 0
            try execute()
            running = true
            row = 0
        } else {
            row += 1
        }
        if row & 1023 == 0 { cursor?.pull() }
        if row < rowCount { return true }
        if cursor != nil {
            if try nextChunk() { return true }
        } else if streams, try nextStreamedRow() {
            return true
        }
        running = false
        return false
    }

    /// Moves to the first row of the cursor's next chunk; false, the cursor done, after its last.
    private func nextChunk() throws -> Bool {
        guard let cursor else { return false }
        // The chunk read is freed before the next one is waited for: one chunk held, not two.
        if let result { PQclear(result) }
        result = nil
        row = 0
        rowCount = 0
        do {
            while let chunk = try cursor.next() {
                if let result { PQclear(result) }
                result = chunk
                rowCount = Int(PQntuples(chunk))
                if rowCount > 0 { return true }
            }
        } catch {
            endCursor()
            running = false
            throw error
        }
        self.cursor = nil
        return false
    }

    /// Stops reading through the cursor of this run, if it has one.
    private func endCursor() {
        cursor?.abandon()
        cursor = nil
    }

    /// Moves to the next row of a streaming run (single-row results, then the final empty one).
    private func nextStreamedRow() throws -> Bool {
        while let next = nextResult() {
            if let result { PQclear(result) }
            result = next
            row = 0
            rowCount = 0
            let status = PQresultStatus(next)
            if types.isEmpty && (status == PGRES_SINGLE_TUPLE || status == PGRES_TUPLES_OK) {
                types = Self.columnTypes(next)
            }
            switch status {
            case PGRES_SINGLE_TUPLE:
                rowCount = 1
                return true
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                try connection.check(next, sql: sql)
            default:
                let failure = connection.error(next, sql: sql)
                discardStream()
                running = false
                throw failure
            }
        }
        return false
    }

    /// The next result of a streaming run: read ahead, else from the wire; nil at its end.
    private func nextResult() -> OpaquePointer? {
        if drainedIndex < drained.count {
            defer { drainedIndex += 1 }
            return drained[drainedIndex]
        }
        drained.removeAll(keepingCapacity: true)
        drainedIndex = 0
        guard live else { return nil }
        if let next = PQgetResult(connection.handle) { return next }
        live = false
        connection.streamEnded(self)
        return nil
    }

    /// Reads the rest of a streaming run into memory, so that the connection can run something
    /// else; `step` then hands those rows out as if they came from the wire.
    func drain() {
        guard live else { return }
        while let next = PQgetResult(connection.handle) { drained.append(next) }
        live = false
        connection.streamEnded(self)
    }

    /// Drops what is left of a streaming run (its remaining rows are read and thrown away: a
    /// cancel would abort the transaction the report reads in).
    private func discardStream() {
        drain()
        for index in drainedIndex..<drained.count { PQclear(drained[index]) }
        drained.removeAll(keepingCapacity: true)
        drainedIndex = 0
    }

    private func execute() throws {
        try connection.awaitPending()
        if streams && connection.readsThroughCursors && PQtransactionStatus(connection.handle) == PQTRANS_INTRANS {
            try declareCursor()
            return
        }
        runs += 1
        if preparedName == nil && runs >= 2 {
            let name = connection.nextStatementName()
            let prepared = PQprepare(connection.handle, name, text, 0, nil)
            defer { PQclear(prepared) }
            try connection.check(prepared, sql: sql)
            preparedName = name
        }
        if streams {
            let sent: Int32 = withParameterValues { values, count in
                if let preparedName {
                    return PQsendQueryPrepared(connection.handle, preparedName, count, values, nil, nil, 0)
                }
                return PQsendQueryParams(connection.handle, text, count, nil, values, nil, nil, 0)
            }
            guard sent == 1 else { throw connection.error(nil, sql: sql) }
            PQsetSingleRowMode(connection.handle)
            live = true
            connection.streamStarted(self)
            types = []
            return
        }
        let executed: OpaquePointer? = withParameterValues { values, count in
            if let preparedName { return PQexecPrepared(connection.handle, preparedName, count, values, nil, nil, 0) }
            return PQexecParams(connection.handle, text, count, nil, values, nil, nil, 0)
        }
        do { try connection.check(executed, sql: sql) } catch {
            PQclear(executed)
            throw error
        }
        result = executed
        rowCount = PQresultStatus(executed) == PGRES_TUPLES_OK ? Int(PQntuples(executed)) : 0
        types = Self.columnTypes(executed)
    }

    /// Declares this run's cursor over the query, with its parameters, and asks for the first chunk.
    /// The DECLARE is not prepared on the server: the query is planned at every run, with the
    /// run's values, as a run's first execution always was.
    private func declareCursor() throws {
        let name = connection.nextCursorName()
        let declare = "DECLARE \(name) NO SCROLL CURSOR FOR \(text)"
        let declared: OpaquePointer? = withParameterValues { values, count in
            PQexecParams(connection.handle, declare, count, nil, values, nil, nil, 0)
        }
        defer { PQclear(declared) }
        try connection.check(declared, sql: sql)
        // The cursor's column types, one round trip, so that every chunk can come in the binary
        // format when they allow it.
        let description = PQdescribePortal(connection.handle, name)
        defer { PQclear(description) }
        try connection.check(description, sql: sql)
        types = Self.columnTypes(description)
        cursor = try PostgresCursor(
            connection: connection, name: name, sql: sql, binary: PostgresType.canReadBinary(types))
    }

    /// The type of each column of a result (or of a cursor's description).
    private static func columnTypes(_ result: OpaquePointer?) -> [UInt32] {
        (0..<Int(PQnfields(result))).map { PQftype(result, Int32($0)) }
    }

    /// The bound parameters as libpq takes them (nil when there are none), and their count.
    private func withParameterValues<Result>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int32) -> Result
    ) -> Result {
        guard !parameters.isEmpty else { return body(nil, 0) }
        return parameters.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                body($0, Int32(buffer.count))
            }
        }
    }

    var columnCount: Int { result.map { Int(PQnfields($0)) } ?? types.count }

    func isNull(_ column: Int) -> Bool {
        guard let result, row < rowCount else { return true }
        return PQgetisnull(result, Int32(row), Int32(column)) != 0
    }

    /// The raw text of a column (nil for NULL).
    private func raw(_ column: Int) -> UnsafeMutablePointer<CChar>? {
        guard let result, row >= 0, row < rowCount, PQgetisnull(result, Int32(row), Int32(column)) == 0 else {
            return nil
        }
        return PQgetvalue(result, Int32(row), Int32(column))
    }

    /// The number in a column of the binary format (nil for a text, or in the text format).
    private func binaryNumber(_ bytes: UnsafeMutablePointer<CChar>, _ column: Int) -> PostgresType.Number? {
        binary ? PostgresType.binaryNumber(bytes, type: types[column]) : nil
    }

    func int64(_ column: Int) -> Int64 {
        guard let text = raw(column) else { return 0 }
        switch binaryNumber(text, column) {
        case .integer(let number): return number
        case .real(let number): return PostgresType.integer(clamping: number)
        case nil: break
        }
        if types[column] == PostgresType.boolean { return text.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
        if PostgresType.integers.contains(types[column]) { return strtoll(text, nil, 10) }
        return PostgresType.integer(clamping: strtod(text, nil))
    }

    func double(_ column: Int) -> Double {
        guard let text = raw(column) else { return 0 }
        switch binaryNumber(text, column) {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        case nil: break
        }
        if types[column] == PostgresType.boolean { return text.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
        return strtod(text, nil)
    }

    /// A float of the binary format is spelt as `bind` spells it (Swift's shortest exact digits:
    /// "100000.0" where the server's text is "100000"); the same Double either way.
    func string(_ column: Int) -> String {
        guard let text = raw(column), let result else { return "" }
        switch binaryNumber(text, column) {
        case .integer(let number): return String(number)
        case .real(let number): return PostgresStatement.text(of: number)
        case nil: break
        }
        if types[column] == PostgresType.boolean { return text.pointee == CChar(UInt8(ascii: "t")) ? "1" : "0" }
        let count = Int(PQgetlength(result, Int32(row), Int32(column)))
        return text.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    func withText<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        guard let text = raw(column), let result else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        if types[column] == PostgresType.boolean || binaryNumber(text, column) != nil {
            var string = string(column)
            return try string.withUTF8(body)
        }
        let count = Int(PQgetlength(result, Int32(row), Int32(column)))
        return try text.withMemoryRebound(to: UInt8.self, capacity: count) {
            try body(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    func day(_ column: Int) -> Day? {
        guard raw(column) != nil else { return nil }
        return withText(column) { Day.parse($0[...]) }
    }

    func value(_ column: Int) -> SQLValue {
        guard let text = raw(column) else { return .null }
        switch binaryNumber(text, column) {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case nil: break
        }
        let type = types[column]
        if type == PostgresType.boolean || PostgresType.integers.contains(type) { return .integer(int64(column)) }
        if PostgresType.floats.contains(type) { return .real(strtod(text, nil)) }
        if type == PostgresType.numeric {
            let string = String(cString: text)
            if let integer = Int64(string) { return .integer(integer) }
            return .real(strtod(text, nil))
        }
        return .text(string(column))
    }
}
