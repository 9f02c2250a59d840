/// A sum of whole units (cents, seconds, microseconds, metres) that is exact or knows it is not.
///
/// Figures are sums of stored integers, and a sum must never trap (a crash) nor wrap or saturate
/// into a wrong figure (issue 30): additions are checked, and once one overflows `Int64` the total
/// is marked and stays marked. A total is then shown only while its figure, with the places it is
/// printed with, has at most 15 digits (`value(dividedBy:places:)`): there a Double holds it to
/// well under half of the last place, so the digits printed are the exact ones (euros from cents,
/// to the cent, for totals below 10^15 cents = 10 trillion euros; `CheckedTotalTests`). Past that
/// the cell is left empty and the domain reports a `figure_out_of_range` quality row instead.
///
/// Import limits keep real data far below both bounds (docs/RELIABILITY.md, "Limits"); this type
/// is what makes an absurd total visible instead of wrong.
public struct CheckedTotal: Sendable, Equatable {
    /// The sum so far; meaningless once `overflowed`.
    public private(set) var units: Int64 = 0
    /// An addition passed the range of `Int64`.
    public private(set) var overflowed = false

    /// The largest figure shown, in units of its last printed place: 15 digits.
    public static let largestShownDigits: Double = 1e15

    public init() {}

    public init(_ units: Int64) { self.units = units }

    /// A total known to be past `Int64` (a product that overflowed).
    public static var outOfRange: CheckedTotal {
        var total = CheckedTotal()
        total.overflowed = true
        return total
    }

    /// The exact sum, or nil once it overflowed (for ratios, which need no display bound).
    public var exactUnits: Int64? { overflowed ? nil : units }

    /// A total taken from SQL's `TOTAL()` (a double-precision sum) over non-negative integers.
    ///
    /// Every partial sum of non-negative terms is at most the final one, so a final value of at
    /// most 2^53 means that every addition was exact; anything larger is marked as overflowed
    /// rather than trusted.
    public init(sqlTotal value: Double) {
        if value.isFinite, value >= 0, value <= 9_007_199_254_740_992 {
            units = Int64(value)
        } else {
            overflowed = true
        }
    }

    public mutating func add(_ value: Int64) {
        guard !overflowed else { return }
        let (sum, overflow) = units.addingReportingOverflow(value)
        if overflow { overflowed = true } else { units = sum }
    }

    public mutating func add(_ other: CheckedTotal) {
        if other.overflowed { overflowed = true } else { add(other.units) }
    }

    public static func + (left: CheckedTotal, right: CheckedTotal) -> CheckedTotal {
        var sum = left
        sum.add(right)
        return sum
    }

    /// `units / divisor` when it can be shown with `places` decimals to the last digit; nil when
    /// the total overflowed or the figure would need more than 15 digits.
    public func value(dividedBy divisor: Double, places: Int) -> Double? {
        guard !overflowed else { return nil }
        let value = Double(units) / divisor
        var scale = 1.0
        for _ in 0..<max(0, places) { scale *= 10 }
        guard (value * scale).magnitude < Self.largestShownDigits else { return nil }
        return value
    }

    /// Whether `value(dividedBy:places:)` gives a figure.
    public func isShown(dividedBy divisor: Double, places: Int) -> Bool {
        value(dividedBy: divisor, places: places) != nil
    }
}
