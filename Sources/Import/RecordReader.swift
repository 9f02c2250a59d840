import JSON
import Time

/// Reads and validates the fields of one record, throwing a `FieldError` that names the field,
/// the value and the rule at the first problem.
///
/// Every rule of SPEC §1 that concerns a single value lives here, once: ids are non-empty strings
/// or integers kept as text; `null` equals absent for optional fields; integers are JSON integers
/// only (`4.0` and `"4"` are invalid); enumerations compare after Unicode canonical equivalence,
/// while field names are found byte for byte, as JSON compares them.
///
/// It reads the record on the reader's tape (`JSONTape`): a field is found by comparing name
/// bytes, a timestamp or a date is parsed from its bytes, and a `String` is made only for a value
/// the record keeps. A `JSONValue` is made only for an error message or a caller that asks for
/// one (`value(_:)`). Not Sendable: the tape is the reader's, reused by the next record.
public struct RecordReader {
    /// The record's tape, read through raw pointers (the reader's tape, alive while the record is
    /// read), and the entry of this object on it.
    let view: JSONTapeView
    let entry: Int
    /// Keeps a tape made for a record built in memory alive; nil for the reader's tape.
    private let owner: JSONTape?
    /// The path of the object holding this one, and for an item of a list its key and position:
    /// an item's path is written out only for a message, so that a valid list of objects (a
    /// loan's impacts, a booking's services) makes no `String` per item.
    private let parentPath: String
    private let item: (key: String, index: Int)?

    /// The path of this object inside the record (`check_out_record.`, `services[1].`), for messages.
    public var path: String {
        guard let item else { return parentPath }
        return parentPath + "\(item.key)[\(item.index)]."
    }

    /// The object at `entry` of a tape, rejected when it repeats a field name.
    init(
        view: JSONTapeView, entry: Int, path: String, item: (key: String, index: Int)? = nil,
        owner: JSONTape? = nil
    ) throws(FieldError) {
        self.view = view
        self.entry = entry
        parentPath = path
        self.item = item
        self.owner = owner
        if let repeated = repeatedName() {
            // The empty name, which JSON allows, shown as written: `field "": repeated field`.
            let name = repeated.isEmpty ? "\"\"" : repeated
            throw FieldError(field: self.path + name, value: "", rule: "repeated field")
        }
    }

    /// Wraps an object built in memory, rejecting one that repeats a field name.
    public init(_ object: JSONObject, path: String = "") throws(FieldError) {
        let tape = JSONTape(.object(object))
        try self.init(view: tape.view, entry: 0, path: path, owner: tape)
    }

    /// A record that must be an object.
    public init(record value: JSONValue) throws(FieldError) {
        guard case .object(let object) = value else {
            throw FieldError(field: "(record)", value: value.excerpt(), rule: "not an object")
        }
        try self.init(object)
    }

    /// The record at entry `root` of `tape` (where the reader put it), which must be an object.
    public init(record tape: JSONTape, at root: Int = 0) throws(FieldError) {
        guard tape.kind(at: root) == .object else {
            throw FieldError(field: "(record)", value: tape.value(at: root).excerpt(), rule: "not an object")
        }
        try self.init(view: tape.view, entry: root, path: "")
    }

    /// The first member name that an earlier member already has, byte for byte.
    private func repeatedName() -> String? {
        let count = view.itemCount(at: entry)
        if count < 2 { return nil }
        let end = view.end(at: entry)
        if count <= 16 {
            // Names of different lengths differ: most records (a task's eight names) stop here.
            var lengths: UInt64 = 0
            var collision = false
            var member = entry + 1
            while member < end {
                let bit: UInt64 = 1 << UInt64(view.nameCount(at: member) & 63)
                collision = collision || lengths & bit != 0
                lengths |= bit
                member = view.end(at: member)
            }
            if !collision { return nil }
            var later = view.end(at: entry + 1)
            while later < end {
                let name = view.name(at: later)
                var earlier = entry + 1
                while earlier < later {
                    if view.hasName(at: earlier, name) { return view.nameString(at: later) }
                    earlier = view.end(at: earlier)
                }
                later = view.end(at: later)
            }
            return nil
        }
        var seen = Set<[UInt8]>()
        var member = entry + 1
        while member < end {
            if !seen.insert(Array(view.name(at: member))).inserted { return view.nameString(at: member) }
            member = view.end(at: member)
        }
        return nil
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

    /// The same for the record at entry `root` of `tape`.
    public static func looseId(_ tape: JSONTape, at root: Int = 0) -> String? {
        let view = tape.view
        guard view.kind(at: root) == .object, let id = member("id", of: root, in: view), isId(id, in: view) else {
            return nil
        }
        return shortened(idText(id, in: view))
    }

    /// An id as messages and `import_rejects` show it: at most 60 characters.
    private static func shortened(_ id: String) -> String {
        id.count > 60 ? String(id.prefix(59)) + "…" : id
    }

    /// An integer written in JSON that does not fit in 64 bits (`12345678901234567890`): JSON
    /// integers have no size limit, so it is still an integer, only one too big to compute with.
    static func isIntegerLiteral(_ literal: String) -> Bool {
        isIntegerLiteral(Array(literal.utf8)[...])
    }

    static func isIntegerLiteral<Bytes: Collection<UInt8>>(_ literal: Bytes) -> Bool {
        let digits = literal.first == UInt8(ascii: "-") ? literal.dropFirst() : literal[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    // MARK: - Presence

    /// The member named `key` (byte for byte), null or not: its entry on the tape.
    @inline(__always)
    private func member(_ key: String) -> Int? {
        RecordReader.member(key, of: entry, in: view)
    }

    /// The first member named `key` (byte for byte) of the object at entry `object`.
    @inline(__always)
    private static func member(_ key: String, of object: Int, in view: JSONTapeView) -> Int? {
        var key = key
        return key.withUTF8 { name in
            let end = view.end(at: object)
            var member = object + 1
            while member < end {
                if view.hasName(at: member, name) { return member }
                member = view.end(at: member)
            }
            return nil
        }
    }

    /// The member's entry, with `null` read as absent.
    @inline(__always)
    private func present(_ key: String) -> Int? {
        guard let member = member(key), view.kind(at: member) != .null else { return nil }
        return member
    }

    /// The member's entry, which must be there and not `null`.
    @inline(__always)
    private func required(entry key: String) throws(FieldError) -> Int {
        guard let member = member(key) else { throw fail(key, "", "missing (required)") }
        if view.kind(at: member) == .null { throw fail(key, "null", "missing (required)") }
        return member
    }

    /// The member's value, with `null` read as absent.
    public func value(_ key: String) -> JSONValue? {
        present(key).map { view.value(at: $0) }
    }

    public func required(_ key: String) throws(FieldError) -> JSONValue {
        view.value(at: try required(entry: key))
    }

    public func fail(_ key: String, _ value: JSONValue, _ rule: String) -> FieldError {
        FieldError(field: path + key, value: value.excerpt(), rule: rule)
    }

    public func fail(_ key: String, _ value: String, _ rule: String) -> FieldError {
        FieldError(field: path + key, value: value, rule: rule)
    }

    /// The error for the value at entry `member`, quoted as JSON.
    private func fail(_ key: String, at member: Int, _ rule: String) -> FieldError {
        fail(key, view.value(at: member), rule)
    }

    // MARK: - Ids and text

    /// A non-empty string or an integer, kept as text: `1042` and `"1042"` are the same id.
    public func id(_ key: String) throws(FieldError) -> String {
        idText(try idEntry(key, try required(entry: key)))
    }

    public func optionalId(_ key: String) throws(FieldError) -> String? {
        guard let member = present(key) else { return nil }
        return idText(try idEntry(key, member))
    }

    /// Checks an optional id that is not kept (a flow step's `id`): the same rule and message as
    /// `optionalId`, with no `String` made.
    public func checkOptionalId(_ key: String) throws(FieldError) {
        guard let member = present(key) else { return }
        _ = try idEntry(key, member)
    }

    /// The entry `member`, which must hold an id.
    @inline(__always)
    private func idEntry(_ key: String, _ member: Int) throws(FieldError) -> Int {
        guard RecordReader.isId(member, in: view) else {
            throw fail(key, at: member, "invalid id (a non-empty string or an integer)")
        }
        return member
    }

    /// Whether the entry is an id: a non-empty string, or an integer of any size (a 20-digit
    /// integer id is a number literal on the tape, kept as its digits like any other integer).
    @inline(__always)
    private static func isId(_ member: Int, in view: JSONTapeView) -> Bool {
        switch view.kind(at: member) {
        case .string: !view.text(at: member).isEmpty
        case .integer: true
        case .number: isIntegerLiteral(view.text(at: member))
        default: false
        }
    }

    /// The text of an entry that `isId` accepted.
    @inline(__always)
    private static func idText(_ member: Int, in view: JSONTapeView) -> String {
        view.kind(at: member) == .integer ? String(view.integer(at: member)) : view.string(at: member)
    }

    private func idText(_ member: Int) -> String { RecordReader.idText(member, in: view) }

    /// Checks a required string that is not kept (a flow step's `libelle`): the same rules and
    /// messages as `string`, with no `String` made.
    public func checkString(_ key: String) throws(FieldError) {
        _ = try stringEntry(key, try required(entry: key))
    }

    public func string(_ key: String) throws(FieldError) -> String {
        view.string(at: try stringEntry(key, try required(entry: key)))
    }

    /// The entry `member`, which must hold a string.
    @inline(__always)
    private func stringEntry(_ key: String, _ member: Int) throws(FieldError) -> Int {
        guard view.kind(at: member) == .string else { throw fail(key, at: member, "must be a string") }
        return member
    }

    public func optionalString(_ key: String) throws(FieldError) -> String? {
        guard let member = present(key) else { return nil }
        return view.string(at: try stringEntry(key, member))
    }

    /// An optional list of strings (`contexte`, `photos`).
    public func optionalStrings(_ key: String) throws(FieldError) -> [String]? {
        guard let list = try optionalStringList(key) else { return nil }
        var result: [String] = []
        result.reserveCapacity(view.itemCount(at: list))
        var item = list + 1
        while item < view.end(at: list) {
            result.append(view.string(at: item))
            item = view.end(at: item)
        }
        return result
    }

    /// The number of items of an optional list of strings (`photos`, whose URLs are not kept), 0
    /// when absent or `null`: the same checks and messages as `optionalStrings`, no `String` made.
    public func optionalStringCount(_ key: String) throws(FieldError) -> Int {
        guard let list = try optionalStringList(key) else { return 0 }
        return view.itemCount(at: list)
    }

    /// An optional list of strings as compact JSON text, the way `contexte` is stored: nil when
    /// absent, `null` or empty; the same checks and messages as `optionalStrings`, and the same
    /// text as `value(key)?.jsonText`, with no `String` made for the items.
    public func optionalStringsJSON(_ key: String) throws(FieldError) -> String? {
        guard let list = try optionalStringList(key), view.itemCount(at: list) > 0 else { return nil }
        return view.jsonText(at: list)
    }

    /// The entry of an optional list whose items must all be strings (`contexte[1]: must be a string`).
    private func optionalStringList(_ key: String) throws(FieldError) -> Int? {
        guard let list = try optionalList(key) else { return nil }
        var item = list + 1
        var position = 0
        while item < view.end(at: list) {
            guard view.kind(at: item) == .string else {
                throw fail("\(key)[\(position)]", at: item, "must be a string")
            }
            item = view.end(at: item)
            position += 1
        }
        return list
    }

    /// One of `allowed`, compared after Unicode canonical equivalence (Swift's `==`), returned as
    /// the canonical spelling; `aliases` maps accepted variants (`terminé`) to it (`termine`).
    public func enumeration(
        _ key: String, _ allowed: [String], aliases: [String: String] = [:]
    ) throws(FieldError) -> String {
        try enumerationValue(key, try required(entry: key), allowed, aliases: aliases)
    }

    public func optionalEnumeration(
        _ key: String, _ allowed: [String], aliases: [String: String] = [:]
    ) throws(FieldError) -> String? {
        guard let member = present(key) else { return nil }
        return try enumerationValue(key, member, allowed, aliases: aliases)
    }

    private func enumerationValue(
        _ key: String, _ member: Int, _ allowed: [String], aliases: [String: String]
    ) throws(FieldError) -> String {
        if view.kind(at: member) == .string {
            // The usual case, a value spelled as allowed, is found by its bytes with no `String` made.
            let bytes = view.text(at: member)
            for candidate in allowed where RecordReader.spells(candidate, bytes) { return candidate }
            // Anything else (an alias, a canonical equivalent, an invalid value) compares as Swift does.
            let text = view.string(at: member)
            for candidate in allowed where candidate == text { return candidate }
            for (alias, canonical) in aliases where alias == text { return canonical }
        }
        throw fail(key, at: member, "must be one of " + allowed.joined(separator: ", "))
    }

    /// Whether `bytes` are `text`'s UTF-8, byte for byte.
    @inline(__always)
    private static func spells(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = text
        guard text.utf8.count == bytes.count else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return text.withUTF8 { JSONTapeView.equalBytes($0.baseAddress!, base, bytes.count) }
    }

    // MARK: - Numbers

    /// A JSON integer (not `4.0`, not `"4"`) within `range`.
    public func integer(_ key: String, _ range: ClosedRange<Int64>? = nil) throws(FieldError) -> Int64 {
        try integerValue(key, try required(entry: key), range)
    }

    public func optionalInteger(_ key: String, _ range: ClosedRange<Int64>? = nil) throws(FieldError) -> Int64? {
        guard let member = present(key) else { return nil }
        return try integerValue(key, member, range)
    }

    private func integerValue(_ key: String, _ member: Int, _ range: ClosedRange<Int64>?) throws(FieldError) -> Int64 {
        let kind = view.kind(at: member)
        if kind == .number, RecordReader.isIntegerLiteral(view.text(at: member)) {
            throw fail(
                key, at: member,
                view.text(at: member).first == UInt8(ascii: "-")
                    ? "integer too small (less than \(Int64.min))"
                    : "integer too large (more than \(Int64.max))")
        }
        guard kind == .integer else {
            throw fail(
                key, at: member,
                range.map { "must be an integer " + RecordReader.describe($0) } ?? "must be an integer")
        }
        let number = view.integer(at: member)
        if let range, !range.contains(number) {
            throw fail(key, at: member, "must be an integer " + RecordReader.describe(range))
        }
        return number
    }

    /// Any finite JSON number within `range`.
    public func number(_ key: String, _ range: ClosedRange<Double>? = nil) throws(FieldError) -> Double {
        try numberValue(key, try required(entry: key), range)
    }

    public func optionalNumber(_ key: String, _ range: ClosedRange<Double>? = nil) throws(FieldError) -> Double? {
        guard let member = present(key) else { return nil }
        return try numberValue(key, member, range)
    }

    private func numberValue(_ key: String, _ member: Int, _ range: ClosedRange<Double>?) throws(FieldError) -> Double {
        let number: Double
        switch view.kind(at: member) {
        case .integer: number = Double(view.integer(at: member))
        case .number: number = view.double(at: member)
        default: throw fail(key, at: member, "must be a number")
        }
        guard number.isFinite else { throw fail(key, at: member, "number out of range") }
        if let range, !range.contains(number) {
            throw fail(
                key, at: member,
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
        let member = try required(entry: key)
        guard view.kind(at: member) == .bool else { throw fail(key, at: member, "must be true or false") }
        return view.bool(at: member)
    }

    public func optionalBool(_ key: String) throws(FieldError) -> Bool? {
        guard let member = present(key) else { return nil }
        guard view.kind(at: member) == .bool else { throw fail(key, at: member, "must be true or false") }
        return view.bool(at: member)
    }

    // MARK: - Time

    /// A timestamp in the one form of SPEC §1 (`2016-10-01T09:12:00+02:00`).
    public func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        try timestampValue(key, try required(entry: key))
    }

    public func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? {
        guard let member = present(key) else { return nil }
        return try timestampValue(key, member)
    }

    private func timestampValue(_ key: String, _ member: Int) throws(FieldError) -> Timestamp {
        guard view.kind(at: member) == .string, let stamp = Timestamp.parse(view.text(at: member)[...]) else {
            throw fail(key, at: member, "invalid timestamp (YYYY-MM-DDTHH:MM[:SS[.fraction]] and Z or ±HH:MM)")
        }
        return stamp
    }

    /// A calendar date `YYYY-MM-DD`.
    public func day(_ key: String) throws(FieldError) -> Day {
        try dayValue(key, try required(entry: key))
    }

    public func optionalDay(_ key: String) throws(FieldError) -> Day? {
        guard let member = present(key) else { return nil }
        return try dayValue(key, member)
    }

    private func dayValue(_ key: String, _ member: Int) throws(FieldError) -> Day {
        guard view.kind(at: member) == .string, let day = Day.parse(view.text(at: member)[...]) else {
            throw fail(key, at: member, "invalid date (YYYY-MM-DD)")
        }
        return day
    }

    /// A local wall-clock time `HH:MM`, as minutes after midnight.
    public func clockTime(_ key: String) throws(FieldError) -> Int {
        let member = try required(entry: key)
        guard view.kind(at: member) == .string, let minutes = ClockTime.minutes(view.string(at: member)) else {
            throw fail(key, at: member, "invalid time (HH:MM)")
        }
        return minutes
    }

    /// An optional IANA time-zone name known to the system's tz database.
    public func optionalTimeZone(_ key: String) throws(FieldError) -> String? {
        guard let member = present(key) else { return nil }
        guard view.kind(at: member) == .string else { throw fail(key, at: member, "unknown time zone") }
        let text = view.string(at: member)
        guard Zones.shared.isKnown(text) else { throw fail(key, at: member, "unknown time zone") }
        return text
    }

    // MARK: - Structure

    /// The entry of a list that must be there.
    private func list(_ key: String) throws(FieldError) -> Int {
        let member = try required(entry: key)
        guard view.kind(at: member) == .array else { throw fail(key, at: member, "must be a list") }
        return member
    }

    private func optionalList(_ key: String) throws(FieldError) -> Int? {
        guard let member = present(key) else { return nil }
        guard view.kind(at: member) == .array else { throw fail(key, at: member, "must be a list") }
        return member
    }

    /// One item of a list, where it is on the record's tape: read it with `element(_:_:_:)`. Like
    /// the reader it comes from, valid until the reader's tape is read into again.
    public struct Item {
        let view: JSONTapeView
        let entry: Int
        /// The tape of a record built in memory, kept alive; nil for the reader's tape.
        let owner: JSONTape?
        /// The item as a tree.
        public var value: JSONValue { view.value(at: entry) }

        /// The item's own items when it is a list (a signature's strokes and points), else nil.
        public var elements: Elements? {
            view.kind(at: entry) == .array ? Elements(view: view, list: entry, owner: owner) : nil
        }

        /// A finite JSON number, integer or not; nil for anything else.
        public var finiteNumber: Double? {
            switch view.kind(at: entry) {
            case .integer: return Double(view.integer(at: entry))
            case .number where view.double(at: entry).isFinite: return view.double(at: entry)
            default: return nil
            }
        }
    }

    /// The items of a list inside a list, in order, read in place.
    public struct Elements: Sequence, IteratorProtocol {
        let view: JSONTapeView
        let list: Int
        let owner: JSONTape?
        private var position: Int

        init(view: JSONTapeView, list: Int, owner: JSONTape?) {
            self.view = view
            self.list = list
            self.owner = owner
            position = list + 1
        }

        public var count: Int { view.itemCount(at: list) }

        public mutating func next() -> Item? {
            guard position < view.end(at: list) else { return nil }
            defer { position = view.end(at: position) }
            return Item(view: view, entry: position, owner: owner)
        }
    }

    /// The items of a list that must be there (`services`), in order.
    public func items(_ key: String) throws(FieldError) -> [Item] {
        itemsOf(try list(key))
    }

    /// The items of an optional list (`impacts`, `etape`), nil when absent or `null`.
    public func optionalItems(_ key: String) throws(FieldError) -> [Item]? {
        try optionalList(key).map(itemsOf)
    }

    private func itemsOf(_ list: Int) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(view.itemCount(at: list))
        var item = list + 1
        while item < view.end(at: list) {
            items.append(Item(view: view, entry: item, owner: owner))
            item = view.end(at: item)
        }
        return items
    }

    /// A nested object, read with its own path for messages (`check_out_record.`).
    public func optionalObject(_ key: String) throws(FieldError) -> RecordReader? {
        guard let member = present(key) else { return nil }
        guard view.kind(at: member) == .object else { throw fail(key, at: member, "must be an object") }
        return try RecordReader(view: view, entry: member, path: path + key + ".", owner: owner)
    }

    /// An item of a list that must be an object (`services[1].`).
    public func element(_ key: String, _ index: Int, _ item: Item) throws(FieldError) -> RecordReader {
        guard view.kind(at: item.entry) == .object else {
            throw fail("\(key)[\(index)]", item.value, "must be an object")
        }
        return try RecordReader(view: view, entry: item.entry, path: path, item: (key, index), owner: owner)
    }
}
