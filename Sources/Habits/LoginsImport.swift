import Import
import Store
import Time

/// A valid `logins` record (SPEC §1.1). Its key is (userId, at) with `at` as an instant, so
/// `09:00+02:00` and `07:00Z` are the same login.
public struct LoginRecord: Sendable, Equatable {
    public let userId: String
    public let at: Timestamp

    public init(_ reader: RecordReader) throws(FieldError) {
        let userId = try reader.id("userId")
        let at = try reader.timestamp("at")
        self.userId = userId
        self.at = at
    }
}

/// Upserts `logins` records by (user_id, at_us).
public final class LoginsImporter: KindImporter {
    private let upsert: UpsertWriter
    private let users: HabitsRecordUsers

    public init(database: Database) throws {
        users = try HabitsRecordUsers(database: database)
        upsert = try database.upsertWriter(
            table: "logins", columns: ["user_id", "at_us", "import_seq"], key: ["user_id", "at_us"])
    }

    public static func validate(_ record: RecordReader) throws(FieldError) -> LoginRecord { try LoginRecord(record) }

    public func store(_ login: LoginRecord, sequence: Int64) throws {
        try users.note(login.userId)
        try upsert.write([.text(login.userId), .instant(login.at), .integer(sequence)])
    }
}
