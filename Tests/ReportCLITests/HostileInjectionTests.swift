import ArgumentParsing
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Import
import ReportModel
import Time
import Writers
import ReportTestSupport
import XCTest
@testable import ReportCLI
@testable import Import
@testable import ReportModel
@testable import Time
@testable import Writers

/// Injection and escape (issue 8): text from the data or the command line is only ever data.
/// No SQL runs but the tool's own, no file lands outside the output folder, and every format
/// shows the text without letting it become a formula, a table cell break, markup or a cut.
final class HostileInjectionTests: CLITestCase {
    static let sqlId = "x'); DROP TABLE tasks; --"
    static let hostileIds = [
        sqlId, #"quote " and ' both"#, ";", "../../etc/passwd", "/", "a\u{0}b", "\\", "%s%n", "' OR '1'='1",
        String(repeating: "L", count: 10_000),
    ]

    func testHostileIdsAreStoredVerbatimAndRunNoSQL() throws {
        let tasks = Self.hostileIds.map { id in
            (#"{"id": \#(Self.json(id)), "userId": \#(Self.json(id)), "date": "2026-11-28", "#
                + #""libelle": \#(Self.json(id)), "state": "terminee"}"#)
        }
        let file = try write("tasks.json", "[" + tasks.joined(separator: ",\n") + "]")
        let run = report(["import", "--db", databasePath, file])
        // PostgreSQL's text cannot hold the NUL: that record is rejected there, whole (NULText).
        let storable = Self.hostileIds.filter { TestStore.backend == .sqlite || !$0.utf8.contains(0) }
        XCTAssertEqual(run.code, storable.count == Self.hostileIds.count ? .success : .rejected, run.err)
        let stored = try database().rows("SELECT id, user_id, libelle FROM tasks").map { $0.compactMap(\.string) }
        XCTAssertEqual(Set(stored), Set(storable.map { [$0, $0, $0] }))
        XCTAssertEqual(stored.count, storable.count)
        try assertEveryTableExists()

        // The same ids on the command line, and a report for each: nothing but a report runs.
        for user in [Self.sqlId, "' OR '1'='1", "../../etc/passwd"] {
            let habits = report([
                "habits", "--db", databasePath, "--date", "2026-11-28", "--user", user,
                "--as-of", "2026-11-29T06:00:00+01:00", "--csv", "-o", directory.path, "-q",
            ])
            XCTAssertEqual(habits.code, .success, habits.err)
            let daily = try String(
                contentsOf: directory.appendingPathComponent("habits-2026-11-28/daily.csv"), encoding: .utf8)
            XCTAssertEqual(CSV.parse(daily).dropFirst().map { $0.first }, [user], "only the user asked for, verbatim")
        }
        let unknown = report([
            "habits", "--db", databasePath, "--date", "2026-11-28", "--user", "nobody'; DELETE FROM tasks; --",
        ])
        XCTAssertEqual(unknown.code, .failure)
        XCTAssertEqual(unknown.errLines.count, 1, unknown.err)
        XCTAssertTrue(unknown.err.contains("nobody'; DELETE FROM tasks; --"), unknown.err)
        XCTAssertEqual(try count("tasks"), Int64(storable.count))
        let event = report(["fleet", "--db", databasePath, "--event", "x'); DROP TABLE events; --"])
        XCTAssertEqual(event.code, .failure)
        XCTAssertEqual(event.errLines, ["report fleet: no events imported yet; import an events file first"])
        try assertEveryTableExists()
    }

    /// An event id that climbs out (`../../evil`) and one of 10,000 characters: the files land in
    /// the output folder under sanitized names, and nothing else on disk changes.
    func testReportFilesNeverLeaveTheOutputFolder() throws {
        try importHostileFleet(eventId: "../../evil")
        let output = directory.appendingPathComponent("a/b/out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let before = try listing(directory).filter { !$0.hasPrefix("a/b/out/") }
        let run = report([
            "fleet", "--db", databasePath, "--event", "../../evil", "--as-of", "2016-10-03T00:00:00Z",
            "--xlsx", "--csv", "--md", "-o", output.path,
        ])
        XCTAssertEqual(run.code, .success, run.err)
        let after = try listing(directory)
        XCTAssertEqual(
            after.filter { !$0.hasPrefix("a/b/out/") && !$0.hasPrefix("report.sqlite") },
            before.filter { !$0.hasPrefix("report.sqlite") }, "nothing outside the output folder changed")
        XCTAssertEqual(
            try listing(output),
            [
                "fleet-.._.._evil-daily-utilization.png", "fleet-.._.._evil-daily-utilization.svg",
                "fleet-.._.._evil-damage-by-type.png", "fleet-.._.._evil-damage-by-type.svg",
                "fleet-.._.._evil-heatmap.png", "fleet-.._.._evil-heatmap.svg",
                "fleet-.._.._evil.md", "fleet-.._.._evil.xlsx", "fleet-.._.._evil/",
                "fleet-.._.._evil/daily.csv", "fleet-.._.._evil/damage.csv", "fleet-.._.._evil/datapackage.json",
                "fleet-.._.._evil/drivers.csv",
                "fleet-.._.._evil/loans.csv", "fleet-.._.._evil/quality.csv", "fleet-.._.._evil/summary.csv",
                "fleet-.._.._evil/vehicles.csv",
            ])

        // 10,000 characters: cut, with a hash of the whole id so that distinct ids stay distinct.
        let long = String(repeating: "../", count: 3_000) + String(repeating: "x", count: 1_000)
        try importHostileFleet(eventId: long, file: "events-long.json")
        let longRun = report([
            "fleet", "--db", databasePath, "--event", long, "--as-of", "2016-10-03T00:00:00Z",
            "--csv", "--md", "-o", output.path, "-q",
        ])
        XCTAssertEqual(longRun.code, .success, longRun.err)
        let stem = OutputFiles.sanitizeFileName("fleet-" + long)
        XCTAssertLessThanOrEqual(stem.utf8.count, OutputFiles.maximumNameBytes)
        XCTAssertTrue(stem.hasSuffix("-" + OutputFiles.hexHash("fleet-" + long)), stem)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent(stem + "/loans.csv").path))
        XCTAssertTrue(
            try listing(output).allSatisfy {
                $0.split(separator: "/").allSatisfy { $0.utf8.count <= OutputFiles.maximumNameBytes }
            })
        XCTAssertEqual(
            try listing(directory).filter {
                !$0.hasPrefix("a/b/out/") && !$0.hasPrefix("report.sqlite") && !$0.hasSuffix(".json")
            },
            before.filter { !$0.hasPrefix("report.sqlite") && !$0.hasSuffix(".json") })
    }

    func testCSVCellsThatLookLikeFormulasAreNeutralized() throws {
        let folder = try writeHostileFleetReport()
        let vehicles = try table(folder.appendingPathComponent("vehicles.csv"))
        XCTAssertEqual(vehicles.map { $0["plate"] }, ["../../AB123", "'=1+1"])
        XCTAssertEqual(vehicles.map { $0["brand"] }, ["'=cmd|' /C calc'!A0", "B"])
        XCTAssertEqual(vehicles.map { $0["group"] }, [#"'=HYPERLINK("http://x")|<script>&'""#, "'+1\r\n-2"])
        let drivers = try table(folder.appendingPathComponent("drivers.csv"))
        XCTAssertEqual(drivers.map { $0["driver"] }, ["'@SUM(A1)|pipe\nnewline <tag>"])
        XCTAssertEqual(drivers.map { $0["company"] }, ["'-2+3"])
        let loans = try table(folder.appendingPathComponent("loans.csv"))
        XCTAssertEqual(Set(loans.compactMap { $0["assignment_id"] }), ["a\u{FFFD}b;\"'", Self.sqlId, "'\tTAB"])
        // Every text cell that a spreadsheet would run starts with the quote; numbers stay numbers.
        for (name, textColumns) in [
            ("vehicles.csv", ["plate", "brand", "model", "group"]),
            ("loans.csv", ["assignment_id", "plate", "group", "driver"]),
            ("drivers.csv", ["driver_id", "driver", "company"]),
        ] {
            for row in try table(folder.appendingPathComponent(name)) {
                for column in textColumns {
                    guard let cell = row[column], let first = cell.first else { continue }
                    XCTAssertFalse("=+-@\t\r".contains(first), "\(name) \(column): \(cell)")
                }
            }
        }
        // A NUL from `\u0000` never reaches a CSV file (CSV readers stop at it).
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            XCTAssertFalse(try Data(contentsOf: folder.appendingPathComponent(file)).contains(0), file)
        }
    }

    func testMarkdownEscapesPipesLineBreaksAndMarkup() throws {
        let folder = try writeHostileFleetReport()
        let markdown = try String(
            contentsOf: folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + ".md"),
            encoding: .utf8)
        XCTAssertFalse(markdown.utf8.contains(0))
        XCTAssertFalse(
            markdown.contains("<script>") || markdown.contains("<tag>") || markdown.contains("<svg"),
            "no raw HTML from the data")
        XCTAssertTrue(markdown.contains(#"| @SUM(A1)\|pipe<br>newline &lt;tag> | -2+3 |"#), markdown)
        XCTAssertTrue(markdown.contains(#"=HYPERLINK("http://x")\|&lt;script>&'""#), markdown)
        // A NUL in an id shows as U+FFFD (the loans table, latest first, shows the never-out ones).
        XCTAssertTrue(markdown.contains("| a\u{FFFD}b;\"' | =1+1 |"), markdown)
        XCTAssertTrue(markdown.contains("- Scope: ../../evil"), markdown)
        // Every row of a table has the header's number of cells once escaped pipes are set aside.
        var expected: Int?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard line.hasPrefix("|") else { expected = nil; continue }
            let cells = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count - 1
            if let expected { XCTAssertEqual(cells, expected, line) } else { expected = cells }
        }
    }

    /// Strings stay strings in the workbook (never formulas), and a NUL does not cut a cell short
    /// (libxlsxwriter takes C strings).
    func testXLSXKeepsHostileTextWholeAndInert() throws {
        let folder = try writeHostileFleetReport()
        let workbook = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + ".xlsx")
        let unzip = try RequiredTool.path(["unzip"], install: "apt-get install unzip")
        let sheets = try ChildProcess.run(unzip, ["-p", workbook.path, "xl/worksheets/*.xml"])
        XCTAssertEqual(sheets.status, 0, sheets.err)
        XCTAssertTrue(sheets.out.contains("a\u{FFFD}b;"), "the NUL became U+FFFD and the rest of the id is kept")
        XCTAssertTrue(sheets.out.contains("x'); DROP TABLE tasks; --"))
        XCTAssertTrue(sheets.out.contains("=cmd|' /C calc'!A0"))
        XCTAssertFalse(sheets.out.contains("<f>"), "no cell is a formula")
        XCTAssertFalse(sheets.out.utf8.contains(0))
    }

    /// The fleet SVGs parse as XML; and since their labels come from fixed names, a report whose
    /// chart categories and titles are hostile text is rendered too, through the same writer.
    func testSVGTextIsEscaped() throws {
        let folder = try writeHostileFleetReport()
        let pictures = try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
            .filter { $0.hasSuffix(".svg") }
        XCTAssertEqual(pictures.count, 3)
        for picture in pictures {
            let parsed = try SVGText.parse(
                Data(contentsOf: folder.deletingLastPathComponent().appendingPathComponent(picture)))
            XCTAssertEqual(parsed.elements.first, "svg", picture)
        }

        let hostile = [
            "</text><script>alert(1)</script>", "a & b \"q\" 'r'", "nul\u{0}here", "]]><!--", "\u{FFFF}x\u{1B}[31m",
        ]
        let rows = hostile.enumerated().map { [Value.text($0.element), .integer(Int64($0.offset + 1))] }
        let table = Table(name: "things", columns: [Column("label"), Column("count", .integer)], rows: rows)
        let sample = Report(
            kind: "hostile", title: "<b>Title</b> & co", scope: "s", asOf: Timestamp(microseconds: 0),
            tables: [table],
            charts: [
                Chart(
                    .column, title: "Columns <x>", table: "things", category: "label", series: ["count"],
                    fileStem: "columns"),
                Chart(
                    .pie, title: "Pie & \"slices\"", table: "things", category: "label", series: ["count"],
                    fileStem: "pie"),
            ])
        let written = try MarkdownWriter().write(sample, to: directory)
        let svgs = written.filter { $0.pathExtension == "svg" }
        XCTAssertEqual(svgs.count, 2)
        for (url, title) in zip(svgs.sorted { $0.path < $1.path }, ["Columns <x>", "Pie & \"slices\""]) {
            let parsed = try SVGText.parse(Data(contentsOf: url))
            XCTAssertEqual(parsed.text.first, title, url.lastPathComponent)
            XCTAssertFalse(parsed.elements.contains("script"), url.lastPathComponent)
            let text = parsed.text.joined(separator: "\n")
            // Long labels are cut with an ellipsis; what is shown is the text itself.
            XCTAssertTrue(text.contains("</text><script>…"), text)
            XCTAssertTrue(
                text.contains("\u{FFFD}x\u{FFFD}[31m"), "controls and U+FFFF, which XML forbids, are replaced")
            XCTAssertTrue(text.contains("a & b \"q\" 'r'"), text)
            XCTAssertTrue(text.contains("nul\u{FFFD}here"), text)
        }
    }

    // MARK: - Fixtures

    /// A fleet export whose names and ids are hostile; the event is `eventId`.
    private func importHostileFleet(eventId: String, file: String = "events.json") throws {
        func record(_ id: String, _ at: String, impacts: String) -> String {
            (#"{"id": "\#(id)", "recorded_at": "\#(at)", "mileage_km": 100, "oil_level": 3, "#
                + #""interior_cleanliness": 3, "exterior_cleanliness": 3, "signature": [[[1, 1], [2, 2]]], "#
                + #""impacts": \#(impacts)}"#)
        }
        let event = Self.json(eventId)
        let suffix = file == "events.json" ? "" : "-" + String(file.dropFirst("events-".count).dropLast(".json".count))
        try write(
            "in/\(file)",
            (#"[{"id": \#(event), "name": "Evil <b>&\"'</b> | x\ny", "starts_on": "2016-10-01", "ends_on": "#
                + #""2016-10-02", "opens_at": "10:00", "closes_at": "20:00"}]"#)
        )
        try write(
            "in/groups\(suffix).json",
            (#"[{"id": "g1\#(suffix)", "event_id": \#(event), "name": "=HYPERLINK(\"http://x\")|<script>&'\""},"#
                + #" {"id": "g2\#(suffix)", "event_id": \#(event), "name": "+1\r\n-2"}]"#)
        )
        try write("in/drivers.json", #"[{"id": "d1", "name": "@SUM(A1)|pipe\nnewline <tag>", "company": "-2+3"}]"#)
        let checkOut = record("r1\(suffix)", "2016-10-01T10:05:00+02:00", impacts: "[]")
        let checkIn = record(
            "r2\(suffix)", "2016-10-01T12:30:00+02:00", impacts: #"[{"type": "scratch", "x": 10, "y": 10}]"#)
        try write(
            "in/assignments\(suffix).json",
            """
            [{"id": \(Self.json(Self.sqlId + suffix)), "event_id": \(event), "group_id": "g1\(suffix)",\
             "driver_id": "d1", "brand_name": "=cmd|' /C calc'!A0", "model_name": "<svg onload=alert(1)>",\
             "license_plate_number": "../../AB-123", "planned_time_out": "2016-10-01T10:00:00+02:00",\
             "planned_time_in": "2016-10-01T12:00:00+02:00", "check_out_record": \(checkOut),\
             "check_in_record": \(checkIn)},
             {"id": "a\\u0000b;\\"'\(suffix)", "event_id": \(event), "group_id": "g2\(suffix)", "brand_name": "B",\
             "license_plate_number": "=1+1", "planned_time_out": "2016-10-01T13:00:00+02:00",\
             "planned_time_in": "2016-10-01T14:00:00+02:00"},
             {"id": "\\tTAB\(suffix)", "event_id": \(event), "brand_name": "B", "license_plate_number": "=1+1",\
             "planned_time_out": "2016-10-01T15:00:00+02:00", "planned_time_in": "2016-10-01T16:00:00+02:00"}]
            """)
        let run = report(["import", "--db", databasePath, path("in"), "-q"])
        // The assignment whose id holds a NUL is rejected on PostgreSQL (NULText), stored on SQLite.
        XCTAssertEqual(run.code, TestStore.backend == .sqlite ? .success : .rejected, run.err)
    }

    /// Imports the hostile fleet and writes every format; returns the CSV folder. SQLite only:
    /// what these tests check is the writers (the same on every backend) given an id holding a
    /// NUL, which PostgreSQL cannot store (its import rejects that record, `ImportCommandTests`).
    private func writeHostileFleetReport() throws -> URL {
        try XCTSkipIf(TestStore.backend != .sqlite, "the writers given a NUL, which only SQLite stores")
        try importHostileFleet(eventId: "../../evil")
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let run = report([
            "fleet", "--db", databasePath, "--event", "../../evil", "--as-of", "2016-10-03T00:00:00Z",
            "--xlsx", "--csv", "--md", "-o", output.path, "-q",
        ])
        XCTAssertEqual(run.code, .success, run.err)
        return output.appendingPathComponent("fleet-.._.._evil")
    }

    private func assertEveryTableExists(file: StaticString = #filePath, line: UInt = #line) throws {
        let tables = Set(try database().tableNames())
        for kind in registeredModules.flatMap(\.kinds) {
            XCTAssertTrue(tables.contains(kind.name), "table \(kind.name) is gone", file: file, line: line)
        }
        XCTAssertTrue(
            tables.isSuperset(of: ["import_log", "import_rejects", "schema_migrations"]), file: file, line: line)
    }

    /// Every file and folder below `root`, relative, folders with a trailing `/`, sorted.
    private func listing(_ root: URL) throws -> [String] {
        var result: [String] = []
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? root : root.appendingPathComponent(relative)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(
                    atPath: root.appendingPathComponent(child).path, isDirectory: &isDirectory)
                result.append(isDirectory.boolValue ? child + "/" : child)
                if isDirectory.boolValue { try walk(child) }
            }
        }
        try walk("")
        return result.sorted()
    }

    /// A CSV file as rows of named cells.
    private func table(_ url: URL) throws -> [[String: String]] {
        let rows = CSV.parse(try String(contentsOf: url, encoding: .utf8))
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// A JSON string literal for `text` (quotes, backslashes and controls escaped).
    static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// A small RFC 4180 reader for the tests: quoted fields, doubled quotes, CRLF records.
enum CSV {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var characters = Array(text.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            if inQuotes {
                if scalar == "\"" {
                    if characters.first == "\"" {
                        field.unicodeScalars.append("\""); characters.removeFirst()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                inQuotes = true
            } else if scalar == "," {
                row.append(field); field = ""
            } else if scalar == "\r" && characters.first == "\n" {
                characters.removeFirst()
                row.append(field); rows.append(row); row = []; field = ""
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}

/// The element names and text of an SVG, read with Foundation's XML parser: a file that is not
/// well-formed XML throws.
final class SVGText: NSObject, XMLParserDelegate {
    private(set) var elements: [String] = []
    private(set) var text: [String] = []
    private var current = ""

    static func parse(_ data: Data) throws -> SVGText {
        let recorder = SVGText()
        let parser = XMLParser(data: data)
        parser.delegate = recorder
        guard parser.parse() else {
            throw NSError(
                domain: "SVGText", code: 1,
                userInfo: [
                    NSLocalizedDescriptionKey: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")"
                ])
        }
        return recorder
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        elements.append(elementName)
        current = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if !current.isEmpty { text.append(current) }
        current = ""
    }
}
