import Foundation
import Import
import ReportTestSupport
import XCTest
@testable import Habits

/// `report check` (Importer with `checkOnly`): the import's validation and messages, and not one
/// write: the database is byte for byte the file it was before, and no transaction is opened.
final class ImportCheckTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    private static let tasks = """
        [{"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "A", "state": "terminee"},
         {"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "B", "state": "done"},
         {"id": "t3", "userId": "u1", "date": "2026-13-01", "libelle": "C", "state": "a_faire"}]
        """

    private func file(_ name: String, _ text: String) throws -> ImportFiles.Entry {
        let path = store.directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try XCTUnwrap(ImportFiles.expand([path]).first)
    }

    /// `report check` (no database) or `report import` of one file, with the same options.
    private func importer(checkOnly: Bool, strict: Bool = false) throws -> (ImportFiles.Entry) -> FileOutcome {
        var options = Importer.Options()
        options.strict = strict
        if checkOnly {
            return ImportCheck(modules: [HabitsModule.module.imports], options: options, refusesNUL: false).checkFile
        }
        return try Importer(database: store.database, modules: [HabitsModule.module.imports], options: options)
            .importFile
    }

    func testCheckCountsAndNamesWhatTheImportWouldAndWritesNothing() throws {
        let entry = try file("tasks.json", Self.tasks)
        let before = try store.snapshot()
        let sqlite = TestStore.backend == .sqlite  // data_version is SQLite's
        let changes = sqlite ? try store.database.scalarInt("PRAGMA data_version") : nil
        let checked = try importer(checkOnly: true)(entry)
        XCTAssertEqual(checked.status, .checked)
        XCTAssertEqual([checked.records, checked.accepted, checked.rejected], [3, 1, 2])
        XCTAssertEqual(try store.snapshot(), before)
        XCTAssertEqual(try store.count("import_log"), 0)
        XCTAssertEqual(try store.count("import_rejects"), 0)
        XCTAssertFalse(store.database.isInTransaction)
        if sqlite { XCTAssertEqual(try store.database.scalarInt("PRAGMA data_version"), changes) }

        let imported = try importer(checkOnly: false)(entry)
        XCTAssertEqual(imported.status, .imported)
        XCTAssertEqual(checked.rejectMessages, imported.rejectMessages)
        XCTAssertEqual(
            checked.rejectMessages.first,
            "\(entry.displayName) record 2 (id t2): field state: must be one of a_faire, en_cours, terminee \"done\"")
        XCTAssertEqual([imported.records, imported.accepted, imported.rejected], [3, 1, 2])
    }

    func testStrictCheckFailsAtTheFirstRejectionLikeTheImport() throws {
        let entry = try file("tasks.json", Self.tasks)
        let checked = try importer(checkOnly: true, strict: true)(entry)
        let imported = try importer(checkOnly: false, strict: true)(entry)
        XCTAssertEqual(checked.status, imported.status)
        guard case .failed(let reason) = checked.status else { return XCTFail("\(checked.status)") }
        XCTAssertEqual(
            reason,
            "record 2 (id t2): field state: must be one of a_faire, en_cours, terminee \"done\"; --strict: nothing "
                + "of this file was stored"
        )
        XCTAssertEqual(try store.count("tasks"), 0)
    }

    func testCheckReadsAnObjectThatIsNotAWrapperAsJSONLinesAndReportsMalformedJSON() throws {
        let lines = try file(
            "tasks.json",
            """
            {"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "A", "state": "terminee"}
            {"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "B", "state": "a_faire"}
            """)
        let checked = try importer(checkOnly: true)(lines)
        XCTAssertEqual([checked.records, checked.accepted, checked.rejected], [2, 2, 0])
        let broken = try importer(checkOnly: true)(try file("tasks-broken.json", "[{\"id\": "))
        guard case .failed(let reason) = broken.status else { return XCTFail("\(broken.status)") }
        XCTAssertTrue(reason.hasPrefix("malformed JSON: "), reason)
        XCTAssertTrue(reason.hasSuffix("; nothing of this file was stored"), reason)
        XCTAssertEqual(try store.count("tasks"), 0)
        XCTAssertEqual(try store.count("import_log"), 0)
    }
}

/// `report check` validates on the thread that reads the queue, the import on the reader thread:
/// over many batches, with rejections and a line that is not JSON spread through them, both give
/// the same counts and the same messages in the same order.
final class ImportCheckAcrossBatchesTests: XCTestCase {
    func testCheckAndImportAgreeOverManyBatches() throws {
        let store = try HabitsTestStore()
        var lines: [String] = []
        for number in 1...1500 {
            let state = number % 97 == 0 ? "done" : "a_faire"
            let date = number % 211 == 0 ? "2026-02-30" : "2026-11-28"
            lines.append(
                number == 700
                    ? "{\"id\": \"t700\", "
                    : #"{"id": "t\#(number)", "userId": "u1", "date": "\#(date)", "libelle": "L", "#
                        + #""state": "\#(state)"}"#)
        }
        let path = store.directory.appendingPathComponent("tasks.jsonl").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let entry = try XCTUnwrap(ImportFiles.expand([path]).first)

        func run(checkOnly: Bool) throws -> FileOutcome {
            var options = Importer.Options()
            options.messagesPerFile = 100
            if checkOnly {
                return ImportCheck(modules: [HabitsModule.module.imports], options: options, refusesNUL: false)
                    .checkFile(entry)
            }
            return try Importer(database: store.database, modules: [HabitsModule.module.imports], options: options)
                .importFile(entry)
        }
        let checked = try run(checkOnly: true)
        XCTAssertEqual(try store.count("tasks"), 0)
        let imported = try run(checkOnly: false)
        // 15 states (every 97th), 7 dates (every 211th) and the broken line 700.
        XCTAssertEqual([checked.records, checked.accepted, checked.rejected], [1500, 1477, 23])
        XCTAssertEqual([imported.records, imported.accepted, imported.rejected], [1500, 1477, 23])
        XCTAssertEqual(checked.rejectMessages, imported.rejectMessages)
        XCTAssertEqual(checked.rejectMessages.count, 23)
        XCTAssertTrue(checked.rejectMessages[10].contains("line 700"), checked.rejectMessages[10])
        XCTAssertEqual(try store.count("tasks"), 1477)
    }
}
