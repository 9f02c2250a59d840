import ArgumentParsing
import Foundation
import ReportTestSupport
import XCTest
@testable import ReportCLI

/// `Reports/` holds the reports of `SampleData/` as `make demo` writes them. This test runs the
/// demo's own report commands (read from the Makefile, so the two cannot drift) at the same
/// `--as-of` into a fresh folder, and fails when a CSV, Markdown or SVG file differs byte for
/// byte, or when a file is missing or extra. Fix: `make demo`, then commit `Reports/`.
final class SampleReportsTests: CLITestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The demo's report commands, as argument lists, from the Makefile's `demo` recipe.
    func demoCommands() throws -> [[String]] {
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let lines = makefile.split(separator: "\n").map(String.init)
        guard let asOfLine = lines.first(where: { $0.hasPrefix("DEMO_AS_OF := ") }),
            let start = lines.firstIndex(where: { $0.hasPrefix("demo:") })
        else {
            XCTFail("the Makefile has no demo target or DEMO_AS_OF")
            return []
        }
        let asOf = String(asOfLine.dropFirst("DEMO_AS_OF := ".count))
        var commands: [[String]] = []
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("\t") else { break }
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            guard words.first == "$(RELEASE_BIN)", let command = words.dropFirst().first,
                ["fleet", "habits", "bookings"].contains(command)
            else { continue }
            commands.append(words.dropFirst().map { $0 == "$(DEMO_AS_OF)" ? asOf : $0 })
        }
        return commands
    }

    static func files(below folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return result }
        for case let url as URL in walker
        where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            let relative = String(url.path.dropFirst(folder.path.count + 1))
            result[relative] = try Data(contentsOf: url)
        }
        return result
    }

    func testReportsFolderMatchesAFreshDemoRun() throws {
        let commands = try demoCommands()
        XCTAssertGreaterThanOrEqual(commands.count, 3, "the demo writes the three domains' reports")
        let imported = report(["import", "--db", databasePath, Self.root.appendingPathComponent("SampleData").path])
        XCTAssertEqual(imported.code, .success, imported.err)
        XCTAssertTrue(imported.out.contains(", 0 rejected in "), "the sample data imports with zero rejects")
        let output = directory.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for command in commands {
            let run = report(command + ["--db", databasePath, "-o", output.path, "--quiet"])
            XCTAssertEqual(run.code, .success, "\(command): \(run.err)")
        }
        let fresh = try Self.files(below: output)
        let kept = try Self.files(below: Self.root.appendingPathComponent("Reports")).filter { !$0.key.hasPrefix(".") }
        XCTAssertEqual(
            Set(kept.keys), Set(fresh.keys), "Reports/ holds other files than `make demo` writes: run `make demo`")
        // PNG pictures depend on the machine's fonts (librsvg draws the text): checked as PNG files
        // of the SVG's doubled size, not byte for byte.
        for (name, data) in fresh where !name.hasSuffix(".xlsx") && !name.hasSuffix(".png") {
            XCTAssertEqual(kept[name], data, "Reports/\(name) is out of date: run `make demo` and commit Reports/")
        }
        for (name, data) in fresh where name.hasSuffix(".png") {
            XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], name)
            XCTAssertNotNil(fresh[String(name.dropLast(4)) + ".svg"], "\(name) has its SVG beside it")
        }
        XCTAssertEqual(
            fresh.keys.filter { $0.hasSuffix(".png") }.count, fresh.keys.filter { $0.hasSuffix(".svg") }.count,
            "a PNG for every SVG")
        for (name, data) in fresh where name.hasSuffix(".xlsx") {
            XCTAssertEqual(data.prefix(2), Data("PK".utf8), "\(name) is a zip file")
        }
    }

    /// The sample workbooks open in a real spreadsheet program: LibreOffice converts each to PDF.
    func testLibreOfficeOpensEverySampleWorkbook() throws {
        let soffice = try RequiredTool.path(
            ["/usr/bin/soffice", "/usr/local/bin/soffice", "/usr/lib/libreoffice/program/soffice"],
            install: "apt-get install libreoffice-calc-nogui")
        let books = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Reports").path
        )
        .filter { $0.hasSuffix(".xlsx") }.sorted()
        XCTAssertGreaterThanOrEqual(books.count, 3)
        let output = directory.appendingPathComponent("pdf")
        let conversion = try ChildProcess.run(
            soffice,
            [
                "-env:UserInstallation=" + directory.appendingPathComponent("profile").absoluteString,
                "--headless", "--convert-to", "pdf", "--outdir", output.path,
            ] + books.map { Self.root.appendingPathComponent("Reports").appendingPathComponent($0).path })
        XCTAssertEqual(conversion.status, 0, conversion.err)
        for book in books {
            let pdf = output.appendingPathComponent(String(book.dropLast(5)) + ".pdf")
            let bytes = try Data(contentsOf: pdf)
            XCTAssertEqual(String(decoding: bytes.prefix(5), as: UTF8.self), "%PDF-", book)
            XCTAssertGreaterThan(bytes.count, 5_000, book)
        }
    }
}
