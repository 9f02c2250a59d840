/// Short strings made once and handed out again: member names, states, dates, tags.
///
/// Export records repeat the same short strings (every task has `"userId"`, `"state"`,
/// `"terminee"`…), and making a `String` costs far more than recognising bytes already seen: the
/// standard library validates the bytes again and builds the value through several calls. A string
/// of up to 15 bytes is a Swift small string (held inline, no allocation), and its bytes fit in two
/// words, so a direct-mapped table keyed by those words is exact: a hit means the very same bytes,
/// already validated, and costs a hash and three comparisons.
struct JSONSmallStringCache {
    static let maximumCount = 15
    private static let slotBits = 8

    private struct Entry {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
        var string = ""
    }

    private var entries = [Entry](repeating: Entry(), count: 1 << slotBits)

    /// The string of the `count` (1…15) bytes at `start`, which have been validated as UTF-8.
    /// Sixteen bytes from `start` must be readable (the reader's buffer has padding for this);
    /// those past `count` are ignored.
    @inline(__always)
    mutating func string(at start: UnsafeMutablePointer<UInt8>, count: Int) -> String {
        let (low, high) = JSONSmallStringCache.words(start, count: count)
        let mixed = (low &* 0x9E37_79B9_7F4A_7C15) ^ ((high &+ UInt64(count)) &* 0xC2B2_AE3D_27D4_EB4F)
        let slot = Int(truncatingIfNeeded: mixed >> (64 - UInt64(JSONSmallStringCache.slotBits)))
        if entries[slot].count == count && entries[slot].low == low && entries[slot].high == high {
            return entries[slot].string
        }
        let string = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        entries[slot] = Entry(low: low, high: high, count: count, string: string)
        return string
    }

    /// The `count` (1…15) bytes at `start` as two words, the bytes past `count` zeroed: equal
    /// words, equal bytes. Sixteen bytes from `start` must be readable.
    @inline(__always)
    static func words(_ start: UnsafeRawPointer, count: Int) -> (low: UInt64, high: UInt64) {
        let first = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
        let second = UInt64(littleEndian: (start + 8).loadUnaligned(as: UInt64.self))
        if count >= 8 {
            return (first, count == 8 ? 0 : second & (UInt64.max >> (128 - 8 * UInt64(count))))
        }
        return (first & (UInt64.max >> (64 - 8 * UInt64(count))), 0)
    }
}
