#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One record as the reader scanned it: a flat list of entries, in file order, over one buffer of
/// bytes that holds every member name, decoded string and number literal of the record.
///
/// Validation reads fields straight from here: a name is found by comparing bytes, a timestamp is
/// parsed from its bytes, and a `String` is made only for a value a record keeps. Building a
/// `JSONValue` tree made a `String` for every name and value, an array per object, and freed
/// them all again (issue 13's profile: about half of the reader thread). The reader fills one tape
/// again for each record, so its storage is allocated once per file, not once per record (`report
/// check` appends a batch of records to a tape of the batch's own).
///
/// An entry's subtree is the entries after it up to `end`: an object's members (each with its
/// name) and an array's items, nested ones included, so a reader steps over a member in one jump.
/// `value(at:)` makes the `JSONValue` of any entry, for error messages and the few callers that
/// want a tree.
public final class JSONTape {
    public enum Kind: UInt8, Sendable {
        case null, bool, integer, number, string, array, object
    }

    /// One value. Offsets and counts are 32-bit: a record is at most `maxRecordBytes` (64 MiB by
    /// default, 1 GiB at most, which `JSONRecordReader` enforces) and holds no more entries or
    /// bytes than it has bytes; a batch's tape is queued once it holds 16 MiB (`RecordPipeline`).
    @usableFromInline
    struct Entry {
        @usableFromInline var kind: Kind
        @usableFromInline var flag: Bool
        @usableFromInline var nameStart: Int32
        @usableFromInline var nameCount: Int32
        /// A string's decoded bytes, a number's literal.
        @usableFromInline var start: Int32
        @usableFromInline var count: Int32
        /// The index after this entry's subtree (`index + 1` for a scalar).
        @usableFromInline var end: Int32
        /// An integer's value, a number's `Double` bits, a container's number of items.
        @usableFromInline var payload: Int64
    }

    /// What the tape holds, in a struct: the scanner takes it out for a record, appends every
    /// token to its own copy and puts it back, so that appending is plain stores with no access
    /// check of a class property per token (those checks were a fifth of `report check`'s time).
    struct Storage {
        var entries: UnsafeMutablePointer<Entry>
        var entryCount = 0
        var entryCapacity: Int
        var bytes: UnsafeMutablePointer<UInt8>
        var byteCount = 0
        var byteCapacity: Int

        static let initialEntries = 64
        static let initialBytes = 1024
        /// Past these, emptying the tape gives the storage back: one huge record (up to
        /// `maxRecordBytes`) must not keep its memory for the rest of the file.
        static let keptEntries = 1 << 16
        static let keptBytes = 1 << 20

        init() {
            entryCapacity = Storage.initialEntries
            entries = .allocate(capacity: entryCapacity)
            byteCapacity = Storage.initialBytes
            bytes = .allocate(capacity: byteCapacity)
        }

        var view: JSONTapeView { JSONTapeView(entries: entries, bytes: bytes) }

        /// Empties the tape for the next record, keeping its storage unless a huge record grew it.
        mutating func removeAll() {
            entryCount = 0
            byteCount = 0
            if entryCapacity > Storage.keptEntries {
                entries.deallocate()
                entryCapacity = Storage.initialEntries
                entries = .allocate(capacity: entryCapacity)
            }
            if byteCapacity > Storage.keptBytes {
                bytes.deallocate()
                byteCapacity = Storage.initialBytes
                bytes = .allocate(capacity: byteCapacity)
            }
        }

        /// How much the tape holds, to go back to after a record that failed half-way.
        var mark: (entries: Int, bytes: Int) { (entryCount, byteCount) }

        mutating func truncate(to mark: (entries: Int, bytes: Int)) {
            entryCount = mark.entries
            byteCount = mark.bytes
        }

        /// Copies up to 16 bytes from `start`, from which 16 bytes are readable (the scanner's
        /// buffer is padded for this), as two word stores: most names and values are this short,
        /// and a call to `memcpy` cost more than the copy.
        @inline(__always)
        mutating func appendShortBytes(_ start: UnsafePointer<UInt8>, count: Int) -> Int32 {
            if byteCount + 16 > byteCapacity {
                Storage.grow(&bytes, count: byteCount, capacity: &byteCapacity, to: byteCount + 16)
            }
            let at = byteCount
            let source = UnsafeRawPointer(start)
            let target = UnsafeMutableRawPointer(bytes + at)
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (target + 8).storeBytes(of: (source + 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
            byteCount += count
            return Int32(truncatingIfNeeded: at)
        }

        /// Copies bytes to the end of the byte buffer and returns where they start.
        @inline(__always)
        mutating func appendBytes(_ start: UnsafePointer<UInt8>, count: Int) -> Int32 {
            if byteCount + count > byteCapacity {
                Storage.grow(&bytes, count: byteCount, capacity: &byteCapacity, to: byteCount + count)
            }
            let at = byteCount
            (bytes + at).initialize(from: start, count: count)
            byteCount += count
            return Int32(truncatingIfNeeded: at)
        }

        /// Appends a value entry; `end` is set for a scalar and left for `close` for a container.
        @inline(__always)
        mutating func append(
            _ kind: Kind, flag: Bool = false, name: (start: Int32, count: Int32), start: Int32 = 0,
            count: Int32 = 0, payload: Int64 = 0
        ) -> Int {
            if entryCount == entryCapacity {
                Storage.grow(&entries, count: entryCount, capacity: &entryCapacity, to: entryCount + 1)
            }
            let index = entryCount
            (entries + index).initialize(
                to: Entry(
                    kind: kind, flag: flag, nameStart: name.start, nameCount: name.count, start: start, count: count,
                    end: Int32(truncatingIfNeeded: index + 1), payload: payload))
            entryCount += 1
            return index
        }

        /// Ends the container at `index`: its subtree is everything appended since.
        @inline(__always)
        mutating func close(_ index: Int) {
            entries[index].end = Int32(truncatingIfNeeded: entryCount)
        }

        /// Counts one more item of the container at `index`.
        @inline(__always)
        mutating func countItem(of index: Int) {
            entries[index].payload &+= 1
        }

        /// Moves `count` items to a new allocation of at least `needed` (doubling), freeing the old one.
        @inline(never)
        private static func grow<Item>(
            _ storage: inout UnsafeMutablePointer<Item>, count: Int, capacity: inout Int, to needed: Int
        ) {
            var larger = capacity * 2
            while larger < needed { larger *= 2 }
            let grown = UnsafeMutablePointer<Item>.allocate(capacity: larger)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity = larger
        }
    }

    /// Unchecked: a tape is read and written by one thread at a time (the reader's, or the batch's
    /// while it is being filled, then the validating thread's), and the runtime's check of each
    /// access was 4 % of a record's instructions.
    @exclusivity(unchecked) var storage = Storage()

    public init() {}

    /// The tape of a value already built (a record made in a test, a list element handed back).
    public convenience init(_ value: JSONValue) {
        self.init()
        append(value, name: nil)
    }

    deinit {
        storage.entries.deallocate()
        storage.bytes.deallocate()
    }

    /// The name span of an entry that has no name (an array item, the record itself).
    static let noName: (start: Int32, count: Int32) = (-1, 0)

    /// Appends a tree (used for values built in memory, not for what the scanner reads).
    private func append(_ value: JSONValue, name: String?) {
        let nameSpan = name.map { appendText($0) } ?? JSONTape.noName
        switch value {
        case .null: _ = storage.append(.null, name: nameSpan)
        case .bool(let flag): _ = storage.append(.bool, flag: flag, name: nameSpan)
        case .integer(let number): _ = storage.append(.integer, name: nameSpan, payload: number)
        case .number(let double, let literal):
            let text = appendText(literal)
            _ = storage.append(
                .number, name: nameSpan, start: text.start, count: text.count,
                payload: Int64(bitPattern: double.bitPattern))
        case .string(let string):
            let text = appendText(string)
            _ = storage.append(.string, name: nameSpan, start: text.start, count: text.count)
        case .array(let items):
            let index = storage.append(.array, name: nameSpan, payload: Int64(items.count))
            for item in items { append(item, name: nil) }
            storage.close(index)
        case .object(let object):
            let index = storage.append(.object, name: nameSpan, payload: Int64(object.members.count))
            for member in object.members { append(member.value, name: member.key) }
            storage.close(index)
        }
    }

    private func appendText(_ text: String) -> (start: Int32, count: Int32) {
        var text = text
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return (Int32(truncatingIfNeeded: storage.byteCount), 0) }
            return (storage.appendBytes(base, count: utf8.count), Int32(truncatingIfNeeded: utf8.count))
        }
    }

    // MARK: Reading

    /// The bytes the tape's records take: their entries and their text.
    public var heldBytes: Int {
        storage.entryCount * MemoryLayout<Entry>.stride + storage.byteCount
    }

    /// The record as it stands, for reading: valid until the tape is read into again.
    public var view: JSONTapeView { storage.view }

    public func kind(at index: Int) -> Kind { view.kind(at: index) }
    public func itemCount(at index: Int) -> Int { view.itemCount(at: index) }

    /// The string (or number literal) at `index` as a `String`. No cache of short strings: most
    /// strings a record keeps are its ids, each seen once, and a cache that misses costs more
    /// than it saves.
    public func string(at index: Int) -> String { view.string(at: index) }

    /// The member name at `index` as a `String`.
    public func nameString(at index: Int) -> String { view.nameString(at: index) }

    /// The entry at `index` as compact JSON text: what `value(at: index).jsonText` gives.
    public func jsonText(at index: Int) -> String { view.jsonText(at: index) }

    /// The `JSONValue` of the entry at `index` and its subtree.
    public func value(at index: Int = 0) -> JSONValue { view.value(at: index) }
}

/// A complete record on a tape, read through raw pointers: no reference counting and no
/// exclusivity check per access (the tape is a class), and inlined into the validation of every
/// kind. Valid until the tape is read into again.
public struct JSONTapeView {
    @usableFromInline let entries: UnsafePointer<JSONTape.Entry>
    @usableFromInline let bytes: UnsafePointer<UInt8>

    init(entries: UnsafeMutablePointer<JSONTape.Entry>, bytes: UnsafeMutablePointer<UInt8>) {
        self.entries = UnsafePointer(entries)
        self.bytes = UnsafePointer(bytes)
    }

    @inlinable @inline(__always)
    public func kind(at index: Int) -> JSONTape.Kind { entries[index].kind }

    /// The index after the subtree of the entry at `index`: the next member or item.
    @inlinable @inline(__always)
    public func end(at index: Int) -> Int { Int(entries[index].end) }

    /// A container's number of items (an object's members, an array's elements).
    @inlinable @inline(__always)
    public func itemCount(at index: Int) -> Int { Int(entries[index].payload) }

    @inlinable @inline(__always)
    public func bool(at index: Int) -> Bool { entries[index].flag }

    @inlinable @inline(__always)
    public func integer(at index: Int) -> Int64 { entries[index].payload }

    @inlinable @inline(__always)
    public func double(at index: Int) -> Double { Double(bitPattern: UInt64(bitPattern: entries[index].payload)) }

    /// A string's decoded bytes, or a number's literal.
    @inlinable @inline(__always)
    public func text(at index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + Int(entries[index].start), count: Int(entries[index].count))
    }

    /// A member's name as bytes (empty for an array item or the record itself).
    @inlinable @inline(__always)
    public func name(at index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + Int(max(0, entries[index].nameStart)), count: Int(entries[index].nameCount))
    }

    /// The length of a member's name in bytes.
    @inlinable @inline(__always)
    public func nameCount(at index: Int) -> Int { Int(entries[index].nameCount) }

    /// The string (or number literal) at `index` as a `String`.
    @inlinable
    public func string(at index: Int) -> String {
        let text = text(at: index)
        return text.isEmpty ? "" : String(decoding: text, as: UTF8.self)
    }

    /// The member name at `index` as a `String`.
    public func nameString(at index: Int) -> String {
        String(decoding: name(at: index), as: UTF8.self)
    }

    /// The `JSONValue` of the entry at `index` and its subtree.
    public func value(at index: Int) -> JSONValue {
        switch kind(at: index) {
        case .null: return .null
        case .bool: return .bool(bool(at: index))
        case .integer: return .integer(integer(at: index))
        case .number: return .number(double(at: index), literal: string(at: index))
        case .string: return .string(string(at: index))
        case .array:
            var items: [JSONValue] = []
            items.reserveCapacity(itemCount(at: index))
            var item = index + 1
            while item < end(at: index) {
                items.append(value(at: item))
                item = end(at: item)
            }
            return .array(items)
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(itemCount(at: index))
            var member = index + 1
            while member < end(at: index) {
                members.append(JSONObject.Member(key: nameString(at: member), value: value(at: member)))
                member = end(at: member)
            }
            return .object(JSONObject(members: members))
        }
    }

    /// The entry at `index` as compact JSON text: what `value(at: index).jsonText` gives.
    public func jsonText(at index: Int) -> String {
        if kind(at: index) == .array, let text = plainStringsText(at: index) { return text }
        var text: [UInt8] = []
        text.reserveCapacity(64)
        write(index, into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// A list of strings none of which needs an escape (`["Maison","Trajet"]`, the usual
    /// `contexte`), written straight into the `String`'s storage; nil for any other list.
    private func plainStringsText(at list: Int) -> String? {
        var length = 2
        var item = list + 1
        while item < end(at: list) {
            guard kind(at: item) == .string else { return nil }
            let bytes = text(at: item)
            if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }) { return nil }
            length += bytes.count + (item == list + 1 ? 2 : 3)
            item = end(at: item)
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var at = 0
            func put(_ byte: UInt8) {
                buffer[at] = byte
                at += 1
            }
            put(UInt8(ascii: "["))
            var item = list + 1
            while item < end(at: list) {
                if item > list + 1 { put(UInt8(ascii: ",")) }
                put(UInt8(ascii: "\""))
                let bytes = text(at: item)
                if let base = bytes.baseAddress {
                    (buffer.baseAddress! + at).initialize(from: base, count: bytes.count)
                }
                at += bytes.count
                put(UInt8(ascii: "\""))
                item = end(at: item)
            }
            put(UInt8(ascii: "]"))
            return at
        }
    }

    private func write(_ index: Int, into text: inout [UInt8]) {
        switch kind(at: index) {
        case .null: text.append(contentsOf: "null".utf8)
        case .bool: text.append(contentsOf: (bool(at: index) ? "true" : "false").utf8)
        case .integer: text.append(contentsOf: String(integer(at: index)).utf8)
        case .number: text.append(contentsOf: self.text(at: index))
        case .string: JSONValue.writeQuoted(utf8: self.text(at: index), into: &text)
        case .array, .object:
            let isObject = kind(at: index) == .object
            text.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            var item = index + 1
            while item < end(at: index) {
                if item > index + 1 { text.append(UInt8(ascii: ",")) }
                if isObject {
                    JSONValue.writeQuoted(utf8: name(at: item), into: &text)
                    text.append(UInt8(ascii: ":"))
                }
                write(item, into: &text)
                item = end(at: item)
            }
            text.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Whether the member at `index` is named `key`, byte for byte (as JSON compares names).
    @inlinable @inline(__always)
    public func hasName(at index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        guard Int(entry.nameCount) == key.count else { return false }
        return key.count == 0 || JSONTapeView.equalBytes(bytes + Int(entry.nameStart), key.baseAddress!, key.count)
    }

    /// Whether `count` bytes at `a` and `b` are the same. Field names and enumeration values are
    /// short: two overlapping word compares, inline, where `memcmp` is a call through the PLT.
    @inlinable @inline(__always)
    public static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let a = UnsafeRawPointer(a), b = UnsafeRawPointer(b)
        if count >= 8 {
            if count > 16 { return memcmp(a, b, count) == 0 }
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        var index = 0
        while index < count {
            if a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            index += 1
        }
        return true
    }
}
