import XCTest
@testable import Fleet

/// The precomputed sort key gives `IdentifierOrder`'s answer for every pair of awkward ids.
final class IdentifierSortKeyTests: XCTestCase {
    func testTheKeyOrdersEveryPairAsIdentifierOrderDoes() {
        let ids = [
            "", "0", "00", "1", "01", "001", "2", "10", "010", "9", "99", "100", "a", "A", "a1", "a10", "a2",
            "é", "e", "ab", "abc", "ab\u{0}", "A-17", "a-17", "12345678901234567890", "012345678901234567890", "1a",
        ]
        for left in ids {
            for right in ids {
                XCTAssertEqual(
                    IdentifierSortKey.precedes(IdentifierSortKey(left), IdentifierSortKey(right)),
                    IdentifierOrder.precedes(left, right), "\(left) vs \(right)")
            }
        }
        let sorted = ids.map(IdentifierSortKey.init).indices.sorted {
            IdentifierSortKey.precedes(IdentifierSortKey(ids[$0]), IdentifierSortKey(ids[$1]))
        }.map { ids[$0] }
        XCTAssertEqual(Array(sorted.prefix(6)), ["0", "00", "001", "01", "1", "2"])
    }
}
