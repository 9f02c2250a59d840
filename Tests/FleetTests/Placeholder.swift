import XCTest

final class FleetTestsPlaceholder: XCTestCase {}
