import ReportCore

/// Imports `drivers`: the people cars are lent to, charged with the new damage of their loans.
public final class DriverImporter: KindImporter {
    struct Fields {
        let id: String
        let name: String
        let company: String?

        init(_ reader: RecordReader) throws(FieldError) {
            id = try reader.id("id")
            name = try reader.string("name")
            company = try reader.optionalString("company")
        }
    }

    private let upsert: Statement

    public init(database: Database) throws {
        upsert = try Upsert.prepare(database, table: "drivers", columns: ["id", "name", "company", "import_seq"])
    }

    public func importRecord(_ record: JSONValue, sequence: Int64) throws {
        let driver = try Fields(RecordReader(record: record))
        try upsert.bind([.text(driver.id), .text(driver.name), .optional(driver.company), .integer(sequence)])
        try upsert.run()
    }
}
