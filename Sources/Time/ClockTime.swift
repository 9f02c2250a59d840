/// A local wall-clock time of day, `HH:MM`, as minutes after midnight: the habits `--day-start`
/// option and the app's `HH:MM` fields read it alike.
public enum ClockTime {
    /// `HH:MM` (00–23, 00–59) as minutes after midnight, or nil.
    public static func minutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
        let digits = [bytes[0], bytes[1], bytes[3], bytes[4]].map { Int($0) - 48 }
        guard digits.allSatisfy({ $0 >= 0 && $0 <= 9 }) else { return nil }
        let hours = digits[0] * 10 + digits[1], minutes = digits[2] * 10 + digits[3]
        guard hours <= 23, minutes <= 59 else { return nil }
        return hours * 60 + minutes
    }
}
