@_exported import ReportTestSupport
@testable import Habits

/// The habits tests' database: a `DomainTestStore` with the habits schema and importers.
typealias HabitsTestStore = DomainTestStore

extension DomainTestStore {
    convenience init() throws { try self.init(module: HabitsModule.module) }
}
