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
        String(written.uppercased().filter { !$0.isWhitespace && !dashes.contains($0) })
    }
}
