/// A vehicle's identity: its licence plate compared after upper-casing and removing spaces and
/// dashes (SPEC §1.3), so that `ab-123-cd`, `AB 123 CD` and `AB123CD` are one car.
///
/// Any Unicode white space and the common dash characters (hyphen-minus, hyphen, non-breaking
/// hyphen, figure dash, en and em dashes, minus sign) count as spaces and dashes: agents type
/// plates on an iPad whose keyboard substitutes some of them.
public enum Plate {
    static let dashes: Set<Character> = ["-", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}"]

    /// The vehicle key of a plate as written; empty when nothing but spaces and dashes was written.
    public static func normalized(_ written: String) -> String {
        if let ascii = normalizedASCII(written) { return ascii }
        return String(written.uppercased().filter { !$0.isWhitespace && !dashes.contains($0) })
    }

    /// The same for a plate written in ASCII (nearly all of them), byte by byte: there the white
    /// space is tab, line feed, vertical tab, form feed, carriage return and space, the one dash
    /// is `-`, and upper-casing changes `a`–`z` only. Nil for anything else.
    static func normalizedASCII(_ written: String) -> String? {
        var written = written
        return written.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                var at = 0
                for byte in bytes where !isASCIISpaceOrDash(byte) {
                    buffer[at] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
                    at += 1
                }
                return at
            }
        }
    }

    private static func isASCIISpaceOrDash(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") || (byte >= 0x09 && byte <= 0x0D)
    }
}
