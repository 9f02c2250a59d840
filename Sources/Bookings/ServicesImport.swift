import Import
import Store

/// A valid `services` record (SPEC §1.2): an item of the catalogue.
public struct ServiceRecord: Sendable, Equatable {
    public let id: String
    public let name: String
    public let category: String
    /// ≥ 0.
    public let priceCents: Int64
    /// The struck-through former price, ≥ 0.
    public let oldPriceCents: Int64?
    /// > 0.
    public let durationMinutes: Int64

    /// Validates every field, throwing at the first problem.
    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let name = try reader.string("name")
        let category = try reader.string("category")
        let priceCents = try reader.integer("price_cents", BookingsLimits.cents)
        let oldPriceCents = try reader.optionalInteger("old_price_cents", BookingsLimits.cents)
        let durationMinutes = try reader.integer("duration_minutes", 1...Int64.max)
        self.id = id
        self.name = name
        self.category = category
        self.priceCents = priceCents
        self.oldPriceCents = oldPriceCents
        self.durationMinutes = durationMinutes
    }
}

/// Upserts `services` records by id.
public final class ServicesImporter: KindImporter {
    private let upsert: UpsertWriter

    public init(database: Database) throws {
        upsert = try database.upsertWriter(
            table: "services",
            columns: [
                "id", "name", "category", "price_cents", "old_price_cents", "duration_minutes", "import_seq",
            ], key: ["id"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> ServiceRecord {
        try ServiceRecord(record)
    }

    public func store(_ service: ServiceRecord, sequence: Int64) throws {
        try upsert.write([
            .text(service.id), .text(service.name), .text(service.category), .integer(service.priceCents),
            .optional(service.oldPriceCents), .integer(service.durationMinutes), .integer(sequence),
        ])
    }
}
