/// The member names of the last records, by position: records of one export repeat the same names
/// in the same order, so the name of member `n` of a record is most likely one that member `n` of
/// the records before had. Two names are kept for each position, the last one first: an optional
/// field that some records have shifts the names after it by one place (a task's `contexte`).
///
/// A hit is checked against the buffer's bytes (the name's bytes, then the closing quote) in two
/// word comparisons, where reading a name otherwise runs the string scanner and the short-string
/// cache. Only names of 1 to 15 printable ASCII bytes other than `"` and `\` are remembered, so a
/// match can never let through a byte that the string scanner would have rejected or decoded.
struct JSONNamePredictor {
    static let positions = 32

    private struct Entry {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
        var name = ""
    }

    private var entries = [Entry](repeating: Entry(), count: 2 * positions)

    /// The remembered name of member `position` when the bytes at `start` are that name and its
    /// closing quote, with `available` valid bytes from `start` (sixteen must be readable).
    @inline(__always)
    func match(_ position: Int, at start: UnsafeMutablePointer<UInt8>, available: Int) -> (name: String, count: Int)? {
        guard position < JSONNamePredictor.positions else { return nil }
        return entries.withUnsafeBufferPointer { entries in
            for way in 0..<2 {
                let entry = entries[2 * position + way]
                let count = entry.count
                guard count > 0, available > count, start[count] == 0x22 else { continue }
                let (low, high) = JSONSmallStringCache.words(start, count: count)
                if low == entry.low && high == entry.high { return (entry.name, count) }
            }
            return nil
        }
    }

    /// Remembers `name` as the last name of member `position`, when it is one that can be matched.
    mutating func remember(_ position: Int, _ name: String) {
        guard position < JSONNamePredictor.positions else { return }
        var bytes = name
        let entry: Entry? = bytes.withUTF8 { utf8 in
            guard (1...15).contains(utf8.count) else { return nil }
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return nil }
            var padded: (UInt64, UInt64) = (0, 0)
            let (low, high) = withUnsafeMutableBytes(of: &padded) { padded in
                padded.copyMemory(from: UnsafeRawBufferPointer(utf8))
                return JSONSmallStringCache.words(padded.baseAddress!, count: utf8.count)
            }
            return Entry(low: low, high: high, count: utf8.count, name: name)
        }
        guard let entry else { return }
        entries[2 * position + 1] = entries[2 * position]
        entries[2 * position] = entry
    }
}
