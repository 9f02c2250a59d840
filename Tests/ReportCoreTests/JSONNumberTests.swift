import XCTest

/// Decimal numbers: the reader's fast conversion must give exactly what the C library's correctly
/// rounded strtod gives (through `Double(String)`), bit for bit.
final class JSONNumberTests: XCTestCase {
    private func assertSameAsStrtod(_ literals: [String], file: StaticString = #filePath, line: UInt = #line) {
        let outcome = readJSON("[" + literals.joined(separator: ",") + "]", file: file, line: line)
        XCTAssertEqual(outcome.ending, .end, file: file, line: line)
        XCTAssertEqual(outcome.values.count, literals.count, file: file, line: line)
        for (literal, value) in zip(literals, outcome.values) {
            guard case .number(let number, let written) = value, let expected = Double(literal) else {
                XCTFail("\(literal) read as \(value)", file: file, line: line)
                continue
            }
            XCTAssertEqual(written, literal, file: file, line: line)
            XCTAssertEqual(
                number.bitPattern, expected.bitPattern, "\(literal): \(number) instead of \(expected)",
                file: file, line: line)
        }
    }

    func testBoundariesOfTheFastPath() {
        assertSameAsStrtod([
            "0.1", "0.2", "0.3", "-0.0", "0.0", "1.0", "4.0", "1e22", "1e23", "1e-22", "1e-23",
            "9007199254740992.0", "9007199254740993.0", "9007199254740993e0", "18446744073709551615.5",
            "1.7976931348623157e308", "2.2250738585072014e-308", "4.9e-324", "123456789012345678901234567890.0",
            "0.000000000000000000000000000001", "3.141592653589793238462643383279", "12.50", "399.99",
            "1E5", "1e+5", "1e-5", "-2.5E-3", "5e-324", "1e400", "-1e400", "1e-400",
            "0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001e100",
        ])
    }

    func testRandomDecimalsMatchStrtod() {
        var generator = SplitMix(seed: 0x5EED)
        var literals: [String] = []
        for _ in 0..<5_000 {
            var literal = generator.next() % 4 == 0 ? "-" : ""
            literal += String(generator.next() % 100_000_000)
            literal += "." + String(generator.next() % 1_000_000_000_000_000_000)
            if generator.next() % 2 == 0 {
                literal += "e" + String(Int(generator.next() % 61) - 30)
            }
            literals.append(literal)
        }
        // Short decimals like the signature points of a fleet export.
        for _ in 0..<2_000 {
            literals.append(String(generator.next() % 400) + "." + String(generator.next() % 100))
        }
        let outcome = readJSONWithEveryBuffer(Array(("[" + literals.joined(separator: ",") + "]").utf8))
        XCTAssertEqual(outcome.values.count, literals.count)
        for (literal, value) in zip(literals, outcome.values) {
            guard case .number(let number, _) = value, let expected = Double(literal) else {
                XCTFail("\(literal) read as \(value)")
                continue
            }
            XCTAssertEqual(number.bitPattern, expected.bitPattern, literal)
        }
    }
}

/// A small deterministic generator, so that a failure can be reproduced.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
