import Import
import Store
import Time

/// A valid `flows` record (SPEC §1.1): a daily goal with optional steps and contexts.
public struct FlowRecord: Sendable, Equatable {
    /// The canonical states; `créé` and `terminé` (in any Unicode-equivalent writing) are accepted
    /// for `cree` and `termine`.
    public static let states = ["cree", "en_cours", "termine"]
    public static let stateAliases = ["créé": "cree", "terminé": "termine"]

    public let id: String
    public let userId: String
    public let date: Day
    public let libelleAction: String
    public let objectif: String?
    public let etat: String
    public let energieRequise: Int64?
    /// Minutes, any JSON number ≥ 0.
    public let tempsEstime: Double?
    public let tempsRealise: Double?
    /// Kept as given, duplicates included (analysis splits time equally among the entries).
    public let contexte: [String]
    public let streakDay: Int64?
    /// The steps reduced to what the score needs.
    public let stepsTotal: Int64
    public let stepsDone: Int64
    public let createdAt: Timestamp?
    public let completedAt: Timestamp?

    /// Validates every field, the steps included, throwing at the first problem.
    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let userId = try reader.id("userId")
        let date = try reader.day("date")
        let libelleAction = try reader.string("libelleAction")
        let objectif = try reader.optionalString("objectif")
        let etat = try reader.enumeration("etat", FlowRecord.states, aliases: FlowRecord.stateAliases)
        let energieRequise = try reader.optionalInteger("energieRequise", 1...5)
        let tempsEstime = try reader.optionalNumber("tempsEstime", HabitsLimits.flowMinutes)
        let tempsRealise = try reader.optionalNumber("tempsRealise", HabitsLimits.flowMinutes)
        let contexte = try reader.optionalStrings("contexte") ?? []
        let streakDay = try reader.optionalInteger("streakDay", 0...Int64.max)
        var total: Int64 = 0
        var done: Int64 = 0
        for (index, item) in (try reader.optionalItems("etape") ?? []).enumerated() {
            let step = try reader.element("etape", index, item)
            try step.checkOptionalId("id")
            try step.checkString("libelle")
            if try step.bool("terminee") { done += 1 }
            total += 1
        }
        let stepsTotal = total
        let stepsDone = done
        let createdAt = try reader.optionalTimestamp("createdAt")
        let completedAt = try reader.optionalTimestamp("completedAt")
        self.id = id
        self.userId = userId
        self.date = date
        self.libelleAction = libelleAction
        self.objectif = objectif
        self.etat = etat
        self.energieRequise = energieRequise
        self.tempsEstime = tempsEstime
        self.tempsRealise = tempsRealise
        self.contexte = contexte
        self.streakDay = streakDay
        self.stepsTotal = stepsTotal
        self.stepsDone = stepsDone
        self.createdAt = createdAt
        self.completedAt = completedAt
    }
}

/// Upserts `flows` records by id, replacing their contexts whole.
public final class FlowsImporter: KindImporter {
    private let upsert: UpsertWriter
    private let contexts: ChildRows
    private let cache: HabitsStreakStateInvalidation
    private let users: HabitsRecordUsers

    public init(database: Database) throws {
        cache = HabitsStreakStateInvalidation(database: database, kind: .flows)
        users = try HabitsRecordUsers(database: database)
        upsert = try database.upsertWriter(
            table: "flows",
            columns: [
                "id", "user_id", "date", "libelle_action", "objectif", "etat", "energie_requise", "temps_estime",
                "temps_realise", "streak_day", "steps_total", "steps_done", "created_at_us", "completed_at_us",
                "import_seq",
            ], key: ["id"])
        contexts = try ChildRows(
            database: database, table: "flow_contexts", parentColumn: "flow_id", columns: ["user_id", "context"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> FlowRecord { try FlowRecord(record) }

    public func store(_ flow: FlowRecord, sequence: Int64) throws {
        try users.note(flow.userId)
        guard try cache.mustHold() else { return try write(flow, sequence: sequence) }
        let fingerprint: [SQLValue] = [
            .text(flow.userId), .day(flow.date), .text(flow.etat), .optionalInstant(flow.completedAt),
        ]
        try cache.hold(id: flow.id, fingerprint: fingerprint) { try self.write(flow, sequence: sequence) }
    }

    private func write(_ flow: FlowRecord, sequence: Int64) throws {
        try upsert.write([
            .text(flow.id), .text(flow.userId), .day(flow.date), .text(flow.libelleAction), .optional(flow.objectif),
            .text(flow.etat), .optional(flow.energieRequise), .optional(flow.tempsEstime), .optional(flow.tempsRealise),
            .optional(flow.streakDay), .integer(flow.stepsTotal), .integer(flow.stepsDone),
            .optionalInstant(flow.createdAt), .optionalInstant(flow.completedAt), .integer(sequence),
        ])
        // A context carries its flow's user: the column a distributed database places both by.
        try contexts.replace(parent: flow.id, rows: flow.contexte.map { [.text(flow.userId), .text($0)] })
    }
}
