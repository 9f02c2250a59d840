import Import
import Store

/// Imports `groups`: the teams of an event (press, VIP, staff…) that vehicles are lent to.
public final class GroupImporter: KindImporter {
    /// The validated record, built on the reader thread.
    public struct Fields: Sendable {
        let id: String
        let eventId: String
        let name: String

        init(_ reader: RecordReader) throws(FieldError) {
            let id = try reader.id("id")
            let eventId = try reader.id("event_id")
            let name = try reader.string("name")
            self.id = id
            self.eventId = eventId
            self.name = name
        }
    }

    private let upsert: UpsertWriter

    public init(database: Database) throws {
        upsert = try database.upsertWriter(table: "groups", columns: ["id", "event_id", "name", "import_seq"])
    }

    public static func validate(_ reader: RecordReader) throws(FieldError) -> Fields {
        try Fields(reader)
    }

    public func store(_ group: Fields, sequence: Int64) throws {
        try upsert.write([.text(group.id), .text(group.eventId), .text(group.name), .integer(sequence)])
    }
}
