import XCTest

final class HabitsTestsPlaceholder: XCTestCase {}
