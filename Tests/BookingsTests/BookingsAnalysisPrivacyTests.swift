import Foundation
import Import
import ReportModel
import ReportTestSupport
import XCTest
@testable import Bookings

/// SPEC §1.2: customers' contact fields are never stored, so no report can show them. This test
/// goes through the real file import (with rejections) and then scans everything a writer could
/// render: title, parameters, notes, figures, every cell of every table, charts and heat map.
final class BookingsAnalysisPrivacyTests: XCTestCase {
    /// Distinctive values: finding any of them anywhere means it leaked.
    static let contacts: [String: String] = [
        "first_name": "Philomène-Xanthe", "last_name": "Quillebœuf-Zarathoustra", "email": "philo.quill@example.org",
        "phone": "+33 7 98 76 54 32", "address": "7 impasse des Glycines Secrètes, 75020 Paris",
    ]

    /// Every piece of text a value can be rendered as, for the scan.
    private func texts(of value: Value) -> [String] {
        switch value {
        case .text(let text): return [text]
        case .empty: return []
        case .integer(let number): return [String(number)]
        case .number(let number): return [String(number)]
        case .day(let day): return [day.description]
        case .timestamp(let instant): return [instant.description]
        case .boolean(let flag): return [String(flag)]
        }
    }

    func testNoContactFieldReachesTheDatabaseTheReportOrARejection() throws {
        let fixture = try BookingsAnalysisFixture(defaults: false)
        let contactMembers = Self.contacts.sorted { $0.key < $1.key }
            .map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
        // A valid customer, one rejected for its created_at, one for its postal code type, all with contacts.
        let customers = """
            [{"id": "cust-P1", "created_at": "2026-10-01T12:00:00+02:00", "postal_code": "75020", \(contactMembers)},
             {"id": "cust-P2", "created_at": "yesterday", \(contactMembers)},
             {"id": "cust-P3", "created_at": "2026-10-01T12:00:00+02:00", "postal_code": 75020, \(contactMembers)}]
            """
        let path = fixture.store.directory.appendingPathComponent("customers.json").path
        try Data(customers.utf8).write(to: URL(fileURLWithPath: path))
        let importer = try Importer(
            database: fixture.database, modules: [BookingsModule.module.imports], options: Importer.Options())
        let outcomes = importer.importFiles(try ImportFiles.expand([path]))
        XCTAssertEqual(outcomes.map(\.accepted), [1])
        XCTAssertEqual(outcomes.map(\.rejected), [2])
        try fixture.service("s1", name: "Coupe femme", category: "Coupe", price: 4500)
        try fixture.booking("b1", starts: "2026-11-05T10:00:00+01:00", customer: "cust-P1")
        try fixture.booking("b2", starts: "2026-11-06T10:00:00+01:00", status: "pending", customer: "cust-P2")
        let report = try fixture.report(month: "2026-11")

        // The scan does see what is there: the customer's postal code and the orphan's id.
        var rendered: [String] = [report.title, report.scope, report.kind] + report.notes
        rendered += report.parameters.flatMap { [$0.name, $0.value] }
        rendered += report.figures.flatMap { [$0.metric, $0.title] + texts(of: $0.value) }
        for table in report.tables {
            rendered += [table.name, table.title, table.caption ?? ""] + table.columns.flatMap { [$0.name, $0.title] }
            for row in table.rows.all { rendered += row.flatMap(texts(of:)) }
        }
        rendered += report.charts.flatMap { [$0.title, $0.table, $0.category, $0.fileStem] + $0.series }
        if let heatMap = report.heatMap { rendered += [heatMap.title] + heatMap.rowLabels + heatMap.columnLabels }
        XCTAssertTrue(rendered.contains("75020"), "the postal code of cust-P1 is in postal_codes")
        XCTAssertTrue(
            rendered.contains { $0.contains("cust-P2") }, "the rejected customer is an unknown_customer issue")

        let rejections = try fixture.store.rows("SELECT * FROM import_rejects").flatMap { $0.compactMap(\.string) }
        XCTAssertEqual(try fixture.store.count("import_rejects"), 2)
        let messages = outcomes.flatMap(\.rejectMessages)
        XCTAssertEqual(messages.count, 2)

        // The file scan is SQLite's (a PostgreSQL server's files are not the test's to read).
        let scansTheFile = TestStore.backend == .sqlite
        if scansTheFile { try fixture.database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let databaseBytes =
            scansTheFile ? FileManager.default.contents(atPath: fixture.database.path) ?? Data() : Data()
        if scansTheFile {
            XCTAssertNotNil(databaseBytes.range(of: Data("cust-P1".utf8)), "the scan of the file finds stored ids")
        }

        for (field, value) in Self.contacts {
            for text in rendered { XCTAssertFalse(text.contains(value), "\(field) in the report: \(text)") }
            for text in rejections + messages {
                XCTAssertFalse(text.contains(value), "\(field) in a rejection: \(text)")
            }
            XCTAssertNil(databaseBytes.range(of: Data(value.utf8)), "\(field) in the database file")
            // Also its longest word, in case a value were stored cut (the phone's words are too short to be telling).
            let fragment = String(value.split(separator: " ").max { $0.count < $1.count } ?? "")
            guard fragment.count >= 6 else { continue }
            XCTAssertNil(
                databaseBytes.range(of: Data(fragment.utf8)), "\(field) fragment \(fragment) in the database file")
            for text in rendered { XCTAssertFalse(text.contains(fragment), "\(field) fragment in the report: \(text)") }
        }
    }
}
