import Foundation

/// Random passwords for the leak tests (issue 30): drawn from all printable ASCII and some UTF-8,
/// from a seeded generator so that a failure reproduces; and the ways to write them.
struct PasswordGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    static let wide: [Character] = ["é", "ß", "Ω", "ñ", "雪", "😀"]

    /// 6 to 15 characters: printable ASCII (space to `~`), one in eight from `wide`.
    mutating func password() -> String {
        var text = ""
        for _ in 0..<(6 + below(10)) {
            if below(8) == 0 {
                text.append(Self.wide[below(Self.wide.count)])
            } else {
                text.append(Character(Unicode.Scalar(UInt8(0x20 + below(95)))))
            }
        }
        return text
    }
}

enum PasswordForms {
    /// Every byte but the unreserved ones as `%XX`: the password written correctly in a URL.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-._~".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// A keyword/value string's quoted value: `'…'` with `\` and `'` escaped.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// The same password with every letter, digit and wide character replaced by another of its
    /// kind, every other character kept: a URL written with it splits the same way, so a message
    /// made from it has the same shape. A 3-character piece of the password that shows in a message
    /// but not in the other password's message came from the password, not from the tool's words.
    static func sameShape(_ text: String) -> String {
        String(
            text.map { character -> Character in
                guard let ascii = character.asciiValue else {
                    let index = PasswordGenerator.wide.firstIndex(of: character) ?? 0
                    return PasswordGenerator.wide[(index + 1) % PasswordGenerator.wide.count]
                }
                switch ascii {
                case 0x61...0x7A: return Character(Unicode.Scalar((ascii - 0x61 + 7) % 26 + 0x61))
                case 0x41...0x5A: return Character(Unicode.Scalar((ascii - 0x41 + 7) % 26 + 0x41))
                case 0x30...0x39: return Character(Unicode.Scalar((ascii - 0x30 + 5) % 10 + 0x30))
                default: return character
                }
            })
    }

    /// The 3-character pieces of a password.
    static func pieces(_ text: String) -> Set<String> {
        let characters = Array(text)
        guard characters.count >= 3 else { return [] }
        return Set((0...(characters.count - 3)).map { String(characters[$0..<$0 + 3]) })
    }

    /// The pieces of `password` that `output` shows and `baseline` (the same run with the
    /// same-shape password) does not: what leaked.
    static func leaked(_ password: String, in output: String, baseline: String) -> [String] {
        pieces(password).filter { output.contains($0) && !baseline.contains($0) }.sorted()
    }
}
