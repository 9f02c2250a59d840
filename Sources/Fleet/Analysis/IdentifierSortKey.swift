import Foundation

/// `IdentifierOrder` made once per id, for sorting hundreds of thousands of them: the
/// comparison of two keys is two byte-wise `memcmp`s at most, where `IdentifierOrder.precedes`
/// scans both ids for digits and walks their UTF-8 views on every one of the n·log n comparisons
/// (a second of the 300,000-assignment report went there).
struct IdentifierSortKey {
    private let isDigits: Bool
    /// The digits without leading zeros (digit ids only): shorter is smaller.
    private let value: [UInt8]
    private let bytes: [UInt8]

    init(_ id: String) {
        bytes = Array(id.utf8)
        isDigits = IdentifierOrder.isDigits(id)
        value = isDigits ? Array(bytes.drop { $0 == UInt8(ascii: "0") }) : []
    }

    /// The same answer as `IdentifierOrder.precedes(left, right)`.
    static func precedes(_ left: IdentifierSortKey, _ right: IdentifierSortKey) -> Bool {
        if left.isDigits != right.isDigits { return left.isDigits }
        if left.isDigits {
            if left.value.count != right.value.count { return left.value.count < right.value.count }
            let order = compare(left.value, right.value)
            if order != 0 { return order < 0 }
        }
        return compare(left.bytes, right.bytes) < 0
    }

    /// memcmp over the common length, then the shorter first (byte-wise lexicographic order).
    private static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        let common = min(left.count, right.count)
        let order = left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in common == 0 ? 0 : Int(memcmp(l.baseAddress!, r.baseAddress!, common)) }
        }
        return order != 0 ? order : left.count - right.count
    }
}
