import Foundation
import XCTest
import ReportModel
import Writers
@testable import ReportModel
@testable import Writers

final class MarkdownWriterTests: XCTestCase {
    func testRenderMatchesGoldenFileAndIsDeterministic() {
        let report = WriterTestSupport.sampleReport
        let first = MarkdownWriter().render(report)
        let second = MarkdownWriter().render(report)
        XCTAssertEqual(first.markdown, second.markdown)
        XCTAssertEqual(first.svgs.map(\.content), second.svgs.map(\.content))
        WriterTestSupport.assertSnapshot(first.markdown, named: "markdown/fleet-salon2016.md")
    }

    func testWritesTheReportAndItsPicturesBesideIt() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let urls = try MarkdownWriter().write(WriterTestSupport.sampleReport, to: directory)
        let stems = [
            "fleet-salon2016-minutes", "fleet-salon2016-percent", "fleet-salon2016-share", "fleet-salon2016-damage",
        ]
        let names = ["fleet-salon2016.md"] + stems.flatMap { [$0 + ".svg", $0 + ".png"] }
        XCTAssertEqual(urls.map(\.lastPathComponent), names)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), names.sorted())
        let markdown = try String(contentsOf: urls[0], encoding: .utf8)
        // The PNG shows in chat; the SVG is linked beside it.
        for stem in stems { XCTAssertTrue(markdown.contains("](" + stem + ".png)\n[SVG](" + stem + ".svg)\n"), stem) }
        XCTAssertEqual(markdown, MarkdownWriter().render(WriterTestSupport.sampleReport, links: .pngAndSVG).markdown)
        // Each PNG is the SVG drawn at twice its size: the PNG header's width and height.
        for url in urls where url.pathExtension == "png" {
            let bytes = try [UInt8](Data(contentsOf: url))
            XCTAssertEqual(
                Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], url.lastPathComponent)
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            XCTAssertEqual(width, SVGCharts.width * 2, url.lastPathComponent)
        }
    }

    func testSectionsFollowTheSpec() {
        let markdown = MarkdownWriter().render(WriterTestSupport.sampleReport).markdown
        XCTAssertTrue(
            markdown.hasPrefix(
                "# Sample report\n\n- Scope: salon2016\n- As of: 2016-10-01T18:00:00+02:00\n"
                    + "- Tool version: report 0.1.0\n"))
        XCTAssertTrue(markdown.contains("| Utilization | ███████░░░  73 % |"))
        XCTAssertTrue(markdown.contains("\n2 more rows in the CSV and XLSX files.\n"))
        XCTAssertTrue(markdown.contains("## Empty\n\nNo rows.\n"))
        XCTAssertTrue(markdown.contains("## Markdown only"))
        XCTAssertFalse(markdown.contains("Csv only"), "a CSV-only table has no Markdown section")
        XCTAssertTrue(markdown.contains("| line1<br>line2 \\| a\\|b |"))
        XCTAssertTrue(markdown.contains("| <br>carriage<br>return |"))
        XCTAssertTrue(markdown.contains("- Two lines become one.\n"))
        XCTAssertTrue(markdown.hasSuffix("\n"))
        XCTAssertFalse(markdown.contains("Learning"), "rows past the limit stay out of Markdown")
        XCTAssertTrue(markdown.contains("Friends"))
    }

    func testMoreRowsCountsStreamedRowsAndNamesTheRightFiles() {
        let rows = Rows(count: nil) {
            var index = 0
            return AnyIterator {
                guard index < 5 else { return nil }
                index += 1
                return [.integer(index)]
            }
        }
        let table = Table(
            name: "t", columns: [Column("n", .integer)], rows: rows, outputs: [.markdown, .xlsx],
            markdownLimit: 4)
        let lines = MarkdownTable.lines(table)
        XCTAssertEqual(
            lines,
            [
                "## T", "", "| N |", "|---:|", "| 1 |", "| 2 |", "| 3 |", "| 4 |", "",
                "1 more row in the XLSX file.",
            ])
    }

    func testPercentBars() {
        XCTAssertEqual(DisplayText.percentBar(0.74), "███████░░░  74 %")
        XCTAssertEqual(DisplayText.percentBar(0), "░░░░░░░░░░  0 %")
        XCTAssertEqual(DisplayText.percentBar(0.05), "█░░░░░░░░░  5 %")
        XCTAssertEqual(DisplayText.percentBar(1.2), "██████████  120 %")
        XCTAssertEqual(DisplayText.percentBar(-0.1), "░░░░░░░░░░  -10 %")
    }

    func testCellEscaping() {
        XCTAssertEqual(MarkdownText.cell("a|b"), "a\\|b")
        XCTAssertEqual(MarkdownText.cell("one\r\ntwo\nthree\rfour"), "one<br>two<br>three<br>four")
        XCTAssertEqual(MarkdownText.cell("plain"), "plain")
        XCTAssertEqual(MarkdownText.altText("a [b] c"), "a \\[b\\] c")
    }

    func testHostileNamesStayInsideTheFolder() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        var report = WriterTestSupport.sampleReport
        report.scope = "../x"
        report.charts = [report.charts[0], report.charts[0]]
        report.charts[1].fileStem = "minutes"
        let urls = try MarkdownWriter().write(report, to: directory)
        XCTAssertEqual(
            urls.map(\.lastPathComponent),
            [
                "fleet-.._x.md", "fleet-.._x-minutes.svg", "fleet-.._x-minutes.png",
                "fleet-.._x-minutes-2.svg", "fleet-.._x-minutes-2.png",
                "fleet-.._x-damage.svg", "fleet-.._x-damage.png",
            ])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 7)
    }
}
