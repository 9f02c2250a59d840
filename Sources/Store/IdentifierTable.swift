import Foundation

/// Row numbers by id, for hundreds of thousands of ids: open addressing over a power-of-two
/// array of `Int32` (4 bytes a slot, where a `[String: Int32]` takes some 20 and hashes with
/// SipHash). The ids themselves stay with the caller, who gives a number's id back through `key`.
///
/// Ids are hashed and compared by their UTF-8 bytes, as the databases compare text (SQLite's
/// BINARY, PostgreSQL's `COLLATE "C"`), where `String` equality would take two canonically
/// equivalent ids (`é` composed or not) for one. Used on hot paths of other modules (a fleet
/// report's rows, the import's note of each record's user), so its code is inlinable: a call
/// across modules would not inline the `key` closure.
public struct IdentifierTable {
    @usableFromInline var slots: [Int32]
    @usableFromInline var mask: Int
    @usableFromInline var count = 0

    /// Room for `capacity` ids at a load of one half at most; more make it grow.
    public init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    /// Records `number` for `id`; an id already there keeps its number. Whether `number` was
    /// recorded (false: an id of the same bytes was there).
    @inlinable @discardableResult
    public mutating func insert(_ id: String, number: Int32, key: (Int32) -> String) -> Bool {
        var id = id
        return id.withUTF8 { insert(bytes: $0, number: number, key: key) }
    }

    /// `insert(_:number:key:)` for the id of these UTF-8 bytes, for a caller that has them already.
    @inlinable @discardableResult
    public mutating func insert(bytes: UnsafeBufferPointer<UInt8>, number: Int32, key: (Int32) -> String) -> Bool {
        if (count + 1) * 2 > slots.count { grow(key: key) }
        var index = Self.hash(bytes) & mask
        while slots[index] >= 0 {
            if Self.matches(bytes, key(slots[index])) { return false }
            index = (index + 1) & mask
        }
        slots[index] = number
        count += 1
        return true
    }

    /// Forgets every id, keeping the slots' room.
    public mutating func removeAll() {
        for index in slots.indices { slots[index] = -1 }
        count = 0
    }

    /// Twice the slots, every number placed again by its id's hash.
    @usableFromInline mutating func grow(key: (Int32) -> String) {
        let numbers = slots.filter { $0 >= 0 }
        slots = [Int32](repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        for number in numbers {
            var id = key(number)
            id.withUTF8 { bytes in
                var index = Self.hash(bytes) & mask
                while slots[index] >= 0 { index = (index + 1) & mask }
                slots[index] = number
            }
        }
    }

    /// The number recorded for `id`.
    @inlinable
    public func number(of id: String, key: (Int32) -> String) -> Int32? {
        var id = id
        return id.withUTF8 { number(ofBytes: $0, key: key) }
    }

    /// The number recorded for the id of these UTF-8 bytes.
    @inlinable
    public func number(ofBytes bytes: UnsafeBufferPointer<UInt8>, key: (Int32) -> String) -> Int32? {
        var index = Self.hash(bytes) & mask
        while slots[index] >= 0 {
            if Self.matches(bytes, key(slots[index])) { return slots[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    /// FNV-1a, 64 bits, then mixed: ids are short, so a simple byte hash is quicker than SipHash.
    @inlinable
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        // FNV's low bits mix poorly for short ids that differ in their last bytes (`1`, `2`, …):
        // a multiply-xorshift finish spreads them over the slots.
        hash ^= hash >> 32
        hash &*= 0xd6e8_feb8_6659_fd93
        hash ^= hash >> 32
        return Int(truncatingIfNeeded: hash)
    }

    /// Whether `other` has these UTF-8 bytes.
    @inlinable
    public static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ other: String) -> Bool {
        var other = other
        return other.withUTF8 { otherBytes in
            otherBytes.count == bytes.count
                && (bytes.isEmpty || memcmp(bytes.baseAddress!, otherBytes.baseAddress!, bytes.count) == 0)
        }
    }
}
