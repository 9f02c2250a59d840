/// Locale-independent fixed-point text for numbers: `0.7312`, `12.50`, `-3`.
///
/// Rounds half away from zero on the number's *decimal* value, the shortest decimal that reads
/// back as the same Double (what Swift prints): 2.675 is stored as 2.67499999999999982236431605997495353221893310546875
/// but shows as `2.68`, as a person checking the CSV by hand expects; `String(format: "%.2f")`
/// would print `2.67`. A value that rounds to zero never shows a sign (`-0.0`, `-0.001` → `0.00`).
///
/// Fast path: the value is scaled to an integer in Double arithmetic; when the fraction is clearly
/// away from one half (by far more than the scaling and shortest-decimal errors, both below
/// 2.3e-16 of the value) that integer is the answer. Near a tie, or for values too large for the
/// fast path, the shortest decimal digits are rounded as text. Non-finite values give no text.
public enum FixedDecimal {
    /// The most places shown; more are clamped (a Double has at most 17 significant digits).
    public static let maximumPlaces = 20

    public static func string(_ value: Double, places: Int) -> String {
        var bytes: [UInt8] = []
        append(value, places: places, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` rounded to `maximumPlaces` decimals, without trailing zeros or a lone point:
    /// `18962`, `12.5` (a `ColumnType.measure`).
    public static func appendTrimmed(_ value: Double, maximumPlaces: Int, to output: inout [UInt8]) {
        let start = output.count
        append(value, places: maximumPlaces, to: &output)
        guard output[start...].contains(UInt8(ascii: ".")) else { return }
        while output.last == UInt8(ascii: "0") { output.removeLast() }
        if output.last == UInt8(ascii: ".") { output.removeLast() }
    }

    public static func trimmedString(_ value: Double, maximumPlaces: Int) -> String {
        var bytes: [UInt8] = []
        appendTrimmed(value, maximumPlaces: maximumPlaces, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the ASCII text of `value` with exactly `places` decimals (nothing when not finite).
    public static func append(_ value: Double, places: Int, to output: inout [UInt8]) {
        guard value.isFinite else { return }
        let places = min(max(places, 0), maximumPlaces)
        let magnitude = value.magnitude
        if places < powersOfTen.count {
            let scaled = magnitude * powersOfTen[places]
            if scaled < 1e15 {
                let whole = scaled.rounded(.down)
                let fraction = scaled - whole
                if (fraction - 0.5).magnitude > max(scaled, 1) * 1e-13 {
                    let integer = UInt64(whole) + (fraction > 0.5 ? 1 : 0)
                    appendFixed(integer, negative: value < 0, places: places, to: &output)
                    return
                }
            }
        }
        appendRoundedDecimal(magnitude, negative: value < 0, places: places, to: &output)
    }

    /// Appends an integer in plain decimal (`-42`).
    @inline(__always)
    public static func append(_ value: Int64, to output: inout [UInt8]) {
        appendFixed(value.magnitude, negative: value < 0, places: 0, to: &output)
    }

    private static let powersOfTen: [Double] = (0...15).map { power in
        (0..<power).reduce(1.0) { result, _ in result * 10 }
    }

    /// `integer / 10^places` as text: digits, then a `.` before the last `places` digits,
    /// zero-padded so there is always a digit before the point. Built backwards in a stack buffer
    /// and appended once (this runs for most cells of a large CSV).
    @inline(__always)
    private static func appendFixed(_ integer: UInt64, negative: Bool, places: Int, to output: inout [UInt8]) {
        // 20 digits of UInt64.max, up to 20 zero places, a point and a sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            var index = buffer.count
            var value = integer
            var written = 0
            while value > 0 || written < places + 1 {
                if places > 0 && written == places {
                    index -= 1
                    buffer[index] = UInt8(ascii: ".")
                }
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
                written += 1
            }
            if negative && integer != 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// The slow path: rounds the shortest decimal digits of `magnitude` at `places` as text.
    static func appendRoundedDecimal(
        _ magnitude: Double, negative: Bool, places: Int,
        to output: inout [UInt8]
    ) {
        let (digits, pointPosition) = shortestDigits(magnitude)
        // magnitude = 0.d₀d₁d₂… × 10^pointPosition; keep `kept` digits before the scaled point.
        let kept = pointPosition + places
        var integerDigits: [UInt8] = []
        if kept >= 0 {
            for index in 0..<kept { integerDigits.append(index < digits.count ? digits[index] : 0) }
            if kept < digits.count && digits[kept] >= 5 {
                var index = integerDigits.count - 1
                while index >= 0 && integerDigits[index] == 9 { integerDigits[index] = 0; index -= 1 }
                if index >= 0 { integerDigits[index] += 1 } else { integerDigits.insert(1, at: 0) }
            }
        }
        while integerDigits.count > 1 && integerDigits[0] == 0 { integerDigits.removeFirst() }
        let isZero = integerDigits.allSatisfy { $0 == 0 }
        if negative && !isZero { output.append(UInt8(ascii: "-")) }
        if integerDigits.count < places + 1 {
            integerDigits.insert(contentsOf: repeatElement(0, count: places + 1 - integerDigits.count), at: 0)
        }
        for (index, digit) in integerDigits.enumerated() {
            if places > 0 && index == integerDigits.count - places { output.append(UInt8(ascii: ".")) }
            output.append(UInt8(ascii: "0") + digit)
        }
    }

    /// The significant digits of Swift's shortest round-trip text (`2.675`, `1e-09`,
    /// `1.2345678901234568e+17`) and the position of the decimal point before the first digit.
    static func shortestDigits(_ magnitude: Double) -> (digits: [UInt8], pointPosition: Int) {
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in magnitude.description.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                } else {
                    digits.append(byte - UInt8(ascii: "0"))
                }
            case UInt8(ascii: "."): pointPosition = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                if pointPosition == nil { pointPosition = digits.count }
                inExponent = true
            case UInt8(ascii: "-"): exponentSign = -1
            default: break
            }
        }
        var position = (pointPosition ?? digits.count) + exponentSign * exponent
        while let first = digits.first, first == 0, digits.count > 1 { digits.removeFirst(); position -= 1 }
        return (digits, position)
    }
}
