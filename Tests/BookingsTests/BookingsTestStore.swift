@_exported import ReportTestSupport
@testable import Bookings

/// The bookings tests' database: a `DomainTestStore` with the bookings schema and importers.
typealias BookingsTestStore = DomainTestStore

extension DomainTestStore {
    convenience init() throws { try self.init(module: BookingsModule.module) }
}
