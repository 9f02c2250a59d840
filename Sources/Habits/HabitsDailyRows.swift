import Time

/// One row of `daily`, decoded.
struct HabitsDailyRow: Sendable, Equatable {
    /// Index into the report's user ids.
    var user: Int
    var day: Day
    var score: Int
    var tasksPlanned: Int
    var tasksDone: Int
    var flows: Int
    var flowsDone: Int
    var focusSeconds: Int64
    var badges: HabitsBadges
    var streak: Int
    var consistency: Double
    var mood: Int?

    var morningLogin: Bool { badges.contains(.morningLogin) }
}

/// The `daily` rows of a whole report, packed (see `HabitsPackedBytes`): user and day as deltas
/// from the previous row, counts as variable-length integers, the consistency as its 8 bytes so
/// that it stays exact. About 20 bytes a row instead of about 100.
struct HabitsDailyRows: Sendable {
    /// 8 variable-length integers of ≤ 10 bytes, 3 bytes, 8 bytes.
    private static let maximumRowSize = 8 * 10 + 3 + 8

    private var bytes = HabitsPackedBytes()
    private var lastUser = 0
    private var lastDay = 0

    var count: Int { bytes.count }

    mutating func append(_ row: HabitsDailyRow) {
        let user = row.user - lastUser
        let day = row.day.ordinal - lastDay
        bytes.append(maximumSize: Self.maximumRowSize) { writer in
            writer.signed(Int64(user))
            writer.signed(Int64(day))
            writer.byte(UInt8(clamping: row.score))
            writer.byte(row.badges.rawValue)
            writer.byte(UInt8(clamping: row.mood ?? 0))
            writer.unsigned(UInt64(max(0, row.tasksPlanned)))
            writer.unsigned(UInt64(max(0, row.tasksDone)))
            writer.unsigned(UInt64(max(0, row.flows)))
            writer.unsigned(UInt64(max(0, row.flowsDone)))
            writer.unsigned(UInt64(max(0, row.streak)))
            writer.unsigned(UInt64(max(0, row.focusSeconds)))
            writer.double(row.consistency)
        }
        lastUser = row.user
        lastDay = row.day.ordinal
    }

    /// The rows in the order they were appended.
    func makeIterator() -> AnyIterator<HabitsDailyRow> {
        var user = 0
        var day = 0
        return bytes.makeIterator { reader in
            user += Int(reader.signed())
            day += Int(reader.signed())
            let score = Int(reader.byte())
            let badges = HabitsBadges(rawValue: reader.byte())
            let mood = Int(reader.byte())
            let planned = Int(reader.unsigned())
            let done = Int(reader.unsigned())
            let flows = Int(reader.unsigned())
            let flowsDone = Int(reader.unsigned())
            let streak = Int(reader.unsigned())
            let focus = Int64(clamping: reader.unsigned())
            return HabitsDailyRow(
                user: user, day: Day(ordinal: day), score: score, tasksPlanned: planned,
                tasksDone: done, flows: flows, flowsDone: flowsDone, focusSeconds: focus,
                badges: badges, streak: streak, consistency: reader.double(),
                mood: mood == 0 ? nil : mood)
        }
    }
}
