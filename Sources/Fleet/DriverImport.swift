import Import
import Store

/// Imports `drivers`: the people cars are lent to, charged with the new damage of their loans.
public final class DriverImporter: KindImporter {
    /// The validated record, built on the reader thread.
    public struct Fields: Sendable {
        let id: String
        let name: String
        let company: String?

        init(_ reader: RecordReader) throws(FieldError) {
            let id = try reader.id("id")
            let name = try reader.string("name")
            let company = try reader.optionalString("company")
            self.id = id
            self.name = name
            self.company = company
        }
    }

    private let upsert: UpsertWriter

    public init(database: Database) throws {
        upsert = try database.upsertWriter(table: "drivers", columns: ["id", "name", "company", "import_seq"])
    }

    public static func validate(_ reader: RecordReader) throws(FieldError) -> Fields {
        try Fields(reader)
    }

    public func store(_ driver: Fields, sequence: Int64) throws {
        try upsert.write([.text(driver.id), .text(driver.name), .optional(driver.company), .integer(sequence)])
    }
}
