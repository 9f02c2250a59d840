import CLibPQ
import Foundation

/// A PostgreSQL statement: parameters sent as text (the server parses them by the column or
/// operator they meet), the whole result received on the first `step`, rows then read from it.
///
/// A statement run once (most queries of a report) costs one round trip (`PQexecParams`); from
/// its second run on it is prepared on the server (`PQprepare`, then `PQexecPrepared`), so that an
/// upsert reused for every record of a file is planned once. Columns come back as text and are
/// read as SQLite would give them: a boolean as 0/1, a numeric as an integer when it has no
/// fraction, a float by `strtod` of its shortest exact form (the same Double as was stored).
final class PostgresStatement: StoreStatement {
    /// Strong: the statement deallocates its server-side plan through the connection when it goes.
    let connection: PostgresConnection
    let sql: String
    let text: String
    private var parameters: [UnsafeMutablePointer<CChar>?] = []
    private var preparedName: String?
    private var runs = 0
    private var result: OpaquePointer?
    private var row = -1
    private var rowCount = 0
    private var types: [UInt32] = []

    init(connection: PostgresConnection, sql: String) {
        self.connection = connection
        self.sql = sql
        text = PostgresSQL.placeholders(sql)
    }

    deinit {
        clearParameters()
        if let result { PQclear(result) }
        // Not while a merge runs: PQexec would read and drop its result, an error included.
        if let preparedName, PQstatus(connection.handle) == CONNECTION_OK, connection.pendingSQL == nil {
            PQclear(PQexec(connection.handle, "DEALLOCATE \(preparedName)"))
        }
    }

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
        if let result { PQclear(result) }
        result = nil
        row = -1
        rowCount = 0
        clearParameters()
    }

    func step() throws -> Bool {
        if result == nil || row >= rowCount {
            // First step, or a step after the last row: run (again), as SQLite does.
            if result != nil {
                PQclear(result)
                result = nil
            }
            try execute()
            row = 0
        } else {
            row += 1
        }
        return row < rowCount
    }

    private func execute() throws {
        try connection.awaitPending()
        runs += 1
        if preparedName == nil && runs >= 2 {
            let name = connection.nextStatementName()
            let prepared = PQprepare(connection.handle, name, text, 0, nil)
            defer { PQclear(prepared) }
            try connection.check(prepared, sql: sql)
            preparedName = name
        }
        let count = Int32(parameters.count)
        let executed: OpaquePointer? = parameters.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, buffer.count)) {
                values in
                if let preparedName {
                    return PQexecPrepared(
                        connection.handle, preparedName, count, buffer.isEmpty ? nil : values, nil, nil, 0)
                }
                return PQexecParams(connection.handle, text, count, nil, buffer.isEmpty ? nil : values, nil, nil, 0)
            }
        }
        do { try connection.check(executed, sql: sql) } catch {
            PQclear(executed)
            throw error
        }
        result = executed
        rowCount = PQresultStatus(executed) == PGRES_TUPLES_OK ? Int(PQntuples(executed)) : 0
        types = (0..<Int(PQnfields(executed))).map { PQftype(executed, Int32($0)) }
    }

    var columnCount: Int { result.map { Int(PQnfields($0)) } ?? 0 }

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

    private static let boolean: UInt32 = 16
    private static let integers: Set<UInt32> = [20, 21, 23, 26]
    private static let floats: Set<UInt32> = [700, 701]
    private static let numeric: UInt32 = 1700

    func int64(_ column: Int) -> Int64 {
        guard let text = raw(column) else { return 0 }
        if types[column] == Self.boolean { return text.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
        if Self.integers.contains(types[column]) { return strtoll(text, nil, 10) }
        let number = strtod(text, nil)
        return number.isFinite ? Int64(number) : 0
    }

    func double(_ column: Int) -> Double {
        guard let text = raw(column) else { return 0 }
        if types[column] == Self.boolean { return text.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
        return strtod(text, nil)
    }

    func string(_ column: Int) -> String {
        guard let text = raw(column), let result else { return "" }
        if types[column] == Self.boolean { return text.pointee == CChar(UInt8(ascii: "t")) ? "1" : "0" }
        let count = Int(PQgetlength(result, Int32(row), Int32(column)))
        return text.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    func value(_ column: Int) -> SQLValue {
        guard let text = raw(column) else { return .null }
        let type = types[column]
        if type == Self.boolean || Self.integers.contains(type) { return .integer(int64(column)) }
        if Self.floats.contains(type) { return .real(strtod(text, nil)) }
        if type == Self.numeric {
            let string = String(cString: text)
            if let integer = Int64(string) { return .integer(integer) }
            return .real(strtod(text, nil))
        }
        return .text(string(column))
    }
}
