import ReportModel
import Writers
import XCTest

/// `CheckedTotal` (issue 30): sums never trap, wrap or saturate, and a total is shown only where
/// the printed digits are the exact ones.
final class CheckedTotalTests: XCTestCase {
    /// The exact decimal text of `cents` / 100, from integers alone.
    private func euros(_ cents: Int64) -> String {
        let whole = cents / 100, fraction = cents % 100
        return "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    func testEveryTotalShownPrintsItsExactCents() {
        var generator = SystemRandomNumberGenerator()
        var samples: [Int64] = [0, 1, 99, 100, 450_359_962_737_049, 999_999_999_999_999, 999_999_999_999_995]
        for _ in 0..<20_000 { samples.append(Int64.random(in: 0..<1_000_000_000_000_000, using: &generator)) }
        for exponent in 3...15 {
            let power = (0..<exponent).reduce(Int64(1)) { result, _ in result * 10 }
            samples += [power - 1, power - 5, power - 50, power + 5 < 1_000_000_000_000_000 ? power + 5 : 0]
        }
        for cents in samples {
            let total = CheckedTotal(cents)
            guard let value = total.value(dividedBy: 100, places: 2) else {
                XCTFail("\(cents) cents is below 10^15 and must be shown")
                continue
            }
            XCTAssertEqual(FixedDecimal.string(value, places: 2), euros(cents), "\(cents) cents")
        }
        XCTAssertNil(CheckedTotal(1_000_000_000_000_000).value(dividedBy: 100, places: 2), "16 digits: not shown")
        XCTAssertNil(CheckedTotal(-1_000_000_000_000_000).value(dividedBy: 100, places: 2))
    }

    func testAnOverflowIsKeptAndNeverWrapsOrSaturates() {
        var total = CheckedTotal()
        total.add(Int64.max)
        XCTAssertFalse(total.overflowed)
        XCTAssertEqual(total.exactUnits, Int64.max)
        XCTAssertNil(total.value(dividedBy: 100, places: 2), "exact, but too many digits to show")
        total.add(Int64.max)
        XCTAssertTrue(total.overflowed)
        XCTAssertNil(total.exactUnits)
        total.add(-Int64.max)  // coming back below the limit does not make the total right again
        XCTAssertTrue(total.overflowed)
        XCTAssertNil(total.value(dividedBy: 1, places: 0))

        var other = CheckedTotal(5)
        other.add(.outOfRange)
        XCTAssertTrue(other.overflowed)
        XCTAssertEqual((CheckedTotal(2) + CheckedTotal(3)).exactUnits, 5)
    }

    /// SQL's TOTAL() is a double: exact over non-negative integers while it stays at most 2^53.
    func testASQLTotalIsTrustedOnlyWhereADoubleIsExact() {
        XCTAssertEqual(CheckedTotal(sqlTotal: 9_007_199_254_740_992).exactUnits, 9_007_199_254_740_992)
        XCTAssertTrue(CheckedTotal(sqlTotal: 9_007_199_254_740_994).overflowed)
        XCTAssertTrue(CheckedTotal(sqlTotal: .infinity).overflowed)
        XCTAssertTrue(CheckedTotal(sqlTotal: -1).overflowed)
        XCTAssertEqual(CheckedTotal(sqlTotal: 12_345).exactUnits, 12_345)
    }
}
