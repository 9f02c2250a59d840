import Import
import Store
import Time

/// A valid `customers` record (SPEC §1.2), reduced to what analysis may keep.
///
/// The contact fields the export carries (`first_name`, `last_name`, `email`, `phone`, `address`)
/// are personal data the reports never need, so they are never read: not validated (a malformed
/// e-mail cannot reject a customer or be quoted in a rejection), not kept in this value, and not
/// written anywhere. Only a repeated field name is reported, and that report names the field,
/// never its value.
public struct CustomerRecord: Sendable, Equatable {
    public let id: String
    public let createdAt: Timestamp
    public let postalCode: String?

    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let createdAt = try reader.timestamp("created_at")
        let postalCode = try reader.optionalString("postal_code")
        self.id = id
        self.createdAt = createdAt
        self.postalCode = postalCode
    }
}

/// Upserts `customers` records by id (without contact details).
public final class CustomersImporter: KindImporter {
    private let upsert: UpsertWriter

    public init(database: Database) throws {
        upsert = try database.upsertWriter(
            table: "customers", columns: ["id", "created_at_us", "postal_code", "import_seq"], key: ["id"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> CustomerRecord {
        try CustomerRecord(record)
    }

    public func store(_ customer: CustomerRecord, sequence: Int64) throws {
        try upsert.write([
            .text(customer.id), .instant(customer.createdAt), .optional(customer.postalCode), .integer(sequence),
        ])
    }
}
