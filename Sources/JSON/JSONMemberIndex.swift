/// Where to look first for a member name in one object: for each name length modulo 16, the first
/// member whose name has a length in that class.
///
/// A kind looks up each of its fields once per record, most of them present; a linear scan costs a
/// comparison per member before the one looked for (and the whole list for an absent field), and
/// issue 13's profile had that scan at 8 % of parse + validate. With the index a lookup is one
/// comparison when the record's names have lengths in different classes (a task's eight do), and an
/// absent name whose class is empty costs none.
///
/// Always the same answer as `JSONObject`'s subscript: the first member of a class that has the
/// name is the first member with that name, since an earlier one with the same name would have the
/// same length; when the first of the class has another name, the lookup scans from there.
public struct JSONMemberIndex: Sendable {
    /// Sixteen one-byte slots in two words: 0 for an empty class, else the member's index + 1.
    private let low: UInt64
    private let high: UInt64
    /// Objects of more than 255 members are only scanned.
    private let scanOnly: Bool
    /// Whether all names have different lengths below 64 bytes, which rules out a repeated name.
    public let lengthsDiffer: Bool

    public init(_ members: [JSONObject.Member]) {
        scanOnly = members.count > 255
        var lengths: UInt64 = 0
        var repeated = false
        var filled: UInt64 = 0
        var low: UInt64 = 0, high: UInt64 = 0
        members.withUnsafeBufferPointer { members in
            for index in members.indices {
                let count = members[index].key.utf8.count
                let bit: UInt64 = count < 64 ? 1 << UInt64(count) : 0
                repeated = repeated || bit == 0 || lengths & bit != 0
                lengths |= bit
                let slot = UInt64(count & 15)
                if filled & (1 << slot) == 0 && index < 255 {
                    filled |= 1 << slot
                    let value = UInt64(index + 1) << ((slot & 7) * 8)
                    if slot < 8 { low |= value } else { high |= value }
                }
            }
        }
        self.low = low
        self.high = high
        lengthsDiffer = !repeated
    }

    @inline(__always)
    private static func slot(_ slot: Int, _ low: UInt64, _ high: UInt64) -> Int {
        let word = slot < 8 ? low : high
        return Int(truncatingIfNeeded: (word >> UInt64((slot & 7) * 8)) & 0xFF)
    }

    /// The value of the first member named `key`, byte for byte, as `object[key]` finds it.
    @inline(__always)
    public func value(of key: String, in object: JSONObject) -> JSONValue? {
        if scanOnly { return object[key] }
        let first = JSONMemberIndex.slot(key.utf8.count & 15, low, high)
        if first == 0 { return nil }
        return object.members.withUnsafeBufferPointer { members in
            for index in (first - 1)..<members.count where JSONObject.sameName(members[index].key, key) {
                return members[index].value
            }
            return nil
        }
    }
}
