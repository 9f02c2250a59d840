import Import
import JSON
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
        id = try reader.id("id")
        userId = try reader.id("userId")
        date = try reader.day("date")
        libelleAction = try reader.string("libelleAction")
        objectif = try reader.optionalString("objectif")
        etat = try reader.enumeration("etat", FlowRecord.states, aliases: FlowRecord.stateAliases)
        energieRequise = try reader.optionalInteger("energieRequise", 1...5)
        tempsEstime = try reader.optionalNonNegativeNumber("tempsEstime")
        tempsRealise = try reader.optionalNonNegativeNumber("tempsRealise")
        contexte = try reader.optionalStrings("contexte") ?? []
        streakDay = try reader.optionalInteger("streakDay", 0...Int64.max)
        var total: Int64 = 0
        var done: Int64 = 0
        for (index, item) in (try reader.optionalItems("etape") ?? []).enumerated() {
            let step = try reader.element("etape", index, item)
            _ = try step.optionalId("id")
            _ = try step.string("libelle")
            if try step.bool("terminee") { done += 1 }
            total += 1
        }
        stepsTotal = total
        stepsDone = done
        createdAt = try reader.optionalTimestamp("createdAt")
        completedAt = try reader.optionalTimestamp("completedAt")
    }
}

/// Upserts `flows` records by id, replacing their contexts whole.
public final class FlowsImporter: KindImporter {
    private let upsert: UpsertWriter
    private let contexts: ChildRows

    public init(database: Database) throws {
        upsert = try database.upsertWriter(
            table: "flows",
            columns: [
                "id", "user_id", "date", "libelle_action", "objectif", "etat", "energie_requise", "temps_estime",
                "temps_realise", "streak_day", "steps_total", "steps_done", "created_at_us", "completed_at_us",
                "import_seq",
            ], key: ["id"])
        contexts = try ChildRows(
            database: database, table: "flow_contexts", parentColumn: "flow_id", columns: ["context"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> FlowRecord { try FlowRecord(record) }

    public func store(_ flow: FlowRecord, sequence: Int64) throws {
        try upsert.write([
            .text(flow.id), .text(flow.userId), .day(flow.date), .text(flow.libelleAction), .optional(flow.objectif),
            .text(flow.etat), .optional(flow.energieRequise), .optional(flow.tempsEstime), .optional(flow.tempsRealise),
            .optional(flow.streakDay), .integer(flow.stepsTotal), .integer(flow.stepsDone),
            .optionalInstant(flow.createdAt), .optionalInstant(flow.completedAt), .integer(sequence),
        ])
        try contexts.replace(parent: flow.id, rows: flow.contexte.map { [.text($0)] })
    }
}
