import Store
import XCTest

/// The plan Citus makes for a query of `report`, read with `EXPLAIN` through the store (the
/// query's `?` parameters bound to `parameters`), for the tests that show where a query runs.
public enum CitusPlan {
    /// Skips the test outside the Citus pass.
    public static func requireCitus() throws {
        guard TestStore.isCitus else { throw XCTSkip("the Citus pass only (REPORT_TEST_BACKEND=citus)") }
    }

    /// The lines of `EXPLAIN sql`, joined by newlines.
    public static func explain(_ database: Database, _ sql: String, _ parameters: [SQLValue]) throws -> String {
        try database.rows("EXPLAIN " + sql, parameters).compactMap { $0.first?.string }.joined(separator: "\n")
    }

    /// How many tasks (shards) the distributed plan runs: 1 for a router query.
    public static func taskCount(_ plan: String) -> Int? {
        guard let line = plan.split(separator: "\n").first(where: { $0.contains("Task Count: ") }),
            let count = line.split(separator: ":").last.map({ $0.trimmingCharacters(in: .whitespaces) })
        else { return nil }
        return Int(count)
    }

    /// The plan runs on the workers whole: no part of it is computed first and shipped to the
    /// coordinator (`Distributed Subplan`), and no rows are moved between workers (`repartition`).
    public static func isPushedDownWhole(_ plan: String) -> Bool {
        plan.contains("Custom Scan (Citus Adaptive)") && !plan.contains("Distributed Subplan")
            && !plan.lowercased().contains("repartition")
    }
}
