import Import
import Store
import Time

/// A valid `moods` record (SPEC §1.1): one mood 1–5 per user and date.
public struct MoodRecord: Sendable, Equatable {
    public let userId: String
    public let date: Day
    public let mood: Int64
    public let note: String?

    public init(_ reader: RecordReader) throws(FieldError) {
        let userId = try reader.id("userId")
        let date = try reader.day("date")
        let mood = try reader.integer("mood", 1...5)
        let note = try reader.optionalString("note")
        self.userId = userId
        self.date = date
        self.mood = mood
        self.note = note
    }
}

/// Upserts `moods` records by (user_id, date).
public final class MoodsImporter: KindImporter {
    private let upsert: UpsertWriter
    private let users: HabitsRecordUsers

    public init(database: Database) throws {
        users = try HabitsRecordUsers(database: database)
        upsert = try database.upsertWriter(
            table: "moods", columns: ["user_id", "date", "mood", "note", "import_seq"], key: ["user_id", "date"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> MoodRecord { try MoodRecord(record) }

    public func store(_ mood: MoodRecord, sequence: Int64) throws {
        try users.note(mood.userId)
        try upsert.write([
            .text(mood.userId), .day(mood.date), .integer(mood.mood), .optional(mood.note), .integer(sequence),
        ])
    }
}
