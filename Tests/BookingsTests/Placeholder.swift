import XCTest

final class BookingsTestsPlaceholder: XCTestCase {}
