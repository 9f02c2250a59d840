import Import
import Store
import Time

/// A valid `tasks` record (SPEC §1.1): a micro-task of one day.
public struct TaskRecord: Sendable, Equatable {
    public static let states = ["a_faire", "en_cours", "terminee"]

    public let id: String
    public let userId: String
    public let date: Day
    public let libelle: String
    public let state: String
    /// `contexte` kept as given, as the JSON text of its column (no metric reads a task's contexts,
    /// so one column costs one write where a child table cost three per task); nil when absent or
    /// empty. Written here, on the reader thread, straight from the record's tape.
    public let contexteJSON: String?
    public let createdAt: Timestamp?
    public let completedAt: Timestamp?

    /// Validates every field, throwing at the first problem.
    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let userId = try reader.id("userId")
        let date = try reader.day("date")
        let libelle = try reader.string("libelle")
        let state = try reader.enumeration("state", TaskRecord.states)
        let contexteJSON = try reader.optionalStringsJSON("contexte")
        let createdAt = try reader.optionalTimestamp("createdAt")
        let completedAt = try reader.optionalTimestamp("completedAt")
        self.id = id
        self.userId = userId
        self.date = date
        self.libelle = libelle
        self.state = state
        self.contexteJSON = contexteJSON
        self.createdAt = createdAt
        self.completedAt = completedAt
    }
}

/// A valid task with its row: the values of the `tasks` columns before `import_seq`, made by
/// `TasksImporter.validate` on the import's reader thread, so that the database thread only
/// binds them (the array, its date text and their release were about 4 % of that thread in the
/// 1M-task import, issue 32 item 2).
public struct TaskRow: Sendable, Equatable {
    public let task: TaskRecord
    let values: [SQLValue]

    /// Takes the record over (`consuming`): borrowed, it was copied into the row and the caller's
    /// copy destroyed, a retain and a release per `String` field (2.5 % of a task on the reader
    /// thread, callgrind).
    init(_ task: consuming TaskRecord) {
        values = [
            .text(task.id), .text(task.userId), .day(task.date), .text(task.libelle), .text(task.state),
            .optional(task.contexteJSON), .optionalInstant(task.createdAt), .optionalInstant(task.completedAt),
        ]
        self.task = task
    }
}

/// Upserts `tasks` records by id.
public final class TasksImporter: KindImporter {
    private let upsert: UpsertWriter
    private let cache: HabitsStreakStateInvalidation
    private let users: HabitsRecordUsers

    public init(database: Database) throws {
        cache = HabitsStreakStateInvalidation(database: database, kind: .tasks)
        users = try HabitsRecordUsers(database: database)
        upsert = try database.upsertWriter(
            table: "tasks",
            columns: [
                "id", "user_id", "date", "libelle", "state", "contexte", "created_at_us", "completed_at_us",
                "import_seq",
            ], key: ["id"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> TaskRow {
        TaskRow(try TaskRecord(record))
    }

    public func store(_ row: TaskRow, sequence: Int64) throws {
        try users.note(row.task.userId)
        guard try cache.mustHold() else { return try upsert.write(row.values, then: .integer(sequence)) }
        let task = row.task
        let fingerprint: [SQLValue] = [
            .text(task.userId), .day(task.date), .text(task.state), .optionalInstant(task.completedAt),
        ]
        try cache.hold(id: task.id, fingerprint: fingerprint) {
            try self.upsert.write(row.values, then: .integer(sequence))
        }
    }
}
