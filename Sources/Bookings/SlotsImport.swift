import Import
import Store
import Time

/// A valid `slots` record (SPEC §1.2): a bookable time range and the stylists available in it.
public struct SlotRecord: Sendable, Equatable {
    public let id: String
    public let startsAt: Timestamp
    /// After `startsAt` (as instants).
    public let endsAt: Timestamp
    /// ≥ 0.
    public let capacity: Int64

    /// Validates every field and that the slot ends after it starts, throwing at the first problem.
    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let startsAt = try reader.timestamp("starts_at")
        let endsAt = try reader.timestamp("ends_at")
        guard endsAt > startsAt else {
            throw reader.fail("ends_at", reader.value("ends_at") ?? .null, "must be after starts_at")
        }
        let capacity = try reader.integer("capacity", BookingsLimits.capacity)
        self.id = id
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.capacity = capacity
    }
}

/// Upserts `slots` records by id.
public final class SlotsImporter: KindImporter {
    private let upsert: UpsertWriter

    public init(database: Database) throws {
        upsert = try database.upsertWriter(
            table: "slots", columns: ["id", "starts_at_us", "ends_at_us", "capacity", "import_seq"], key: ["id"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> SlotRecord { try SlotRecord(record) }

    public func store(_ slot: SlotRecord, sequence: Int64) throws {
        try upsert.write([
            .text(slot.id), .instant(slot.startsAt), .instant(slot.endsAt), .integer(slot.capacity), .integer(sequence),
        ])
    }
}
