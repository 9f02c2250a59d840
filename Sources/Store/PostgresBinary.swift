/// PostgreSQL's types by their OIDs, as a statement reads them, and their binary format.
///
/// A cursor's rows come in the binary format when every column is of a type listed here
/// (`canReadBinary`): an integer, a float or a boolean then comes as its bytes, big-endian, where
/// the text format has the server print digits (a float's shortest exact form) and the client
/// parse them again (`strtod`); on the fleet report's 2.4 million damage marks, each with two
/// floats, that parsing was about a second of the client's CPU, and the report on Citus took
/// 18.79 s in text against 13.07 s in binary (docs/BENCHMARKS.md). A text is its bytes in both
/// formats (libpq ends both with a zero byte).
/// Any other type (a `numeric` sum, a date) keeps the whole cursor in the text format.
enum PostgresType {
    static let boolean: UInt32 = 16
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let oid: UInt32 = 26
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let numeric: UInt32 = 1700
    static let integers: Set<UInt32> = [int8, int2, int4, oid]
    static let floats: Set<UInt32> = [float4, float8]
    /// `text`, `varchar`, `bpchar`, `name`.
    static let texts: Set<UInt32> = [25, 1043, 1042, 19]

    /// Whether rows of these column types can all be read in the binary format.
    static func canReadBinary(_ types: [UInt32]) -> Bool {
        types.allSatisfy { $0 == boolean || integers.contains($0) || floats.contains($0) || texts.contains($0) }
    }

    /// A number as a column gives it.
    enum Number {
        case integer(Int64)
        case real(Double)
    }

    /// The number in a binary column of a boolean, integer or float type at `bytes`; nil for a
    /// text type, whose bytes are the same as in the text format.
    static func binaryNumber(_ bytes: UnsafePointer<CChar>, type: UInt32) -> Number? {
        switch type {
        case boolean: return .integer(bytes.pointee == 0 ? 0 : 1)
        case int2: return .integer(Int64(Int16(truncatingIfNeeded: bigEndian(bytes, count: 2))))
        case int4: return .integer(Int64(Int32(truncatingIfNeeded: bigEndian(bytes, count: 4))))
        case oid: return .integer(Int64(UInt32(truncatingIfNeeded: bigEndian(bytes, count: 4))))
        case int8: return .integer(Int64(bitPattern: bigEndian(bytes, count: 8)))
        case float4: return .real(double(Float(bitPattern: UInt32(truncatingIfNeeded: bigEndian(bytes, count: 4)))))
        case float8: return .real(Double(bitPattern: bigEndian(bytes, count: 8)))
        default: return nil
        }
    }

    /// A `real` as the text format gives it: its shortest digits (0.1, not 0.10000000149011612),
    /// read as a Double.
    private static func double(_ number: Float) -> Double {
        guard number.isFinite else { return Double(number) }
        return Double(number.description) ?? Double(number)
    }

    /// `count` bytes at `bytes` as an unsigned big-endian number.
    private static func bigEndian(_ bytes: UnsafePointer<CChar>, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value = value << 8 | UInt64(UInt8(bitPattern: bytes[index])) }
        return value
    }

    /// A float as SQLite's `sqlite3_column_int64` gives it: truncated toward zero, clamped to
    /// Int64's range, NaN as 0 (Swift's `Int64(_:)` would trap on anything out of range).
    static func integer(clamping number: Double) -> Int64 {
        if number.isNaN { return 0 }
        if number >= 0x1p63 { return .max }
        if number <= -0x1p63 { return .min }
        return Int64(number)
    }
}
