import Foundation
import ArgumentParsing
import Import
import ReportModel
import Store
import ReportTestSupport
import XCTest
@testable import ReportCLI
@testable import ArgumentParsing
@testable import Import
@testable import ReportModel
@testable import Store

final class ImportCommandTests: CLITestCase {
    static let tasks = """
        [
          {"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "Courir", "state": "terminee",\
         "completedAt": "2026-11-28T07:30:00+01:00"},
          {"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "Lire", "state": "a_faire"},
          {"id": 3, "userId": "u2", "date": "2026-11-28", "libelle": "Ranger", "state": "en_cours"}
        ]
        """

    func testImportsEveryLayoutAndReportsCounts() throws {
        try write("in/tasks.json", Self.tasks)
        try write(
            "in/users.json",
            (#"{"exported_at": "2026-11-29T01:00:00Z", "users": [{"id": "u1", "timezone": "America/New_York"}, "#
                + #"{"id": "u2"}], "count": 2}"#)
        )
        try write(
            "in/logins.jsonl",
            "{\"userId\": \"u1\", \"at\": \"2026-11-28T08:00:00+01:00\"}\r\n\r\n{\"userId\": \"u2\", \"at\": "
                + "\"2026-11-28T09:00:00Z\"}\n"
        )
        try write("in/notes.txt", "not an export: ignored inside a folder")
        let run = report(["import", "--db", databasePath, path("in")])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(run.err, "")
        XCTAssertEqual(
            Array(run.outLines.prefix(3)),
            [
                "imported \(path("in"))/logins.jsonl (logins): 2 records, 2 accepted, 0 rejected",
                "imported \(path("in"))/tasks.json (tasks): 3 records, 3 accepted, 0 rejected",
                (#"imported \#(path("in"))/users.json (users): 2 records, 2 accepted, 0 rejected (records from "#
                    + #"member "users")"#),
            ])
        XCTAssertTrue(
            run.outLines.last?.hasPrefix(
                "import: 3 files (3 imported, 0 skipped, 0 failed), 7 records, 7 accepted, 0 rejected in ") ?? false,
            run.out)
        XCTAssertEqual(try count("tasks"), 3)
        XCTAssertEqual(try count("users"), 2)
        XCTAssertEqual(try count("logins"), 2)
        XCTAssertEqual(try database().rows("SELECT id FROM tasks ORDER BY id"), [["3"], ["t1"], ["t2"]])
        XCTAssertEqual(
            try database().rows("SELECT file, kind, records, accepted, rejected FROM import_log ORDER BY id").count, 3)
    }

    /// A folder with no export file: exit 1 and one line, not "0 files" and success; nothing is
    /// stored (the database keeps what it had), and a folder beside real files still fails.
    func testAFolderWithoutExportFilesFails() throws {
        try write("in/tasks.json", Self.tasks)
        XCTAssertEqual(report(["import", "--db", databasePath, "-q", path("in")]).code, .success)
        try write("empty/notes.txt", "not an export")
        try FileManager.default.createDirectory(atPath: path("empty/sub"), withIntermediateDirectories: true)
        for arguments in [[path("empty")], [path("in/tasks.json"), path("empty")]] {
            let run = report(["import", "--db", databasePath, "--force"] + arguments)
            XCTAssertEqual(run.code, .failure, run.err)
            XCTAssertEqual(
                run.errLines,
                ["report import: no export files under \(path("empty")) (looked for *.json, *.jsonl, *.ndjson and .gz)"]
            )
            XCTAssertEqual(run.out, "")
        }
        XCTAssertEqual(try count("tasks"), 3)
        XCTAssertEqual(try count("import_log"), 1, "no import was attempted")
        let check = report(["check", path("empty")])
        XCTAssertEqual(check.code, .failure, check.err)
    }

    func testImportingTwiceSkipsAndForcingGivesTheSameRows() throws {
        let file = try write("tasks.json", Self.tasks)
        XCTAssertEqual(report(["import", "--db", databasePath, file]).code, .success)
        let before = try snapshot()
        let again = report(["import", "--db", databasePath, file])
        XCTAssertEqual(again.code, .success)
        XCTAssertTrue(
            again.out.contains("skipped  \(file) (tasks): same content (SHA-256) as \(file) imported "), again.out)
        XCTAssertTrue(again.out.contains("use --force to import it again"))
        XCTAssertEqual(try snapshot(), before)
        // The same records under another name (an overlapping export) and --force: upserts, no duplicates.
        try write("tasks-copy.json", Self.tasks)
        XCTAssertEqual(
            report(["import", "--db", databasePath, "--force", file, path("tasks-copy.json")]).code, .success)
        XCTAssertEqual(try count("tasks"), 3)
        XCTAssertEqual(try count("import_log"), 3)
    }

    /// An importer on the test database that loads every file as a big one (`bulkIndexBytes` 0):
    /// indexes rebuilt, the digest looked up during the import.
    private func bulkImporter(force: Bool = false) throws -> (database: Database, importer: Importer) {
        let database = try Database(path: databasePath)
        var options = Importer.Options()
        options.bulkIndexBytes = 0
        options.force = force
        return (database, try Importer(database: database, modules: registeredModules.map(\.imports), options: options))
    }

    /// In a big file of any activity kind, the users go to `habits_record_users` with the records
    /// (staged and merged in key order on SQLite): every user of the stored records is listed once,
    /// one seen in an earlier file too, none of a file rolled back, and a record moved to another
    /// user leaves the first listed (as the table promises: read, it has nothing).
    func testABigActivityFileListsItsUsersOnceWithItsRecords() throws {
        let (database, importer) = try bulkImporter()
        func imported(_ name: String, _ records: [String]) throws -> Bool {
            let file = try write(name, "[" + records.joined(separator: ",\n") + "]")
            return !importer.importFile(ImportFiles.Entry(path: file, displayName: name)).failed
        }
        func listed() throws -> [String] {
            try database.rows("SELECT user_id FROM habits_record_users ORDER BY user_id").map { $0[0].string ?? "" }
        }
        // 300 tasks of 101 users met in no order (u0, u7, u14, …, u98, u4, …), each user about
        // three times: more new users than a batch statement's 32 rows, so they are staged.
        let tasks = (0..<300).map { index in
            #"{"id": "t\#(index)", "userId": "u\#((index * 7) % 101)", "date": "2026-11-28", "libelle": "L", "#
                + #""state": "a_faire"}"#
        }
        XCTAssertTrue(try imported("tasks.json", tasks))
        let first = (0..<101).map { "u\($0)" }.sorted()
        XCTAssertEqual(try listed(), first)
        let moods = ["u3", "n2", "u30", "n1", "n2"].enumerated().map { day, user in
            #"{"userId": "\#(user)", "date": "2026-11-0\#(day + 1)", "mood": 3}"#
        }
        XCTAssertTrue(try imported("moods.json", moods))
        XCTAssertEqual(try listed(), (first + ["n1", "n2"]).sorted())
        // A valid flow of a new user, then a record cut short: the file fails whole.
        let flow = #"{"id": "f1", "userId": "gone", "date": "2026-11-28", "libelleAction": "Run", "etat": "termine"}"#
        XCTAssertFalse(try imported("flows.json", [flow, #"{"id": "f2", "userId": "#]))
        XCTAssertEqual(try count("flows"), 0)
        XCTAssertEqual(try listed(), (first + ["n1", "n2"]).sorted(), "the failed file's user is not listed")
        XCTAssertTrue(try imported("tasks-moved.json", [tasks[0].replacingOccurrences(of: "\"u0\"", with: "\"m0\"")]))
        XCTAssertEqual(try listed(), (first + ["m0", "n1", "n2"]).sorted())
        XCTAssertEqual(try count("tasks"), 300)
        XCTAssertEqual(
            try database.scalarInt("SELECT count(*) FROM tasks WHERE user_id = 'u0'"), 2, "t0 moved to m0")
        XCTAssertTrue(try imported("flows-whole.json", [flow]), "the failed file's flow is valid on its own")
        XCTAssertEqual(try listed(), (first + ["gone", "m0", "n1", "n2"]).sorted())
    }

    /// A big file is hashed on its own thread while it is imported: the log keeps its SHA-256, and
    /// a second import of the same content, found once the digest is known, is rolled back and
    /// reported as skipped with the database as it was; `--force` imports it again.
    func testABigFileImportedTwiceIsSkippedOnceItsDigestIsKnown() throws {
        let records = (0..<3_000).map { index in
            #"{"id": "t\#(index)", "userId": "u\#(index % 7)", "date": "2026-11-28", "libelle": "L", "#
                + #""state": "a_faire"}"#
        }
        let file = try write("tasks.json", "[" + records.joined(separator: ",\n") + "]")
        let (database, importer) = try bulkImporter()
        let entry = ImportFiles.Entry(path: file, displayName: file)
        XCTAssertEqual(importer.importFile(entry).status, .imported)
        XCTAssertEqual(
            try database.rows("SELECT sha256 FROM import_log"), [[.text(try FileDigest.sha256(path: file).hex)]])
        let before = try snapshot()
        let again = importer.importFile(entry)
        guard case .skipped(let reason) = again.status else { return XCTFail("\(again.status)") }
        XCTAssertTrue(reason.hasPrefix("same content (SHA-256) as \(file) imported "), reason)
        XCTAssertEqual(again.records, 0)
        XCTAssertEqual(try snapshot(), before)
        XCTAssertEqual(try bulkImporter(force: true).importer.importFile(entry).status, .imported)
        XCTAssertEqual(try count("tasks"), 3_000)
        XCTAssertEqual(try count("import_log"), 2)
    }

    /// The hashing thread is over when `finish()` returns (it is joined, not only asked to stop):
    /// a `report nightly` that refused a zero-byte file and exited at once crashed with SIGSEGV
    /// (exit 139) when libcrypto was torn down under a thread still starting. Asked to stop at
    /// once, a 24 MiB file's thread has by then left its outcome: a failure (stopped) or, at
    /// most, the whole digest.
    func testFinishingADigestWaitsForItsThread() throws {
        let file = try write("big.json", String(repeating: " ", count: 24 << 20))
        for _ in 0..<20 {
            let digest = try BackgroundDigest(path: file)
            digest.finish()
            switch digest.ready {
            case .failure(let failure): XCTAssertEqual(failure.description, "\(file): SHA-256 stopped")
            case .success(let hex): XCTAssertEqual(hex, try FileDigest.sha256(path: file).hex)
            case nil: return XCTFail("finish() returned while the hashing thread still ran")
            }
            digest.finish()  // idempotent
        }
    }

    func testARejectedRecordIsReportedKeptAndTheOthersStored() throws {
        let file = try write(
            "tasks.json",
            """
            [{"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "A", "state": "terminee"},
             {"id": 1042, "userId": "u1", "date": "2016-13-42", "libelle": "B", "state": "terminee"},
             {"id": "t3", "userId": "u1", "date": "2026-11-28", "libelle": "C", "state": "fini"}]
            """)
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(
            run.errLines,
            [
                "\(file) record 2 (id 1042): field date: invalid date (YYYY-MM-DD) \"2016-13-42\"",
                "\(file) record 3 (id t3): field state: must be one of a_faire, en_cours, terminee \"fini\"",
            ])
        XCTAssertEqual(try database().rows("SELECT id FROM tasks"), [["t1"]])
        XCTAssertEqual(
            try database().rows("SELECT position, record_id, field, value, rule FROM import_rejects ORDER BY position"),
            [
                [2, "1042", "date", "\"2016-13-42\"", "invalid date (YYYY-MM-DD)"],
                [3, "t3", "state", "\"fini\"", "must be one of a_faire, en_cours, terminee"],
            ])
        XCTAssertEqual(try database().rows("SELECT records, accepted, rejected FROM import_log"), [[3, 1, 2]])
    }

    /// A NUL (`\u0000`) in a text: SQLite keeps it; PostgreSQL's text cannot hold one, so there
    /// the record is rejected, by file, record, field and value with the NUL written out, and
    /// nothing is cut: two ids that differ after a NUL stay two records on SQLite and are never
    /// merged into one on PostgreSQL (`NULText`).
    func testATextHoldingANULIsKeptOnSQLiteAndRejectedWholeOnPostgreSQL() throws {
        let file = try write(
            "tasks.json",
            #"""
            [{"id": "nul\u0000first", "userId": "u1", "date": "2026-11-28", "libelle": "A", "state": "terminee"},
             {"id": "nul\u0000second", "userId": "u1", "date": "2026-11-28", "libelle": "B", "state": "terminee"},
             {"id": "t3", "userId": "u1", "date": "2026-11-28", "libelle": "C", "state": "terminee",
              "contexte": ["Sport", "x\u0000y"]},
             {"id": "t4", "userId": "u\u0000", "date": "2026-11-28", "libelle": "D", "state": "terminee"},
             {"id": "t5", "userId": "u1", "date": "2026-11-28", "libelle": "E", "state": "terminee"}]
            """#)
        // A check for the same database says what the import will: the same code and lines.
        let check = report(["check", "--db", databasePath, file])
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(check.code, run.code, check.err)
        XCTAssertEqual(check.errLines, run.errLines)
        let rows = try database().rows("SELECT id, user_id, contexte FROM tasks ORDER BY import_seq")
        guard TestStore.backend == .postgresql else {
            XCTAssertEqual(run.code, .success, run.err)
            XCTAssertEqual(
                rows,
                [
                    ["nul\u{0}first", "u1", .null], ["nul\u{0}second", "u1", .null],
                    ["t3", "u1", #"["Sport","x\u0000y"]"#], ["t4", "u\u{0}", .null], ["t5", "u1", .null],
                ])
            XCTAssertEqual(try count("import_rejects"), 0)
            return
        }
        let rule = "holds U+0000 (NUL), which PostgreSQL text cannot store"
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(
            run.errLines,
            [
                #"\#(file) record 1 (id nul\u0000first): field id: \#(rule) "nul\u0000first""#,
                #"\#(file) record 2 (id nul\u0000second): field id: \#(rule) "nul\u0000second""#,
                #"\#(file) record 3 (id t3): field contexte[1]: \#(rule) "x\u0000y""#,
                #"\#(file) record 4 (id t4): field userId: \#(rule) "u\u0000""#,
            ])
        XCTAssertEqual(rows, [["t5", "u1", .null]])
        XCTAssertEqual(
            try database().rows("SELECT position, record_id, field, value, rule FROM import_rejects ORDER BY position"),
            [
                [1, #"nul\u0000first"#, "id", #""nul\u0000first""#, .text(rule)],
                [2, #"nul\u0000second"#, "id", #""nul\u0000second""#, .text(rule)],
                [3, "t3", "contexte[1]", #""x\u0000y""#, .text(rule)],
                [4, "t4", "userId", #""u\u0000""#, .text(rule)],
            ])
        XCTAssertEqual(try database().rows("SELECT records, accepted, rejected FROM import_log"), [[5, 1, 4]])
    }

    /// `report check` applies the rules of the database `--db`, else `$REPORT_DB`, names without
    /// opening it: for a PostgreSQL URL (here of no server at all) a text holding a NUL is rejected,
    /// as that import would; for a SQLite file, or by default, it is kept. A URL of a scheme that
    /// names no database is a usage error, as for an import.
    func testACheckRejectsATextHoldingANULWhereItsDatabaseIsPostgreSQL() throws {
        let file = try write(
            "tasks.json",
            #"""
            [{"id": "t1", "userId": "u\u0000", "date": "2026-11-28", "libelle": "A", "state": "terminee"},
             {"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "B", "state": "terminee"}]
            """#)
        let nowhere = "postgresql://report@127.0.0.1:1/none"
        let rule = "holds U+0000 (NUL), which PostgreSQL text cannot store"
        let rejected = #"\#(file) record 1 (id t1): field userId: \#(rule) "u\u0000""#
        for run in [
            report(["check", "--db", nowhere, file]), report(["check", file], environment: ["REPORT_DB": nowhere]),
        ] {
            XCTAssertEqual(run.code, .rejected, run.err)
            XCTAssertEqual(run.errLines, [rejected])
        }
        let sqlite = path("other.sqlite")
        for run in [
            report(["check", file]), report(["check", "--db", sqlite, file]),
            report(["check", "--db", sqlite, file], environment: ["REPORT_DB": nowhere]),
        ] {
            XCTAssertEqual(run.code, .success, run.err)
            XCTAssertEqual(run.errLines, [])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: sqlite), "a check opens nothing")
        let unsupported = report(["check", "--db", "mysql://db/report", file])
        XCTAssertEqual(unsupported.code, .usage)
        XCTAssertTrue(unsupported.err.contains("--db: unsupported URL scheme \"mysql://\""), unsupported.err)
    }

    func testARejectedRecordNeverReplacesAValidOne() throws {
        let first = try write(
            "tasks.json",
            #"[{"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "Bon", "state": "terminee"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, first]).code, .success)
        let second = try write(
            "tasks-2.json",
            #"[{"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "Mauvais", "state": "nope"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, second]).code, .rejected)
        XCTAssertEqual(try database().rows("SELECT libelle, state FROM tasks"), [["Bon", "terminee"]])
    }

    func testStrictStoresNothingOfAFileWithARejectedRecord() throws {
        let good = try write("a/users.json", #"[{"id": "u1"}]"#)
        let bad = try write(
            "b/tasks.json",
            """
            [{"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "A", "state": "terminee"},
             {"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "B", "state": "terminee",\
             "libelle": "again"}]
            """)
        let run = report(["import", "--db", databasePath, "--strict", good, bad])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            ["\(bad): record 2 (id t2): field libelle: repeated field; --strict: nothing of this file was stored"])
        XCTAssertEqual(try count("tasks"), 0)
        XCTAssertEqual(try count("users"), 1, "the other file of the run still imports")
        XCTAssertEqual(try database().rows("SELECT kind FROM import_log"), [["users"]])
        XCTAssertEqual(try count("import_rejects"), 0)
    }

    func testAFileCutInTheMiddleLeavesTheDatabaseAsItWas() throws {
        let users = try write("users.json", #"[{"id": "u1"}, {"id": "u2"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, users]).code, .success)
        let before = try snapshot()
        // Cut inside the second record's libelle string: the error names where that string starts.
        let cut = try String(Self.tasks[..<XCTUnwrap(Self.tasks.range(of: "\"Lire")).upperBound])
        let quoteOffset = cut.utf8.count - "\"Lire".utf8.count
        let truncated = try write("tasks.json", cut)
        let moreUsers = try write("users-2.json", #"[{"id": "u3"}]"#)
        let run = report(["import", "--db", databasePath, truncated, moreUsers])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(truncated): malformed JSON: unterminated string at byte \(quoteOffset); nothing of this file "
                    + "was stored"
            ])
        var after = try snapshot()
        XCTAssertEqual(after["tasks"], [])
        XCTAssertEqual(after["users"]?.count, 3, "the next file of the same run imports")
        after["users"] = before["users"]
        after["import_log"] = before["import_log"]
        // The store's count of writing transactions (on a backend that keeps one) moves with the users file.
        after["store_changes"] = before["store_changes"]
        XCTAssertEqual(after, before)
        XCTAssertEqual(
            try database().rows("SELECT file FROM import_log ORDER BY id"), [[.text(users)], [.text(moreUsers)]])
    }

    func testAFileCutBetweenRecordsFailsAtItsEnd() throws {
        let cut = try String(Self.tasks[..<XCTUnwrap(Self.tasks.range(of: "},")).upperBound])
        let truncated = try write("tasks.json", cut)
        let run = report(["import", "--db", databasePath, truncated])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(truncated): malformed JSON: unexpected end of file at byte \(cut.utf8.count); nothing of this "
                    + "file was stored"
            ])
        XCTAssertEqual(try count("tasks"), 0)
        XCTAssertEqual(try count("import_log"), 0)
    }

    /// Big files load without their table's secondary indexes and build them again before the
    /// commit; a failed file gets them back through the rollback.
    func testBulkLoadRebuildsIndexesAndARollbackRestoresThem() throws {
        let (database, importer) = try bulkImporter()
        func indexes() throws -> [String] { try database.secondaryIndexes(of: "tasks").map { $0.name + ": " + $0.sql } }
        let before = try indexes()
        XCTAssertEqual(
            try database.secondaryIndexes(of: "tasks").map(\.name), ["tasks_user_completed", "tasks_user_date"])
        let good = try write("tasks.json", Self.tasks)
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: good, displayName: good)).status, .imported)
        XCTAssertEqual(try indexes(), before)
        if TestStore.backend == .sqlite {
            XCTAssertEqual(
                try database.rows("SELECT id FROM tasks INDEXED BY tasks_user_date WHERE user_id = 'u1' ORDER BY id"),
                [["t1"], ["t2"]])
        }
        let cut = try write("tasks-cut.json", String(Self.tasks.dropLast(10)))
        XCTAssertTrue(importer.importFile(ImportFiles.Entry(path: cut, displayName: cut)).failed)
        XCTAssertEqual(try indexes(), before)
        XCTAssertEqual(try count("tasks"), 3)
    }

    /// A file's row in `import_log` is written last, once, with its final counts, under the id
    /// reserved at the start of its transaction: its rejected records and the sequence of its
    /// records name that id. A file that fails leaves neither row nor rejection; an insert without
    /// an id, as an earlier release of `report` makes it, still gets a new one, and the next file
    /// an id after it.
    func testTheLogRowIsWrittenLastUnderTheIdItsRecordsName() throws {
        let (database, importer) = try bulkImporter()
        func imported(_ name: String, _ content: String) throws -> FileOutcome.Status {
            let file = try write(name, content)
            return importer.importFile(ImportFiles.Entry(path: file, displayName: name)).status
        }
        func logged() throws -> [[SQLValue]] {
            try database.rows(
                "SELECT id, file, records, accepted, rejected, length(sha256), layout FROM import_log ORDER BY id")
        }
        XCTAssertEqual(
            try imported(
                "tasks.json",
                """
                [{"id": "t1", "userId": "u1", "date": "2026-11-28", "libelle": "A", "state": "terminee"},
                 {"id": "t2", "userId": "u1", "date": "2026-11-28", "libelle": "B", "state": "fini"},
                 {"id": "t3", "userId": "u2", "date": "2026-11-28", "libelle": "C", "state": "a_faire"}]
                """), .imported)
        let first = try XCTUnwrap(try logged().first?.first?.int)
        XCTAssertEqual(try logged(), [[.integer(first), "tasks.json", 3, 2, 1, 64, "array"]])
        XCTAssertEqual(try database.rows("SELECT DISTINCT import_id FROM import_rejects"), [[.integer(first)]])
        XCTAssertEqual(try database.rows("SELECT DISTINCT import_seq / 4294967296 FROM tasks"), [[.integer(first)]])

        let cut = try imported(
            "tasks-cut.json",
            #"[{"id": "t4", "userId": "u1", "date": "2026-11-28", "libelle": "D", "state": "fini"}, {"#)
        XCTAssertTrue("\(cut)".contains("nothing of this file was stored"), "\(cut)")
        XCTAssertEqual(try logged().count, 1)
        XCTAssertEqual(try count("import_rejects"), 1)

        try database.run(
            "INSERT INTO import_log (file, kind, size, sha256, records, accepted, rejected, started_at, finished_at) "
                + "VALUES ('earlier.json', 'tasks', 1, 'x', 0, 0, 0, '2026-11-28T00:00:00Z', '2026-11-28T00:00:00Z')")
        let earlier = try XCTUnwrap(try database.scalarInt("SELECT max(id) FROM import_log"))
        XCTAssertGreaterThan(earlier, first)
        XCTAssertEqual(
            try imported(
                "tasks-more.json",
                #"[{"id": "t5", "userId": "u3", "date": "2026-11-29", "libelle": "E", "state": "a_faire"}]"#),
            .imported)
        let last = try XCTUnwrap(try database.scalarInt("SELECT id FROM import_log WHERE file = 'tasks-more.json'"))
        XCTAssertGreaterThan(last, earlier)
        XCTAssertEqual(
            try database.rows("SELECT import_seq / 4294967296 FROM tasks WHERE id = 't5'"), [[.integer(last)]])
        XCTAssertEqual(try count("import_log"), 3)
    }

    /// A big file of a `WITHOUT ROWID` table (logins, moods: keyed by user, written day by day) is
    /// staged and merged in key order (`Database.loadInKeyOrder`, issue 32 item 2): the tables end
    /// as a row-by-row import of the same files leaves them, the last row of a key winning within a
    /// file and over an earlier file; a file that fails leaves them as they were, and the next
    /// file loads again.
    func testABulkFileOfAKeyOrderedTableEndsAsARowByRowImport() throws {
        func logins(days: ClosedRange<Int>, minute: Int) -> String {
            var lines: [String] = []
            for day in days {
                for user in 0..<10 {
                    let line = #"{"userId": "u\#(user)", "at": "2026-11-\#(day + 10)T07:\#(minute + user):00+01:00"}"#
                    lines.append(line)
                    if (day + user) % 5 == 0 { lines.append(line) }
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
        func moods(days: ClosedRange<Int>, shift: Int) -> String {
            var records: [String] = []
            for day in days {
                for user in 0..<10 {
                    let head = #"{"userId": "u\#(user)", "date": "2026-11-\#(day + 10)", "mood": "#
                    records.append(head + "\(1 + (day + user + shift) % 5)}")
                    if user == 3 { records.append(head + #"\#(1 + (day + shift) % 5), "note": "encore"}"#) }
                }
            }
            return "[\n" + records.joined(separator: ",\n") + "\n]\n"
        }
        let files = [
            try write("a/logins.jsonl", logins(days: 1...12, minute: 10)),
            try write("a/moods.json", moods(days: 1...12, shift: 0)),
            try write("b/logins.jsonl", logins(days: 10...14, minute: 10)),
            try write("b/moods.json", moods(days: 11...14, shift: 2)),
        ]
        let (database, bulk) = try bulkImporter()
        let rowByRow = try Database(path: try TestStore.freshLocation(in: directory.path, name: "row-by-row.sqlite"))
        let importer = try Importer(
            database: rowByRow, modules: registeredModules.map(\.imports), options: Importer.Options())
        for file in files {
            XCTAssertEqual(bulk.importFile(ImportFiles.Entry(path: file, displayName: file)).status, .imported)
            XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: file, displayName: file)).status, .imported)
        }
        let loginRows = "SELECT user_id, at_us, import_seq FROM logins ORDER BY user_id, at_us"
        let moodRows = "SELECT user_id, date, mood, note, import_seq FROM moods ORDER BY user_id, date"
        XCTAssertEqual(try database.rows(loginRows), try rowByRow.rows(loginRows))
        XCTAssertEqual(try database.rows(moodRows), try rowByRow.rows(moodRows))
        XCTAssertEqual(try count("logins"), 140)
        XCTAssertEqual(try count("moods"), 140)
        XCTAssertEqual(try database.scalarInt("SELECT count(*) FROM moods WHERE note = 'encore'"), 14)

        let before = try snapshot()
        let cut = try write("c/moods.json", String(moods(days: 1...14, shift: 4).dropLast(30)))
        XCTAssertTrue(bulk.importFile(ImportFiles.Entry(path: cut, displayName: cut)).failed)
        XCTAssertEqual(try snapshot(), before)
        let last = try write("d/logins.jsonl", logins(days: 15...15, minute: 30))
        XCTAssertEqual(bulk.importFile(ImportFiles.Entry(path: last, displayName: last)).status, .imported)
        XCTAssertEqual(try count("logins"), 150)
    }

    /// Rows a writer staged for a load in key order are in the table for a read inside the
    /// transaction (the writer merges them first) and gone with a rollback, stage included.
    func testRowsStagedInKeyOrderAreReadInTheTransactionAndGoneAfterARollback() throws {
        let database = try Database(path: databasePath)
        try Schema.migrate(database, ImportLog.migrations(for: registeredModules.map(\.imports)))
        func load(_ range: Range<Int>) throws {
            try database.loadInKeyOrder(["logins"])
            let writer = try database.upsertWriter(
                table: "logins", columns: ["user_id", "at_us", "import_seq"], key: ["user_id", "at_us"])
            for index in range {
                try writer.write([.text("u\(index % 7)"), .integer(Int64(index / 7)), .integer(Int64(index))])
            }
        }
        struct Rollback: Error {}
        XCTAssertThrowsError(
            try database.transaction {
                try load(0..<100)
                XCTAssertEqual(try database.scalarInt("SELECT count(*) FROM logins"), 100)
                throw Rollback()
            })
        XCTAssertEqual(try database.scalarInt("SELECT count(*) FROM logins"), 0)
        try database.transaction { try load(0..<70) }
        try database.transaction { try load(50..<120) }
        XCTAssertEqual(try database.scalarInt("SELECT count(*) FROM logins"), 120)
        XCTAssertEqual(try database.scalarInt("SELECT max(import_seq) FROM logins WHERE user_id = 'u1'"), 113)
    }

    /// The habits cache is kept right by the importers, not by triggers (habits step 6; Citus
    /// refuses to distribute a table with triggers): no table has one; a load into an empty cache
    /// leaves it empty; once it holds states, a file that moves one of u1's tasks to another day
    /// deletes u1's state and leaves u2's; the same task imported again unchanged deletes nothing;
    /// a user whose time zone changes loses every state.
    func testTheImporterInvalidatesTheStreakCacheWithoutTriggers() throws {
        let (database, importer) = try bulkImporter()
        let good = try write("tasks.json", Self.tasks)
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: good, displayName: good)).status, .imported)
        let triggers =
            TestStore.backend == .sqlite
            ? "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
            : "SELECT count(*) FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid "
                + "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace"
        XCTAssertEqual(try database.scalarInt(triggers), 0)
        XCTAssertEqual(try count("tasks"), 3)
        XCTAssertEqual(try count("habits_streak_state"), 0)

        // States of u1 and u2 through 2026-12-10 (day 20797), after the tasks.
        func saveStates() throws {
            try database.run("DELETE FROM habits_streak_state")
            for user in ["u1", "u2"] {
                try database.run(
                    "INSERT INTO habits_streak_state (user_id, day_start, through_day, consistency, run, best_streak) "
                        + "VALUES (?, 0, 20797, 0.5, 1, 1)", [.text(user)])
            }
        }
        func states() throws -> [[SQLValue]] {
            try database.rows("SELECT user_id FROM habits_streak_state ORDER BY user_id")
        }
        try saveStates()
        let again = try write("tasks-again.json", Self.tasks)
        XCTAssertEqual(
            try Importer(database: database, modules: registeredModules.map(\.imports), options: forced())
                .importFile(ImportFiles.Entry(path: again, displayName: again)).status, .imported)
        XCTAssertEqual(try states(), [["u1"], ["u2"]], "an unchanged record must leave the cache alone")

        let moved = try write(
            "tasks-moved.json",
            #"[{"id": "t2", "userId": "u1", "date": "2026-11-27", "libelle": "Lire", "state": "a_faire"}]"#)
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: moved, displayName: moved)).status, .imported)
        XCTAssertEqual(try states(), [["u2"]])
        XCTAssertEqual(try database.rows("SELECT date FROM tasks WHERE id = 't2'"), [["2026-11-27"]])

        // A state through a day before the task's earliest day stays: 2026-11-20 (day 20777).
        try database.run("UPDATE habits_streak_state SET through_day = 20777")
        let later = try write(
            "tasks-later.json",
            #"[{"id": "t9", "userId": "u2", "date": "2026-11-29", "libelle": "Marcher", "state": "a_faire"}]"#)
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: later, displayName: later)).status, .imported)
        XCTAssertEqual(try states(), [["u2"]])

        try saveStates()
        let users = try write(
            "users.json",
            #"[{"id": "u2", "timezone": "Europe/Paris"}]"#)
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: users, displayName: users)).status, .imported)
        XCTAssertEqual(try states(), [["u1"]])
    }

    private func forced() -> Importer.Options {
        var options = Importer.Options()
        options.bulkIndexBytes = 0
        options.force = true
        return options
    }

    /// An assignments file fills two tables in bulk, its loan records' too: both lose their
    /// secondary indexes for the load and get them back before the commit (or by the rollback of a
    /// failed file), and the records are found through the rebuilt index.
    func testABulkAssignmentsFileRebuildsTheLoanRecordsIndexToo() throws {
        let (database, importer) = try bulkImporter()
        func indexes() throws -> [String] {
            try ["assignments", "loan_records"].flatMap { table in
                try database.secondaryIndexes(of: table).map { "\(table) \($0.name): \($0.sql)" }
            }
        }
        let before = try indexes()
        XCTAssertEqual(
            try database.secondaryIndexes(of: "loan_records").map(\.name), ["loan_records_event_assignment"])
        let sample = try String(
            contentsOf: NightlyCommandTests.sampleData.appendingPathComponent("fleet/assignments.json"), encoding: .utf8
        )
        let good = try write("assignments.json", sample)
        XCTAssertEqual(importer.importFile(ImportFiles.Entry(path: good, displayName: good)).status, .imported)
        XCTAssertEqual(try indexes(), before)
        let records = try XCTUnwrap(try database.scalarInt("SELECT COUNT(*) FROM loan_records"))
        XCTAssertGreaterThan(records, 100)
        let indexed = TestStore.backend == .sqlite ? "INDEXED BY loan_records_event_assignment " : ""
        XCTAssertEqual(
            try database.scalarInt(
                "SELECT COUNT(*) FROM loan_records \(indexed)WHERE event_id >= '' AND assignment_id >= '' "
                    + "AND kind IN ('check_out', 'check_in')"
            ),
            records)
        let cut = try write("assignments-cut.json", String(sample.dropLast(10)))
        XCTAssertTrue(importer.importFile(ImportFiles.Entry(path: cut, displayName: cut)).failed)
        XCTAssertEqual(try indexes(), before)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM loan_records"), records)
    }

    /// Compresses `content` with the system's gzip into `name` (one gzip member per part).
    @discardableResult
    func writeGzip(_ name: String, _ parts: [String]) throws -> String {
        var data = Data()
        for (index, part) in parts.enumerated() {
            let plain = try write("gzip-\(index).txt", part)
            let gzip = try ChildProcess.run("/bin/gzip", ["-n", "-f", plain])  // plain -> plain.gz
            XCTAssertEqual(gzip.status, 0, gzip.err)
            data += try Data(contentsOf: URL(fileURLWithPath: plain + ".gz"))
            try FileManager.default.removeItem(atPath: plain + ".gz")
        }
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return path(name)
    }

    func testGzipFilesImportLikeTheirContent() throws {
        let tasks = try writeGzip("in/tasks.json.gz", [Self.tasks])
        // Two gzip members, as `cat a.gz b.gz` makes, and JSON Lines told from `.jsonl.gz`.
        try writeGzip(
            "in/logins.jsonl.gz",
            [
                "{\"userId\": \"u1\", \"at\": \"2026-11-28T08:00:00+01:00\"}\n",
                "{\"userId\": \"u2\", \"at\": \"2026-11-28T09:00:00Z\"}\n",
            ])
        let run = report(["import", "--db", databasePath, path("in")])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.out.contains("imported \(tasks) (tasks): 3 records, 3 accepted, 0 rejected"), run.out)
        XCTAssertEqual(try count("tasks"), 3)
        XCTAssertEqual(try database().rows("SELECT user_id FROM logins ORDER BY user_id"), [["u1"], ["u2"]])
    }

    func testACutOrFakeGzipFileFailsAloneAndStoresNothing() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try writeGzip("whole.json.gz", [Self.tasks])))
        try whole.prefix(whole.count / 2).write(to: directory.appendingPathComponent("tasks.json.gz"))
        try write("users.json.gz", "[{\"id\": \"u1\"}]")  // not compressed at all
        let run = report(["import", "--db", databasePath, path("tasks.json.gz"), path("users.json.gz")])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(run.errLines.count, 2, run.err)
        XCTAssertEqual(
            run.errLines[0],
            "\(path("tasks.json.gz")): gzip data cut short (the file is truncated); nothing of this file was stored")
        XCTAssertEqual(
            run.errLines[1],
            "\(path("users.json.gz")): invalid gzip data (incorrect header check); nothing of this file was stored")
        XCTAssertEqual(try count("tasks"), 0)
        XCTAssertEqual(try count("users"), 0)
        XCTAssertEqual(try count("import_log"), 0)
    }

    func testJSONLinesBadLineIsOneRejectedRecord() throws {
        let file = try write(
            "logins.jsonl",
            """
            {"userId": "u1", "at": "2026-11-28T08:00:00+01:00"}
            {"userId": "u1", "at": 
            {"userId": "u2", "at": "2026-11-28T09:00:00Z"}
            [1, 2]
            """)
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(run.errLines.count, 2, run.err)
        XCTAssertTrue(
            run.errLines[0].hasPrefix("\(file) record 2 (line 2): field (record): invalid JSON: "), run.errLines[0])
        XCTAssertEqual(run.errLines[1], "\(file) record 4 (line 4): field (record): not an object [1,2]")
        XCTAssertEqual(try count("logins"), 2)
    }

    func testAnObjectThatIsNotAWrapperIsReadAsJSONLines() throws {
        let file = try write(
            "moods.json",
            """
            {"userId": "u1", "date": "2026-11-27", "mood": 4}
            {"userId": "u1", "date": "2026-11-28", "mood": 2, "note": "fatigué"}
            """)
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(
            try database().rows("SELECT date, mood, note FROM moods ORDER BY date"),
            [
                ["2026-11-27", 4, .null], ["2026-11-28", 2, "fatigué"],
            ])
    }

    func testLoanRecordsBeforeTheirAssignments() throws {
        let records = try write(
            "loan_records.jsonl",
            """
            {"id": "r-in", "assignment_id": "a1", "kind": "check_in", "recorded_at": "2016-10-01T18:00:00+02:00",\
             "oil_level": 3, "interior_cleanliness": 4, "exterior_cleanliness": 3, "mileage_km": 1250}
            """)
        let assignments = try write(
            "assignments.json",
            """
            {"exported_at": "2016-10-02T00:00:00Z", "assignments": [
              {"id": "a1", "event_id": "salon2016", "brand_name": "Porsche", "license_plate_number": "ab-123-cd",
               "planned_time_out": "2016-10-01T10:00:00+02:00", "planned_time_in": "2016-10-01T17:00:00+02:00",
               "check_out_record": {"id": "r-out", "recorded_at": "2016-10-01T10:05:00+02:00", "oil_level": 4,\
             "interior_cleanliness": 4, "exterior_cleanliness": 4, "mileage_km": 1200}}
            ]}
            """)
        let run = report(["import", "--db", databasePath, records, assignments])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertEqual(
            try database().rows("SELECT id, assignment_id, kind FROM loan_records ORDER BY id"),
            [
                ["r-in", "a1", "check_in"], ["r-out", "a1", "check_out"],
            ])
        XCTAssertEqual(try database().rows("SELECT plate FROM assignments"), [["AB123CD"]])
    }

    func testUnknownKindAndMissingPathsAreClearErrors() throws {
        let file = try write("export.json", "[]")
        let run = report(["import", "--db", databasePath, file])
        XCTAssertEqual(run.code, .failure)
        XCTAssertEqual(
            run.errLines,
            [
                "\(file): cannot tell the kind of file from its name; names start with one of: "
                    + "\(KindRegistry(registeredModules.map(\.imports)).knownNames); or use --kind NAME"
            ])
        XCTAssertEqual(report(["import", "--db", databasePath, "--kind", "tasks", file]).code, .success)
        let missing = report(["import", "--db", databasePath, path("nope")])
        XCTAssertEqual(missing.code, .failure)
        XCTAssertEqual(missing.errLines, ["report import: \(path("nope")): no such file or folder"])
        let badKind = report(["import", "--db", databasePath, "--kind", "task", file])
        XCTAssertEqual(badKind.code, .usage)
        XCTAssertEqual(
            badKind.errLines,
            [
                "report import: --kind: unknown kind \"task\"; known kinds: "
                    + "\(KindRegistry(registeredModules.map(\.imports)).knownNames)"
            ])
    }

    func testCheckStoresNothing() throws {
        let file = try write(
            "tasks.json", Self.tasks.replacingOccurrences(of: "\"state\": \"a_faire\"", with: "\"state\": \"done\""))
        let run = report(["check", file], environment: ["REPORT_DB": databasePath])
        XCTAssertEqual(run.code, .rejected)
        XCTAssertEqual(
            run.errLines, ["\(file) record 2 (id t2): field state: must be one of a_faire, en_cours, terminee \"done\""]
        )
        XCTAssertTrue(run.out.contains("checked  \(file) (tasks): 3 records, 2 accepted, 1 rejected"), run.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath))
    }

    /// More rejections than a file's messages: the check says where they would be kept, since it
    /// keeps none; it opens no database (a `--db`-less run in a folder it cannot write still checks).
    func testCheckSaysItKeepsNoRejectionAndOpensNoDatabase() throws {
        let records = (1...25).map { #"{"id": "t\#($0)", "user_id": "u1", "date": "2026-11-01", "state": "done"}"# }
        let file = try write("tasks.jsonl", records.joined(separator: "\n") + "\n")
        let run = report(["check", file], environment: ["REPORT_DB": "/proc/no-such-folder/report.sqlite"])
        XCTAssertEqual(run.code, .rejected, run.err)
        XCTAssertEqual(
            run.errLines.last,
            "\(file): 5 more rejected records (check stores nothing: `report import` keeps them all in the "
                + "import_rejects table)")
        let imported = report(["import", "--db", databasePath, file])
        XCTAssertEqual(imported.code, .rejected, imported.err)
        XCTAssertEqual(imported.errLines.last, "\(file): 5 more rejected records (all are in the import_rejects table)")
        XCTAssertEqual(try Database(path: databasePath).scalarInt("SELECT COUNT(*) FROM import_rejects"), 25)
    }

    func testTheDatabaseComesFromTheEnvironmentUnlessGiven() throws {
        let file = try write("users.json", #"[{"id": "u1"}]"#)
        let other = path("other.sqlite")
        XCTAssertEqual(report(["import", file], environment: ["REPORT_DB": other]).code, .success)
        XCTAssertTrue(FileManager.default.fileExists(atPath: other))
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath))
        XCTAssertEqual(
            report(["import", "--db", databasePath, file], environment: ["REPORT_DB": other]).code, .success)
        XCTAssertEqual(try count("users"), 1)
    }

    func testStatusShowsWhatTheDatabaseHolds() throws {
        try write("in/tasks.json", Self.tasks)
        try write("in/users.json", #"[{"id": "u1"}]"#)
        XCTAssertEqual(report(["import", "--db", databasePath, path("in")]).code, .success)
        let run = report(["status", "--db", databasePath])
        XCTAssertEqual(run.code, .success, run.err)
        XCTAssertTrue(run.out.contains("\nusers "), run.out)
        XCTAssertTrue(
            run.outLines.contains { $0.hasPrefix("tasks") && $0.contains(" 3 ") && $0.contains("2026-11-28") }, run.out)
        XCTAssertTrue(run.out.contains("2 files imported, 0 rejected records kept"), run.out)
        let missing = report(["status", "--db", path("none.sqlite")])
        XCTAssertEqual(missing.code, .failure)
        XCTAssertEqual(
            missing.errLines,
            [
                "report status: \(path("none.sqlite")): no such database; run `report import PATH...` first, or give "
                    + "--db PATH"
            ])
    }

    func testVersionHelpAndUsageExitCodes() {
        XCTAssertEqual(report(["--version"]).out, "report \(ReportVersion.current)\n")
        let help = report(["import", "--help"])
        XCTAssertEqual(help.code, .success)
        XCTAssertEqual(help.out, HelpFormatter.help(for: ImportCommand.spec))
        XCTAssertEqual(report([]).code, .usage)
        XCTAssertEqual(report(["frobnicate"]).code, .usage)
        XCTAssertEqual(report(["import"]).code, .usage)
    }
}
