import Foundation
import JSON
import ReportModel
import Time
import XCTest
@testable import Habits

/// Record builders and report readers for the analysis tests: each fixture is imported through
/// the real importers into a real SQLite file, then analyzed.
extension HabitsTestStore {
    /// After every fixture's records.
    static let asOf = Timestamp("2026-12-01T06:00:00+01:00") ?? Timestamp(seconds: 0)

    func user(_ id: String, timezone: String? = nil) throws {
        try load(.users, ["id": .string(id), "timezone": timezone.map(JSONValue.string) ?? .null])
    }

    /// A task; `terminee` by default, completed at `completedAt` (nil: its `date` is the day).
    func task(
        _ id: String, user: String = "u1", date: String, state: String = "terminee",
        completedAt: String? = nil
    ) throws {
        try load(
            .tasks,
            [
                "id": .string(id), "userId": .string(user), "date": .string(date), "libelle": "Tâche",
                "state": .string(state), "completedAt": completedAt.map(JSONValue.string) ?? .null,
            ])
    }

    /// A flow; `steps` lists each step's `terminee`.
    func flow(
        _ id: String, user: String = "u1", date: String, etat: String = "termine", steps: [Bool] = [],
        contexte: [String]? = nil, estimated: JSONValue = .null, realised: JSONValue = .null,
        streakDay: Int64? = nil, completedAt: String? = nil
    ) throws {
        let etape: [JSONValue] = steps.map { ["libelle": "Étape", "terminee": .bool($0)] }
        try load(
            .flows,
            [
                "id": .string(id), "userId": .string(user), "date": .string(date), "libelleAction": "Flow",
                "etat": .string(etat), "etape": .array(etape),
                "contexte": contexte.map { .array($0.map(JSONValue.string)) } ?? .null,
                "tempsEstime": estimated, "tempsRealise": realised,
                "streakDay": streakDay.map(JSONValue.integer) ?? .null,
                "completedAt": completedAt.map(JSONValue.string) ?? .null,
            ])
    }

    func session(
        _ id: String, user: String = "u1", startedAt: String, total: Int64, remaining: Int64,
        endedAt: String? = nil
    ) throws {
        try load(
            .focusSessions,
            [
                "id": .string(id), "userId": .string(user), "startedAt": .string(startedAt),
                "totalSeconds": .integer(total), "remainingSeconds": .integer(remaining),
                "endedAt": endedAt.map(JSONValue.string) ?? .null,
            ])
    }

    func login(_ user: String = "u1", at: String) throws {
        try load(.logins, ["userId": .string(user), "at": .string(at)])
    }

    func mood(_ user: String = "u1", date: String, mood: Int64) throws {
        try load(.moods, ["userId": .string(user), "date": .string(date), "mood": .integer(mood)])
    }

    func report(from: String, to: String? = nil, user: String? = nil, dayStartMinutes: Int = 0) throws -> Report {
        let first = try XCTUnwrap(Day(from))
        let last = try XCTUnwrap(Day(to ?? from))
        return try HabitsAnalysis.report(
            database: database,
            options: HabitsOptions(
                from: first, to: last, user: user, dayStartMinutes: dayStartMinutes, asOf: Self.asOf))
    }
}

func day(_ text: String) -> Value {
    guard let day = Day(text) else { return .text("invalid day " + text) }
    return .day(day)
}

extension Report {
    func rows(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> [[Value]] {
        guard let table = table(named: name) else {
            XCTFail("no table \(name)", file: file, line: line)
            return []
        }
        return table.rows.all
    }

    /// The `daily` row of a user and day as column name → value (nil when there is no such row).
    func daily(_ user: String, _ dayText: String) -> [String: Value]? {
        guard let table = table(named: "daily") else { return nil }
        let names = table.columns.map(\.name)
        let row = table.rows.all.first { $0[0] == .text(user) && $0[1] == day(dayText) }
        return row.map { Dictionary(uniqueKeysWithValues: zip(names, $0)) }
    }

    /// The `streaks` row of a user as column name → value.
    func streaks(_ user: String) -> [String: Value]? {
        guard let table = table(named: "streaks") else { return nil }
        let names = table.columns.map(\.name)
        return table.rows.all.first { $0[0] == .text(user) }.map { Dictionary(uniqueKeysWithValues: zip(names, $0)) }
    }

    func figure(_ metric: String) -> Value? { figures.first { $0.metric == metric }?.value }

    /// The days and streaks of a user's `daily` rows, in order.
    func streakColumn(_ user: String) -> [String] {
        rows("daily").filter { $0[0] == .text(user) }.map { row in
            guard case .day(let day) = row[1], case .integer(let streak) = row[10] else { return "?" }
            return "\(day) \(streak)"
        }
    }
}

/// Asserts that a numeric value is within `accuracy` of `expected`.
func assertNumber(
    _ value: Value?, _ expected: Double, accuracy: Double = 1e-9,
    file: StaticString = #filePath, line: UInt = #line
) {
    guard let number = value?.doubleValue else {
        XCTFail("not a number: \(String(describing: value))", file: file, line: line)
        return
    }
    XCTAssertEqual(number, expected, accuracy: accuracy, file: file, line: line)
}
