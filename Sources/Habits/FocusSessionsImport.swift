import Import
import Store
import Time

/// A valid `focus_sessions` record (SPEC §1.1): one Pomodoro, `remainingSeconds` left of `totalSeconds`.
public struct FocusSessionRecord: Sendable, Equatable {
    public let id: String
    public let userId: String
    public let startedAt: Timestamp
    /// > 0.
    public let totalSeconds: Int64
    /// 0…totalSeconds.
    public let remainingSeconds: Int64
    public let endedAt: Timestamp?

    /// Validates every field and that the remaining time fits in the total, throwing at the first problem.
    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let userId = try reader.id("userId")
        let startedAt = try reader.timestamp("startedAt")
        let totalSeconds = try reader.integer("totalSeconds", HabitsLimits.sessionSeconds)
        let remainingSeconds = try reader.integer("remainingSeconds", 0...HabitsLimits.sessionSeconds.upperBound)
        guard remainingSeconds <= totalSeconds else {
            throw reader.fail(
                "remainingSeconds", reader.value("remainingSeconds") ?? .null,
                "must be an integer from 0 to totalSeconds (\(totalSeconds))")
        }
        let endedAt = try reader.optionalTimestamp("endedAt")
        self.id = id
        self.userId = userId
        self.startedAt = startedAt
        self.totalSeconds = totalSeconds
        self.remainingSeconds = remainingSeconds
        self.endedAt = endedAt
    }
}

/// Upserts `focus_sessions` records by id.
public final class FocusSessionsImporter: KindImporter {
    private let upsert: UpsertWriter
    private let cache: HabitsStreakStateInvalidation
    private let users: HabitsRecordUsers

    public init(database: Database) throws {
        cache = HabitsStreakStateInvalidation(database: database, kind: .focusSessions)
        users = try HabitsRecordUsers(database: database)
        upsert = try database.upsertWriter(
            table: "focus_sessions",
            columns: [
                "id", "user_id", "started_at_us", "total_seconds", "remaining_seconds", "ended_at_us", "import_seq",
            ], key: ["id"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> FocusSessionRecord {
        try FocusSessionRecord(record)
    }

    public func store(_ session: FocusSessionRecord, sequence: Int64) throws {
        try users.note(session.userId)
        guard try cache.mustHold() else { return try write(session, sequence: sequence) }
        let fingerprint: [SQLValue] = [
            .text(session.userId), .instant(session.startedAt), .integer(session.totalSeconds),
            .integer(session.remainingSeconds), .optionalInstant(session.endedAt),
        ]
        try cache.hold(id: session.id, fingerprint: fingerprint) { try self.write(session, sequence: sequence) }
    }

    private func write(_ session: FocusSessionRecord, sequence: Int64) throws {
        try upsert.write([
            .text(session.id), .text(session.userId), .instant(session.startedAt), .integer(session.totalSeconds),
            .integer(session.remainingSeconds), .optionalInstant(session.endedAt), .integer(sequence),
        ])
    }
}
