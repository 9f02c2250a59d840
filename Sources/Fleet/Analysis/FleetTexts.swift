import Foundation
import Store

/// An id compared and hashed by its UTF-8 bytes, as the databases compare text (SQLite's BINARY,
/// PostgreSQL's `COLLATE "C"`), where `String` equality would take two canonically equivalent
/// ids (`é` composed or not) for one.
struct ByteIdentifier: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (left: ByteIdentifier, right: ByteIdentifier) -> Bool {
        var left = left.text, right = right.text
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                leftBytes.count == rightBytes.count
                    && (leftBytes.isEmpty
                        || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// Texts that repeat from row to row, each held once and named by a number (`Interned.none` for
/// no text), interned from a column's bytes: a `String` is made once per distinct text, not per
/// row. Rows come by plate, so a column's text is most often the one of the row before: that is
/// checked first, without hashing.
struct TextTable {
    private var texts: [String] = []
    private var numbers = IdentifierTable(capacity: 1024)
    /// The number of each column's last text (`Interned.none`: none yet).
    private var previous = [Int32](repeating: Interned.none, count: 5)

    /// The number of the text in `column` of the statement's row (nil: `Interned.none`); `slot`
    /// names the column among the interned ones (0 to 4), for the comparison with the row before.
    mutating func number(_ statement: Statement, column: Int, slot: Int) -> Int32 {
        if statement.isNull(column) { return Interned.none }
        return statement.withText(column) { bytes in
            let last = previous[slot]
            if last != Interned.none, IdentifierTable.matches(bytes, texts[Int(last)]) { return last }
            let number: Int32
            if let known = numbers.number(ofBytes: bytes, key: { texts[Int($0)] }) {
                number = known
            } else {
                let text = String(decoding: bytes, as: UTF8.self)
                number = Int32(texts.count)
                texts.append(text)
                numbers.insert(text, number: number) { texts[Int($0)] }
            }
            previous[slot] = number
            return number
        }
    }

    func text(_ number: Int32) -> String? { number == Interned.none ? nil : texts[Int(number)] }
}
