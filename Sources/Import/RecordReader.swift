import JSON
import Time
/// Reads and validates the fields of one record, throwing a `FieldError` that names the field,
/// the value and the rule at the first problem.
///
/// Every rule of SPEC §1 that concerns a single value lives here, once: ids are non-empty strings
/// or integers kept as text; `null` equals absent for optional fields; integers are JSON integers
/// only (`4.0` and `"4"` are invalid); enumerations compare after Unicode canonical equivalence,
/// while field names are found byte for byte (`JSONObject.sameName`), as JSON compares them.
public struct RecordReader: Sendable {
    public let object: JSONObject
    /// The path of this object inside the record (`check_out_record.`, `services[1].`), for messages.
    public let path: String
    /// Where each field name is found first: one comparison a lookup, where a scan made several.
    private let index: JSONMemberIndex

    /// Wraps a record, rejecting one that repeats a field name.
    public init(_ object: JSONObject, path: String = "") throws(FieldError) {
        self.object = object
        self.path = path
        index = JSONMemberIndex(object.members)
        if let repeated = object.duplicateKey(index: index) {
            // The empty name, which JSON allows, shown as written: `field "": repeated field`.
            throw FieldError(field: path + (repeated.isEmpty ? "\"\"" : repeated), value: "", rule: "repeated field")
        }
    }

    /// A record that must be an object.
    public init(record value: JSONValue) throws(FieldError) {
        guard case .object(let object) = value else {
            throw FieldError(field: "(record)", value: value.excerpt(), rule: "not an object")
        }
        try self.init(object)
    }

    /// The record's `id`, when it has a usable one (for messages about an invalid record).
    public static func looseId(_ value: JSONValue) -> String? {
        guard case .object(let object) = value else { return nil }
        switch object["id"] {
        case .string(let text) where !text.isEmpty: return shortened(text)
        case .integer(let number): return String(number)
        // An integer id of any length (JSON integers have no size limit) is cut like a text id.
        case .number(_, let literal) where isIntegerLiteral(literal): return shortened(literal)
        default: return nil
        }
    }

    /// An id as messages and `import_rejects` show it: at most 60 characters.
    private static func shortened(_ id: String) -> String {
        id.count > 60 ? String(id.prefix(59)) + "…" : id
    }

    /// An integer written in JSON that does not fit in 64 bits (`12345678901234567890`): JSON
    /// integers have no size limit, so it is still an integer, only one too big to compute with.
    static func isIntegerLiteral(_ literal: String) -> Bool {
        let digits = literal.utf8.first == UInt8(ascii: "-") ? literal.utf8.dropFirst() : literal.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    // MARK: - Presence

    /// The member's value, with `null` read as absent.
    public func value(_ key: String) -> JSONValue? {
        guard let value = index.value(of: key, in: object) else { return nil }
        if case .null = value { return nil }
        return value
    }

    public func required(_ key: String) throws(FieldError) -> JSONValue {
        guard let value = index.value(of: key, in: object) else { throw fail(key, "", "missing (required)") }
        if case .null = value { throw fail(key, "null", "missing (required)") }
        return value
    }

    public func fail(_ key: String, _ value: JSONValue, _ rule: String) -> FieldError {
        FieldError(field: path + key, value: value.excerpt(), rule: rule)
    }

    public func fail(_ key: String, _ value: String, _ rule: String) -> FieldError {
        FieldError(field: path + key, value: value, rule: rule)
    }

    // MARK: - Ids and text

    /// A non-empty string or an integer, kept as text: `1042` and `"1042"` are the same id.
    public func id(_ key: String) throws(FieldError) -> String {
        let value = try required(key)
        guard let text = RecordReader.idText(value) else {
            throw fail(key, value, "invalid id (a non-empty string or an integer)")
        }
        return text
    }

    public func optionalId(_ key: String) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = RecordReader.idText(value) else {
            throw fail(key, value, "invalid id (a non-empty string or an integer)")
        }
        return text
    }

    /// Ids have no size limit: a 20-digit integer id is kept as its digits, like any other integer.
    static func idText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text.isEmpty ? nil : text
        case .integer(let number): return String(number)
        case .number(_, let literal) where isIntegerLiteral(literal): return literal
        default: return nil
        }
    }

    public func string(_ key: String) throws(FieldError) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw fail(key, value, "must be a string") }
        return text
    }

    public func optionalString(_ key: String) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw fail(key, value, "must be a string") }
        return text
    }

    /// An optional list of strings (`contexte`, `photos`).
    public func optionalStrings(_ key: String) throws(FieldError) -> [String]? {
        guard let items = try optionalArray(key) else { return nil }
        var result: [String] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else { throw fail("\(key)[\(index)]", item, "must be a string") }
            result.append(text)
        }
        return result
    }

    /// One of `allowed`, compared after Unicode canonical equivalence (Swift's `==`), returned as
    /// the canonical spelling; `aliases` maps accepted variants (`terminé`) to it (`termine`).
    public func enumeration(
        _ key: String, _ allowed: [String], aliases: [String: String] = [:]
    ) throws(FieldError) -> String {
        let value = try required(key)
        return try enumerationValue(key, value, allowed, aliases: aliases)
    }

    public func optionalEnumeration(
        _ key: String, _ allowed: [String], aliases: [String: String] = [:]
    ) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        return try enumerationValue(key, value, allowed, aliases: aliases)
    }

    private func enumerationValue(
        _ key: String, _ value: JSONValue, _ allowed: [String], aliases: [String: String]
    ) throws(FieldError) -> String {
        if case .string(let text) = value {
            for candidate in allowed where candidate == text { return candidate }
            for (alias, canonical) in aliases where alias == text { return canonical }
        }
        throw fail(key, value, "must be one of " + allowed.joined(separator: ", "))
    }

    // MARK: - Numbers

    /// A JSON integer (not `4.0`, not `"4"`) within `range`.
    public func integer(_ key: String, _ range: ClosedRange<Int64>? = nil) throws(FieldError) -> Int64 {
        try integerValue(key, try required(key), range)
    }

    public func optionalInteger(_ key: String, _ range: ClosedRange<Int64>? = nil) throws(FieldError) -> Int64? {
        guard let value = value(key) else { return nil }
        return try integerValue(key, value, range)
    }

    func integerValue(_ key: String, _ value: JSONValue, _ range: ClosedRange<Int64>?) throws(FieldError) -> Int64 {
        if case .number(_, let literal) = value, RecordReader.isIntegerLiteral(literal) {
            throw fail(
                key, value,
                literal.hasPrefix("-")
                    ? "integer too small (less than \(Int64.min))"
                    : "integer too large (more than \(Int64.max))")
        }
        guard case .integer(let number) = value else {
            throw fail(
                key, value, range.map { "must be an integer " + RecordReader.describe($0) } ?? "must be an integer")
        }
        if let range, !range.contains(number) {
            throw fail(key, value, "must be an integer " + RecordReader.describe(range))
        }
        return number
    }

    /// Any finite JSON number within `range`.
    public func number(_ key: String, _ range: ClosedRange<Double>? = nil) throws(FieldError) -> Double {
        try numberValue(key, try required(key), range)
    }

    public func optionalNumber(_ key: String, _ range: ClosedRange<Double>? = nil) throws(FieldError) -> Double? {
        guard let value = value(key) else { return nil }
        return try numberValue(key, value, range)
    }

    func numberValue(_ key: String, _ value: JSONValue, _ range: ClosedRange<Double>?) throws(FieldError) -> Double {
        let number: Double
        switch value {
        case .integer(let integer): number = Double(integer)
        case .number(let double, _): number = double
        default: throw fail(key, value, "must be a number")
        }
        guard number.isFinite else { throw fail(key, value, "number out of range") }
        if let range, !range.contains(number) {
            throw fail(
                key, value,
                "must be a number from \(RecordReader.plain(range.lowerBound)) to "
                    + "\(RecordReader.plain(range.upperBound))"
            )
        }
        return number
    }

    /// An optional JSON number (decimals allowed) that must not be negative: `tempsRealise`.
    public func optionalNonNegativeNumber(_ key: String) throws(FieldError) -> Double? {
        guard let number = try optionalNumber(key) else { return nil }
        guard number >= 0 else { throw fail(key, value(key) ?? .null, "must be a number ≥ 0") }
        return number
    }

    static func describe(_ range: ClosedRange<Int64>) -> String {
        if range.upperBound == Int64.max { return "≥ \(range.lowerBound)" }
        return "from \(range.lowerBound) to \(range.upperBound)"
    }

    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    public func bool(_ key: String) throws(FieldError) -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw fail(key, value, "must be true or false") }
        return flag
    }

    public func optionalBool(_ key: String) throws(FieldError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw fail(key, value, "must be true or false") }
        return flag
    }

    // MARK: - Time

    /// A timestamp in the one form of SPEC §1 (`2016-10-01T09:12:00+02:00`).
    public func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        try timestampValue(key, try required(key))
    }

    public func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? {
        guard let value = value(key) else { return nil }
        return try timestampValue(key, value)
    }

    func timestampValue(_ key: String, _ value: JSONValue) throws(FieldError) -> Timestamp {
        guard case .string(var text) = value, let stamp = text.withUTF8({ Timestamp.parse($0[...]) }) else {
            throw fail(key, value, "invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM)")
        }
        return stamp
    }

    /// A calendar date `YYYY-MM-DD`.
    public func day(_ key: String) throws(FieldError) -> Day {
        try dayValue(key, try required(key))
    }

    public func optionalDay(_ key: String) throws(FieldError) -> Day? {
        guard let value = value(key) else { return nil }
        return try dayValue(key, value)
    }

    func dayValue(_ key: String, _ value: JSONValue) throws(FieldError) -> Day {
        guard case .string(var text) = value, let day = text.withUTF8({ Day.parse($0[...]) }) else {
            throw fail(key, value, "invalid date (YYYY-MM-DD)")
        }
        return day
    }

    /// A local wall-clock time `HH:MM`, as minutes after midnight.
    public func clockTime(_ key: String) throws(FieldError) -> Int {
        let value = try required(key)
        guard case .string(let text) = value, let minutes = RecordReader.parseClock(text) else {
            throw fail(key, value, "invalid time (HH:MM)")
        }
        return minutes
    }

    /// `HH:MM` (00–23, 00–59) as minutes after midnight, or nil.
    public static func parseClock(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
        let digits = [bytes[0], bytes[1], bytes[3], bytes[4]].map { Int($0) - 48 }
        guard digits.allSatisfy({ $0 >= 0 && $0 <= 9 }) else { return nil }
        let hours = digits[0] * 10 + digits[1], minutes = digits[2] * 10 + digits[3]
        guard hours <= 23, minutes <= 59 else { return nil }
        return hours * 60 + minutes
    }

    /// An optional IANA time-zone name known to the system's tz database.
    public func optionalTimeZone(_ key: String) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value, Zones.shared.isKnown(text) else {
            throw fail(key, value, "unknown time zone")
        }
        return text
    }

    // MARK: - Structure

    public func array(_ key: String) throws(FieldError) -> [JSONValue] {
        let value = try required(key)
        guard case .array(let items) = value else { throw fail(key, value, "must be a list") }
        return items
    }

    public func optionalArray(_ key: String) throws(FieldError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw fail(key, value, "must be a list") }
        return items
    }

    /// A nested object, read with its own path for messages (`check_out_record.`).
    public func optionalObject(_ key: String) throws(FieldError) -> RecordReader? {
        guard let value = value(key) else { return nil }
        guard case .object(let nested) = value else { throw fail(key, value, "must be an object") }
        return try RecordReader(nested, path: path + key + ".")
    }

    /// An element of a list that must be an object (`services[1].`).
    public func element(_ key: String, _ index: Int, _ value: JSONValue) throws(FieldError) -> RecordReader {
        guard case .object(let nested) = value else { throw fail("\(key)[\(index)]", value, "must be an object") }
        return try RecordReader(nested, path: path + "\(key)[\(index)].")
    }
}
