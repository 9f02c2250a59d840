import Foundation

/// Row numbers by id, for hundreds of thousands of ids: open addressing over a power-of-two
/// array of `Int32` (4 bytes a slot, where a `[String: Int32]` takes some 20 and hashes with
/// SipHash). The ids themselves stay with the caller, who gives a number's id back through `key`.
///
/// Ids are hashed and compared by their UTF-8 bytes, as the databases compare text (SQLite's
/// BINARY, PostgreSQL's `COLLATE "C"`), where `String` equality would take two canonically
/// equivalent ids (`é` composed or not) for one.
struct IdentifierTable {
    private var slots: [Int32]
    private let mask: Int

    /// Room for `capacity` ids at a load of one half at most.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    /// Records `number` for `id`; an id already there keeps its number.
    mutating func insert(_ id: String, number: Int32, key: (Int32) -> String) {
        var id = id
        id.withUTF8 { bytes in
            var index = Self.hash(bytes) & mask
            while slots[index] >= 0 {
                if Self.matches(bytes, key(slots[index])) { return }
                index = (index + 1) & mask
            }
            slots[index] = number
        }
    }

    /// The number recorded for `id`.
    func number(of id: String, key: (Int32) -> String) -> Int32? {
        var id = id
        return id.withUTF8 { bytes in
            var index = Self.hash(bytes) & mask
            while slots[index] >= 0 {
                if Self.matches(bytes, key(slots[index])) { return slots[index] }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    /// FNV-1a, 64 bits: ids are short, so a simple byte hash is quicker than SipHash.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ other: String) -> Bool {
        var other = other
        return other.withUTF8 { otherBytes in
            otherBytes.count == bytes.count
                && (bytes.isEmpty || memcmp(bytes.baseAddress!, otherBytes.baseAddress!, bytes.count) == 0)
        }
    }
}
