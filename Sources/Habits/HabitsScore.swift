/// A sum of non-negative fractions kept exact in 64-bit integers, with a floating-point shadow
/// used only if the exact value would overflow.
///
/// Why: the score rounds half up, so 40·T + 30·F + 20·C + 10·M must land on exactly x.5 when the
/// real value does; a sum of thirds and fifteenths that is exactly x.5 can come out a hair below
/// it in binary floating point.
/// Realistic data (a few flows with a handful of steps) never leaves the exact path; pathological
/// step counts whose common denominator passes 2⁶³ fall back to the double, rounded with a
/// tolerance of 10⁻⁹.
struct ExactSum: Sendable, Equatable {
    private(set) var numerator: Int64 = 0
    private(set) var denominator: Int64 = 1
    private(set) var approximate: Double = 0
    private(set) var isExact = true

    /// Adds `factor · numerator / denominator` (denominator > 0, numerator ≥ 0).
    mutating func add(_ numerator: Int64, over denominator: Int64, times factor: Int64 = 1) {
        guard denominator > 0 else { return }
        approximate += Double(factor) * Double(numerator) / Double(denominator)
        guard isExact else { return }
        let common = ExactSum.gcd(numerator, denominator)
        let reducedNumerator = numerator / common
        let reducedDenominator = denominator / common
        let (scaled, overflowScale) = reducedNumerator.multipliedReportingOverflow(by: factor)
        let (left, overflowLeft) = self.numerator.multipliedReportingOverflow(by: reducedDenominator)
        let (right, overflowRight) = scaled.multipliedReportingOverflow(by: self.denominator)
        let (sum, overflowSum) = left.addingReportingOverflow(right)
        let (product, overflowProduct) = self.denominator.multipliedReportingOverflow(by: reducedDenominator)
        guard !(overflowScale || overflowLeft || overflowRight || overflowSum || overflowProduct) else {
            isExact = false
            return
        }
        let divisor = ExactSum.gcd(sum, product)
        self.numerator = sum / divisor
        self.denominator = product / divisor
    }

    mutating func add(_ other: ExactSum, times factor: Int64 = 1) {
        if other.isExact {
            add(other.numerator, over: other.denominator, times: factor)
        } else {
            isExact = false
            approximate += Double(factor) * other.approximate
        }
    }

    /// The value divided by a positive integer.
    func divided(by divisor: Int64) -> ExactSum {
        var result = ExactSum()
        guard divisor > 0 else { return result }
        if isExact {
            let (denominator, overflow) = self.denominator.multipliedReportingOverflow(by: divisor)
            if !overflow {
                result.add(numerator, over: denominator)
                return result
            }
        }
        result.isExact = false
        result.approximate = approximate / Double(divisor)
        return result
    }

    /// Round half up: ⌊x + ½⌋, exactly on the exact path (no overflow: q + (2r ≥ d)).
    func roundedHalfUp() -> Int64 {
        if isExact {
            let quotient = numerator / denominator
            let remainder = numerator % denominator
            return quotient + (remainder >= denominator - remainder ? 1 : 0)
        }
        return Int64((approximate + 0.5 + 1e-9).rounded(.down))
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : Int64(x)
    }
}

/// The daily score (SPEC §3): round half up of 40·T + 30·F + 20·C + 10·M.
enum HabitsScore {
    /// - Parameters:
    ///   - flowProgress: Σ over the flows dated on the day of (1 if `termine`, else done/total steps).
    ///   - focusSeconds: Σ (totalSeconds − remainingSeconds) of the sessions started on the day.
    static func score(
        tasksPlanned: Int, tasksDone: Int, flows: Int, flowProgress: ExactSum,
        focusSeconds: Int64, morningLogin: Bool
    ) -> Int {
        var value = ExactSum()
        // T = min(1, done / planned), or 1 when something was done without a plan.
        if tasksPlanned > 0 {
            value.add(Int64(min(tasksDone, tasksPlanned)), over: Int64(tasksPlanned), times: 40)
        } else if tasksDone > 0 {
            value.add(1, over: 1, times: 40)
        }
        // F = the mean completion of the day's flows.
        if flows > 0 { value.add(flowProgress.divided(by: Int64(flows)), times: 30) }
        // C = min(1, minutes / 25) = min(1500, seconds) / 1500, from the unrounded minutes.
        value.add(min(max(focusSeconds, 0), 1500), over: 1500, times: 20)
        if morningLogin { value.add(1, over: 1, times: 10) }
        return Int(min(100, max(0, value.roundedHalfUp())))
    }
}
