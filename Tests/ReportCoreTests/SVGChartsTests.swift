import Foundation
import XCTest
@testable import ReportModel
@testable import Time
@testable import Writers
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReportModel
import Time
import Writers

final class SVGChartsTests: XCTestCase {
    func testEachKindMatchesItsGoldenFile() {
        let report = WriterTestSupport.sampleReport
        for chart in report.charts {
            WriterTestSupport.assertSnapshot(SVGCharts.render(chart, in: report), named: "svg/\(chart.fileStem).svg")
        }
        if let heatMap = report.heatMap {
            WriterTestSupport.assertSnapshot(SVGCharts.render(heatMap), named: "svg/damage.svg")
        } else {
            XCTFail("the sample report has a heat map")
        }
    }

    func testEveryPictureIsWellFormedXML() throws {
        for (name, content) in MarkdownWriter().render(WriterTestSupport.sampleReport).svgs {
            try assertWellFormed(content, name)
        }
    }

    func testHostileTextIsEscaped() throws {
        let hostile = "<script>alert('x & \"y\"')</script>\u{1}"
        let table = Table(
            name: hostile, columns: [Column("c", title: hostile), Column("v", .integer, title: hostile)],
            rows: [[.text(hostile), .integer(3)], [.text("ok & fine"), .integer(5)]])
        var report = Report(kind: "k", title: hostile, scope: "s", asOf: Timestamp(seconds: 0), tables: [table])
        for kind in [Chart.Kind.column, .line, .pie] {
            report.charts.append(
                Chart(
                    kind, title: hostile, table: hostile, category: "c", series: ["v"],
                    fileStem: "f"))
        }
        report.heatMap = HeatMap(
            title: hostile, rowLabels: [hostile], columnLabels: [hostile, "B"],
            cells: [[1, 2]], fileStem: "h")
        let svgs = MarkdownWriter().render(report).svgs
        XCTAssertEqual(svgs.count, 4)
        for (name, content) in svgs {
            XCTAssertFalse(content.contains("<script"), name)
            XCTAssertTrue(
                content.contains("&lt;script&gt;alert(&apos;x &amp; &quot;y&quot;&apos;)&lt;/script&gt;\u{FFFD}"),
                name)
            try assertWellFormed(content, name)
        }
    }

    /// The renderer alone still says "No data" for an empty chart; the writers never ask it for
    /// one (`ChartAbsence`, tested in XLSXPrintTests and ChartRangeTests).
    func testMissingOrEmptyDataSaysNoData() throws {
        let empty = Table(name: "t", columns: [Column("c"), Column("v", .integer)], rows: [[Value]]())
        let blanks = Table(name: "b", columns: [Column("c"), Column("v", .integer)], rows: [[.text("x"), .empty]])
        let report = Report(kind: "k", title: "T", scope: "s", asOf: Timestamp(seconds: 0), tables: [empty, blanks])
        let charts = [
            Chart(.column, title: "No table", table: "missing", category: "c", series: ["v"], fileStem: "a"),
            Chart(.line, title: "No rows", table: "t", category: "c", series: ["v"], fileStem: "b"),
            Chart(.pie, title: "No column", table: "t", category: "c", series: ["nope"], fileStem: "c"),
            Chart(.pie, title: "Only blanks", table: "b", category: "c", series: ["v"], fileStem: "d"),
        ]
        for chart in charts {
            let svg = SVGCharts.render(chart, in: report)
            XCTAssertTrue(svg.contains(">No data</text>"), chart.title)
            try assertWellFormed(svg, chart.title)
        }
        let heatMap = HeatMap(
            title: "Empty", rowLabels: [], columnLabels: [], cells: [], backdrop: WriterTestSupport.backdrop,
            fileStem: "h")
        XCTAssertTrue(SVGCharts.render(heatMap).contains(">No data</text>"))
    }

    func testNumbersHaveAtMostTwoDecimals() throws {
        let report = WriterTestSupport.sampleReport
        var pictures = report.charts.map { SVGCharts.render($0, in: report) }
        if let heatMap = report.heatMap { pictures.append(SVGCharts.render(heatMap)) }
        let longDecimal = try NSRegularExpression(pattern: "[0-9]\\.[0-9]{3,}")
        for picture in pictures {
            let range = NSRange(picture.startIndex..., in: picture)
            XCTAssertNil(longDecimal.firstMatch(in: picture, range: range), String(picture.prefix(200)))
            XCTAssertFalse(picture.contains("\"-0\""))
        }
        XCTAssertEqual(SVGDocument.number(-0.001), "0")
        XCTAssertEqual(SVGDocument.number(12.5), "12.5")
        XCTAssertEqual(SVGDocument.number(3.14159), "3.14")
        XCTAssertEqual(SVGDocument.number(.nan), "0")
    }

    func testHeatMapColoursAndCounts() {
        XCTAssertEqual(SVGCharts.colour(0), "#ffffff")
        XCTAssertEqual(SVGCharts.colour(1), "#dc2626")
        let heatMap = HeatMap(
            title: "H", rowLabels: ["1"], columnLabels: ["A", "B"], cells: [[0, 12]],
            fileStem: "h")
        let svg = SVGCharts.render(heatMap)
        XCTAssertTrue(svg.contains("fill=\"#dc2626\""))
        XCTAssertTrue(svg.contains(">12</text>"))
        XCTAssertFalse(svg.contains("front"), "no car outline when not asked")
        XCTAssertTrue(SVGCharts.render(WriterTestSupport.sampleReport.heatMap ?? heatMap).contains(">front</text>"))
    }

    func testPieGroupsTheSmallestSlicesIntoOther() {
        let slices = (1...12).map { ("s\($0)", Double($0)) }
        let grouped = SVGCharts.grouped(slices)
        XCTAssertEqual(grouped.map(\.0), ["s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "Other"])
        XCTAssertEqual(grouped.last?.1, 6)
        XCTAssertEqual(grouped.reduce(0) { $0 + $1.1 }, 78)
        XCTAssertEqual(SVGCharts.grouped(Array(slices.prefix(10))).count, 10)
    }

    func testAxisTicksAreRound() {
        let axis = SVGAxis(values: [0, 73])
        XCTAssertEqual(axis.ticks, [0, 20, 40, 60, 80])
        let negative = SVGAxis(values: [-3, 7])
        XCTAssertEqual(negative.ticks, [-4, -2, 0, 2, 4, 6, 8])
        XCTAssertEqual(SVGAxis(values: []).ticks.first, 0)
        XCTAssertEqual(SVGAxis(values: [0.5]).label(0.5, type: .percent), "50 %")
    }

    private func assertWellFormed(
        _ content: String, _ name: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let parser = XMLParser(data: Data(content.utf8))
        let delegate = RootElementRecorder()
        parser.delegate = delegate
        XCTAssertTrue(
            parser.parse(), "\(name): \(parser.parserError.map { "\($0)" } ?? "parse failed")",
            file: file, line: line)
        XCTAssertEqual(delegate.root, "svg", name, file: file, line: line)
    }
}

private final class RootElementRecorder: NSObject, XMLParserDelegate {
    var root: String?
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        if root == nil { root = elementName }
    }
}
