import Foundation
import DomainInterface
import Import
import JSON
import Store
import XCTest

/// A fresh database (a file in its own temporary directory, or a new database of the PostgreSQL
/// test server: `TestStore.backend`), migrated with one domain's schema, and the domain's
/// importers: shared by the habits and bookings tests.
public final class DomainTestStore {
    public let module: DomainModule
    public let directory: URL
    public let database: Database
    /// Where `database` is: a file path, or a URL of the PostgreSQL test server (for a second connection).
    public let location: String
    private var importers: [ExportKind: ErasedKindImporter] = [:]
    private var sequence: Int64 = 0

    public init(module: DomainModule) throws {
        self.module = module
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(module.name.rawValue)-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        location = try TestStore.freshLocation(in: directory.path)
        database = try Database(path: location)
        try Schema.migrate(database, ImportLog.migrations + module.migrations)
        // On Citus, the domain's tables are laid out as `report distribute` lays them out, so that
        // the same tests run against distributed tables (REPORT_TEST_BACKEND=citus).
        if TestStore.isCitus { _ = try database.distribute(module.distribution) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Imports one record with the next sequence number, through the module's importer for `kind`.
    public func load(_ kind: ExportKind, _ record: JSONValue) throws {
        let importer: ErasedKindImporter
        if let existing = importers[kind] {
            importer = existing
        } else {
            importer = try module.imports.makeImporter(kind, database)
            importers[kind] = importer
        }
        sequence += 1
        try importer.importRecord(record, sequence: sequence)
    }

    public var lastSequence: Int64 { sequence }

    public func rows(_ sql: String) throws -> [[SQLValue]] { try database.rows(sql) }

    public func count(_ table: String) throws -> Int64 { try database.scalarInt("SELECT COUNT(*) FROM \(table)") ?? -1 }

    /// Every row of every domain table, in a stable order: compared before and after a rejection.
    public func snapshot() throws -> [String: [[SQLValue]]] {
        try TableSnapshot.of(database, excluding: ["schema_migrations", "import_log", "import_rejects"])
    }

    /// Asserts that `record` is rejected with exactly `message` and that no table changed.
    public func assertRejected(
        _ kind: ExportKind, _ record: JSONValue, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try snapshot()
        XCTAssertFalse(before.values.allSatisfy(\.isEmpty), "seed a valid record first", file: file, line: line)
        do {
            try load(kind, record)
            XCTFail("accepted an invalid record; expected \(message)", file: file, line: line)
        } catch let error as FieldError {
            XCTAssertEqual(error.description, message, file: file, line: line)
        }
        XCTAssertEqual(try snapshot(), before, "a rejected record changed the database", file: file, line: line)
    }
}

/// Builds a record from a valid one with some members replaced (`nil` removes) or added.
public func record(_ base: JSONValue, _ changes: [String: JSONValue?]) -> JSONValue {
    guard case .object(var object) = base else { return base }
    for (key, value) in changes.sorted(by: { $0.key < $1.key }) {
        if let index = object.members.firstIndex(where: { $0.key == key }) {
            if let value { object.members[index].value = value } else { object.members.remove(at: index) }
        } else if let value {
            object.members.append(JSONObject.Member(key: key, value: value))
        }
    }
    return .object(object)
}
