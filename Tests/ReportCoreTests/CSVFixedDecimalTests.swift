import XCTest
import Writers
@testable import Writers

final class CSVFixedDecimalTests: XCTestCase {
    func testRoundsHalfAwayFromZeroOnTheDecimalValue() {
        XCTAssertEqual(FixedDecimal.string(0.125, places: 2), "0.13")
        XCTAssertEqual(FixedDecimal.string(2.675, places: 2), "2.68")  // binary 2.67499999…
        XCTAssertEqual(FixedDecimal.string(1.005, places: 2), "1.01")  // binary 1.00499999…
        XCTAssertEqual(FixedDecimal.string(-1.005, places: 2), "-1.01")
        XCTAssertEqual(FixedDecimal.string(99.995, places: 2), "100.00")
        XCTAssertEqual(FixedDecimal.string(0.73125, places: 4), "0.7313")
        XCTAssertEqual(FixedDecimal.string(0.5, places: 0), "1")
        XCTAssertEqual(FixedDecimal.string(1.5, places: 0), "2")
        XCTAssertEqual(FixedDecimal.string(2.5, places: 0), "3")
        XCTAssertEqual(FixedDecimal.string(-0.5, places: 0), "-1")
        XCTAssertEqual(FixedDecimal.string(5e-5, places: 4), "0.0001")
        XCTAssertEqual(FixedDecimal.string(4.9999e-5, places: 4), "0.0000")
        XCTAssertEqual(FixedDecimal.string(0.7312, places: 4), "0.7312")
        XCTAssertEqual(FixedDecimal.string(12.5, places: 2), "12.50")
        XCTAssertEqual(FixedDecimal.string(3, places: 0), "3")
    }

    func testZeroNeverShowsASign() {
        XCTAssertEqual(FixedDecimal.string(-0.0, places: 2), "0.00")
        XCTAssertEqual(FixedDecimal.string(-0.001, places: 2), "0.00")
        XCTAssertEqual(FixedDecimal.string(-0.004999, places: 2), "0.00")
        XCTAssertEqual(FixedDecimal.string(-0.005, places: 2), "-0.01")
        XCTAssertEqual(FixedDecimal.string(1e-9, places: 2), "0.00")
        XCTAssertEqual(FixedDecimal.string(-1e-300, places: 4), "0.0000")
        XCTAssertEqual(FixedDecimal.string(0, places: 0), "0")
    }

    func testLargeValuesAndIntegers() {
        XCTAssertEqual(FixedDecimal.string(1e15, places: 2), "1000000000000000.00")
        XCTAssertEqual(FixedDecimal.string(123456789012345678.0, places: 2), "123456789012345680.00")
        XCTAssertEqual(FixedDecimal.string(-1234567.891, places: 2), "-1234567.89")
        XCTAssertEqual(FixedDecimal.string(1e300, places: 0), "1" + String(repeating: "0", count: 300))
        var bytes: [UInt8] = []
        FixedDecimal.append(Int64.min, to: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "-9223372036854775808")
        bytes = []
        FixedDecimal.append(Int64(0), to: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "0")
    }

    func testNonFiniteGivesNothingAndPlacesAreClamped() {
        XCTAssertEqual(FixedDecimal.string(.nan, places: 2), "")
        XCTAssertEqual(FixedDecimal.string(.infinity, places: 2), "")
        XCTAssertEqual(FixedDecimal.string(1.25, places: -3), "1")
        XCTAssertEqual(FixedDecimal.string(0.1, places: 40), "0." + "1" + String(repeating: "0", count: 19))
    }

    /// The fast integer path must give exactly what rounding the shortest decimal text gives.
    func testFastPathAgreesWithDecimalRoundingOnRandomValues() {
        var generator = SplitMix64(seed: 42)
        for index in 0..<100_000 {
            let places = index % 6
            let exponent = Double(Int(generator.next() % 14)) - 6
            let mantissa = Double(generator.next() % 1_000_000_007) / 1_000_000_007 * 2 - 1
            // Every 4th value sits on a decimal tie, where the two roundings differ most often.
            let value =
                index % 4 == 0
                ? (Double(Int64(generator.next() % 2_000_000)) - 1_000_000 + 0.5)
                    / [1.0, 10, 100, 1000, 10_000, 100_000][places]
                : mantissa * pow(10, exponent)
            var fast: [UInt8] = []
            FixedDecimal.append(value, places: places, to: &fast)
            var slow: [UInt8] = []
            FixedDecimal.appendRoundedDecimal(value.magnitude, negative: value < 0, places: places, to: &slow)
            XCTAssertEqual(fast, slow, "value \(value) places \(places)")
            if fast != slow { return }
        }
    }
}

/// A small deterministic generator, so the random test is the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
