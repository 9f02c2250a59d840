import Time
/// One cell of a report: what a writer renders, typed so that each format can show it natively.
public enum Value: Sendable, Equatable {
    /// No value: an empty CSV field, an empty cell, a blank in Markdown.
    case empty
    case text(String)
    case integer(Int64)
    /// Any real number: decimals, ratios, hours, euros. The column's type says how to show it.
    case number(Double)
    case day(Day)
    /// An instant, shown with the offset it carries (analyzers localize it to the report's zone).
    case timestamp(Timestamp)
    case boolean(Bool)

    /// `.number`, or `.empty` for nil or a value that is not finite (a ratio over 0).
    public static func number(_ value: Double?) -> Value {
        guard let value, value.isFinite else { return .empty }
        return .number(value)
    }

    public static func integer(_ value: Int) -> Value { .integer(Int64(value)) }

    /// `.text`, or `.empty` for nil.
    public static func text(_ value: String?) -> Value {
        guard let value else { return .empty }
        return .text(value)
    }

    public var isEmpty: Bool { if case .empty = self { return true } else { return false } }

    /// The value as a Double when it is numeric (for charts and data bars).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }
}
