import Import
import Store
import Time

/// A valid `users` record (SPEC §1.1): id, timezone? (a known IANA name), displayName?, createdAt?.
public struct UserRecord: Sendable, Equatable {
    public let id: String
    /// NULL when absent: analysis reads that as `Europe/Paris`.
    public let timezone: String?
    public let displayName: String?
    public let createdAt: Timestamp?

    /// Validates every field, throwing at the first problem.
    public init(_ reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let timezone = try reader.optionalTimeZone("timezone")
        let displayName = try reader.optionalString("displayName")
        let createdAt = try reader.optionalTimestamp("createdAt")
        self.id = id
        self.timezone = timezone
        self.displayName = displayName
        self.createdAt = createdAt
    }
}

/// Upserts `users` records by id.
public final class UsersImporter: KindImporter {
    private let upsert: UpsertWriter
    private let cache: HabitsStreakStateInvalidation

    public init(database: Database) throws {
        cache = HabitsStreakStateInvalidation(database: database, kind: .users)
        upsert = try database.upsertWriter(
            table: "users", columns: ["id", "timezone", "display_name", "created_at_us", "import_seq"], key: ["id"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> UserRecord { try UserRecord(record) }

    public func store(_ user: UserRecord, sequence: Int64) throws {
        guard try cache.mustHold() else { return try write(user, sequence: sequence) }
        try cache.hold(id: user.id, fingerprint: [.text(user.id), .optional(user.timezone)]) {
            try self.write(user, sequence: sequence)
        }
    }

    private func write(_ user: UserRecord, sequence: Int64) throws {
        try upsert.write([
            .text(user.id), .optional(user.timezone), .optional(user.displayName),
            .optionalInstant(user.createdAt), .integer(sequence),
        ])
    }
}
