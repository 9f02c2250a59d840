/// A record id as the exports write it: a JSON string or a JSON integer (SPEC §1: both are text).
enum RecordID: Sendable, Hashable {
    case text(String)
    case number(Int)

    /// The id as text, as the importer keeps it.
    var text: String {
        switch self {
        case .text(let value): value
        case .number(let value): String(value)
        }
    }

    /// The same id written the other way (`1042` ↔ `"1042"`), as different app versions do.
    var otherSpelling: RecordID {
        switch self {
        case .text(let value): Int(value).map(RecordID.number) ?? self
        case .number(let value): .text(String(value))
        }
    }
}

extension JSONWriter {
    func id(_ value: RecordID) throws {
        switch value {
        case .text(let text): try string(text)
        case .number(let number): try int(number)
        }
    }
}

enum Identifiers {
    /// `prefix` then the number zero-padded to `width` digits: `task-000123456`.
    static func sequential(_ prefix: String, _ number: Int, width: Int) -> String {
        let digits = String(number)
        let padding = width > digits.count ? String(repeating: "0", count: width - digits.count) : ""
        return prefix + padding + digits
    }

    /// An upper-case version-4 UUID drawn from the seeded generator, as iOS `UUID().uuidString` prints.
    static func uuid(_ random: inout SeededRandom) -> String {
        let high = random.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        for index in 0..<32 {
            let word = index < 16 ? high : low
            let shift = UInt64(60 - 4 * (index % 16))
            let nibble = Int((word >> shift) & 15)
            if index == 8 || index == 12 || index == 16 || index == 20 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(hex[nibble])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
