import XCTest

final class ReportCoreTestsPlaceholder: XCTestCase {}
