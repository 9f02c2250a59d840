/// Literals make records easy to write in tests: `["id": "t1", "mood": 4]`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    /// A decimal literal such as `12.5` (its literal text is Swift's shortest form).
    public init(floatLiteral value: Double) { self = .number(value, literal: String(value)) }
    /// Members in the order written; a repeated key stays repeated.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(members: elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}
