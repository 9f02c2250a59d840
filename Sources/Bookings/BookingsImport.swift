import Import
import Store
import Time

/// A valid `bookings` record (SPEC §1.2): a customer's appointment and the services it holds.
public struct BookingRecord: Sendable, Equatable {
    public static let statuses = ["pending", "confirmed", "paid", "done", "cancelled", "no_show"]

    /// One service of a booking, at the price the customer was shown.
    public struct Line: Sendable, Equatable {
        public let serviceId: String
        /// ≥ 0.
        public let priceCents: Int64
        /// This line's own struck-through price, ≥ 0 (no fallback to the catalogue).
        public let oldPriceCents: Int64?
    }

    public let id: String
    public let customerId: String
    public let slotId: String?
    public let startsAt: Timestamp
    public let createdAt: Timestamp
    public let status: String
    /// At least one, in the order given.
    public let lines: [Line]
    /// ≥ 0.
    public let amountCents: Int64
    public let paidAt: Timestamp?
    public let cancelledAt: Timestamp?
    public let postalCode: String?

    /// Validates every field, the service lines included, throwing at the first problem.
    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let customerId = try reader.id("customer_id")
        let slotId = try reader.optionalId("slot_id")
        let startsAt = try reader.timestamp("starts_at")
        let createdAt = try reader.timestamp("created_at")
        let status = try reader.enumeration("status", BookingRecord.statuses)
        let items = try reader.items("services")
        guard !items.isEmpty else { throw reader.fail("services", "[]", "must list at least one service") }
        var lines: [Line] = []
        lines.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let line = try reader.element("services", index, item)
            lines.append(
                Line(
                    serviceId: try line.id("service_id"),
                    priceCents: try line.integer("price_cents", BookingsLimits.cents),
                    oldPriceCents: try line.optionalInteger("old_price_cents", BookingsLimits.cents)))
        }
        let amountCents = try reader.integer("amount_cents", BookingsLimits.cents)
        let paidAt = try reader.optionalTimestamp("paid_at")
        let cancelledAt = try reader.optionalTimestamp("cancelled_at")
        let postalCode = try reader.optionalString("postal_code")
        self.id = id
        self.customerId = customerId
        self.slotId = slotId
        self.startsAt = startsAt
        self.createdAt = createdAt
        self.status = status
        self.lines = lines
        self.amountCents = amountCents
        self.paidAt = paidAt
        self.cancelledAt = cancelledAt
        self.postalCode = postalCode
    }
}

/// Upserts `bookings` records by id, replacing their service lines whole.
public final class BookingsImporter: KindImporter {
    private let upsert: UpsertWriter
    private let lines: ChildRows

    public init(database: Database) throws {
        upsert = try database.upsertWriter(
            table: "bookings",
            columns: [
                "id", "customer_id", "slot_id", "starts_at_us", "created_at_us", "status", "amount_cents",
                "paid_at_us", "cancelled_at_us", "postal_code", "import_seq",
            ], key: ["id"])
        lines = try ChildRows(
            database: database, table: "booking_lines", parentColumn: "booking_id",
            columns: ["customer_id", "service_id", "price_cents", "old_price_cents"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> BookingRecord {
        try BookingRecord(record)
    }

    public func store(_ booking: BookingRecord, sequence: Int64) throws {
        try upsert.write([
            .text(booking.id), .text(booking.customerId), .optional(booking.slotId), .instant(booking.startsAt),
            .instant(booking.createdAt), .text(booking.status), .integer(booking.amountCents),
            .optionalInstant(booking.paidAt), .optionalInstant(booking.cancelledAt), .optional(booking.postalCode),
            .integer(sequence),
        ])
        try lines.replace(
            parent: booking.id,
            rows: booking.lines.map {
                // The line carries its booking's customer: the column a distributed database
                // places both by (`report distribute`).
                [.text(booking.customerId), .text($0.serviceId), .integer($0.priceCents), .optional($0.oldPriceCents)]
            })
    }
}
