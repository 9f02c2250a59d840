/// Why one field of one record is invalid: the field (a path such as `services[1].price_cents`),
/// the offending value as JSON text, and the rule it breaks.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    /// The value as written (cut), or empty when the field is missing.
    public let value: String
    /// `invalid date`, `missing (required)`, `must be an integer from 1 to 5`.
    public let rule: String

    public init(field: String, value: String, rule: String) {
        self.field = field
        self.value = value
        self.rule = rule
    }

    /// `field starts_at: invalid date "2016-13-42"`.
    public var description: String {
        value.isEmpty ? "field \(field): \(rule)" : "field \(field): \(rule) \(value)"
    }
}
