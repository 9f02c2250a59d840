import ReportCore

/// A valid `tasks` record (SPEC §1.1): a micro-task of one day.
public struct TaskRecord: Sendable, Equatable {
    public static let states = ["a_faire", "en_cours", "terminee"]

    public let id: String
    public let userId: String
    public let date: Day
    public let libelle: String
    public let state: String
    /// Kept as given (child table `task_contexts`); empty when absent.
    public let contexte: [String]
    public let createdAt: Timestamp?
    public let completedAt: Timestamp?

    /// Validates every field, throwing at the first problem.
    public init(_ record: JSONValue) throws(FieldError) {
        let reader = try RecordReader(record: record)
        id = try reader.id("id")
        userId = try reader.id("userId")
        date = try reader.day("date")
        libelle = try reader.string("libelle")
        state = try reader.enumeration("state", TaskRecord.states)
        contexte = try reader.optionalStrings("contexte") ?? []
        createdAt = try reader.optionalTimestamp("createdAt")
        completedAt = try reader.optionalTimestamp("completedAt")
    }
}

/// Upserts `tasks` records by id, replacing their contexts whole.
public final class TasksImporter: KindImporter {
    private let upsert: Statement
    private let contexts: ChildRows

    public init(database: Database) throws {
        upsert = try database.prepare(Upsert.sql(table: "tasks", columns: [
            "id", "user_id", "date", "libelle", "state", "created_at_us", "completed_at_us", "import_seq",
        ], key: ["id"]))
        contexts = try ChildRows(database: database, table: "task_contexts", parentColumn: "task_id", columns: ["context"])
    }

    public func importRecord(_ record: JSONValue, sequence: Int64) throws {
        let task = try TaskRecord(record)
        try upsert.bind([
            .text(task.id), .text(task.userId), .day(task.date), .text(task.libelle), .text(task.state),
            .optionalInstant(task.createdAt), .optionalInstant(task.completedAt), .integer(sequence),
        ])
        try upsert.run()
        try contexts.replace(parent: task.id, rows: task.contexte.map { [.text($0)] })
    }
}
