/// What a PostgreSQL import transaction knows of the keys already in one table: whether the table
/// held any row when the transaction first staged rows for it, and which keys it has staged since
/// (a Bloom filter: it may answer "maybe" for a key never staged, never "no" for one that was).
///
/// The merge of a flush deletes the stored rows of the keys it stages before inserting them again
/// (`PostgresRowWriters.swift`). Each row of a staging table says whether its key may already be in
/// the table (`report_stage_known`), and the delete looks for those keys only: into a table that
/// was empty, the rows of a first import probe nothing, however their ids interleave. A "maybe"
/// costs one index probe; the delete is what stays exact. The ids of the fleet and bookings exports
/// are numbers written as text ("1", "10", "100"), whose text order mixes every flush with the
/// earlier ones, so the range probe alone skipped none of their flushes' probes (1.2 s of the
/// bookings profile's import).
///
/// Resetting (`PostgresConnection.resetStagedKeys`) is always safe: the next staged row asks the
/// table again, which then holds rows, so every key counts as known.
final class StagedKeys {
    /// True when the table held no row at the first staged row of the transaction: only then can a
    /// key be known to be new.
    let tableWasEmpty: Bool
    /// 2^24 bits (2 MB), allocated only for a table that was empty: at 1,000,000 keys, one new key
    /// in 500 is a false "maybe".
    private var bits: [UInt64]
    private static let bitCount = 1 << 24

    init(tableWasEmpty: Bool) {
        self.tableWasEmpty = tableWasEmpty
        bits = tableWasEmpty ? [UInt64](repeating: 0, count: StagedKeys.bitCount / 64) : []
    }

    /// Records a staged key; whether the table may hold it already (before this row is merged).
    func stage(_ key: some Sequence<SQLValue>) -> Bool {
        guard tableWasEmpty else { return true }
        let hash = StagedKeys.hash(key)
        // Four positions by double hashing of the two halves of one 64-bit hash.
        let first = UInt32(truncatingIfNeeded: hash)
        let step = UInt32(truncatingIfNeeded: hash >> 32) | 1
        var known = true
        for round in 0..<4 as Range<UInt32> {
            let bit = Int((first &+ round &* step) & UInt32(StagedKeys.bitCount - 1))
            let mask: UInt64 = 1 << UInt64(bit & 63)
            if bits[bit >> 6] & mask == 0 {
                known = false
                bits[bit >> 6] |= mask
            }
        }
        return known
    }

    /// A hash of the key as the server compares it: texts by their bytes up to a NUL (COPY and
    /// bound parameters cut a text there), so two spellings the server takes for one key hash alike.
    static func hash(_ key: some Sequence<SQLValue>) -> UInt64 {
        var hasher = Hasher()
        for value in key {
            switch value {
            case .null: hasher.combine(0 as UInt8)
            case .integer(let number):
                hasher.combine(1 as UInt8)
                hasher.combine(number)
            case .real(let number):
                hasher.combine(2 as UInt8)
                hasher.combine(number == 0 ? 0 : number.bitPattern)
            case .text(var text):
                hasher.combine(3 as UInt8)
                text.withUTF8 { bytes in
                    let count = bytes.firstIndex(of: 0) ?? bytes.count
                    hasher.combine(count)
                    hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<count])))
                }
            }
        }
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }
}
