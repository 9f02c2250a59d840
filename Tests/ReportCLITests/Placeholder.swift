import XCTest

final class ReportCLITestsPlaceholder: XCTestCase {}
