import Foundation
import XCTest
import ReportModel
import Time
@testable import Writers

/// Charts stay legible for any period a report takes, 1 day to 3,660: every text of every
/// picture is at least 8 points (16 pixels in the PNG, drawn at twice the size), inside the
/// picture, and overlaps no other text; a heat map's rows are never shorter than its labels.
/// The pictures are also drawn as PNG by librsvg at the size the SVG states.
final class ChartRangeTests: XCTestCase {
    static let ranges = [1, 7, 31, 92, 366, 3660]

    /// A report of `days` days: revenue per day (line), utilization per day (column), and an
    /// occupancy heat map of days × three periods with its booked and capacity parts.
    static func report(days count: Int) -> Report {
        let first = Day(year: 2020, month: 1, day: 1) ?? Day(ordinal: 0)
        let days = (0..<count).map { first.adding(days: $0) }
        let rows: [[Value]] = days.enumerated().map { index, day in
            [.day(day), .number(Double((index * 37) % 500)), .number(Double((index * 13) % 100) / 100)]
        }
        let table = Table(
            name: "daily",
            columns: [Column("day", .date), Column("revenue_eur", .euros), Column("utilization", .percent)],
            rows: rows)
        let booked = days.indices.map { index in (0..<3).map { Double((index + $0) % 4) } }
        let capacity = days.indices.map { _ in [3.0, 2.0, 0.0] }
        var heatMap = HeatMap(
            title: "Occupancy by day and period", rowLabels: days.map(\.description),
            columnLabels: ["Morning", "Afternoon", "Evening"],
            cells: zip(booked, capacity).map { zip($0, $1).map { $1 > 0 ? $0 / $1 : .nan } }, fileStem: "occupancy",
            rowDays: days, valueType: .percent, rowHeader: "Day")
        heatMap.ratioParts = (booked, capacity)
        return Report(
            kind: "bookings", title: "Range", scope: "\(count)", asOf: Timestamp(seconds: 1_600_000_000),
            tables: [table],
            charts: [
                Chart(
                    .line, title: "Revenue per day (EUR)", table: "daily", category: "day", series: ["revenue_eur"],
                    fileStem: "revenue"),
                Chart(
                    .column, title: "Daily utilization", table: "daily", category: "day", series: ["utilization"],
                    fileStem: "utilization"),
            ],
            heatMap: heatMap)
    }

    func testEveryChartIsLegibleAtEveryRange() throws {
        for count in Self.ranges {
            let report = Self.report(days: count)
            var pictures: [(String, String)] = []
            for chart in report.charts {
                if count == 1 {
                    XCTAssertNotNil(ChartAbsence.sentence(for: chart, in: report), "one day is a sentence, not a chart")
                    continue
                }
                pictures.append(("\(chart.fileStem) \(count) days", SVGCharts.render(chart, in: report)))
            }
            if let heatMap = report.heatMap { pictures.append(("heat map \(count) days", SVGCharts.render(heatMap))) }
            for (name, svg) in pictures {
                let texts = try SVGTextBoxes.read(svg)
                XCTAssertGreaterThan(texts.boxes.count, 3, name)
                SVGTextBoxes.assertLegible(texts, name)
                let png = try PNGRenderer.png(fromSVG: svg)
                let size = SVGTextBoxes.pngSize(png)
                XCTAssertEqual(size.width, texts.width * 2, name)
                XCTAssertEqual(size.height, texts.height * 2, name)
            }
        }
    }

    /// Day rows past 31 are grouped by week, month, quarter or year, whichever is the smallest
    /// unit with at most 31 rows, and a group of ratios is Σ booked / Σ capacity.
    func testHeatMapRowsGroupByTheSmallestUnitThatFits() throws {
        let expected: [Int: (HeatMapRows.Unit, Int)] = [
            1: (.day, 1), 7: (.day, 7), 31: (.day, 31), 92: (.week, 14), 366: (.month, 12), 3660: (.year, 11),
        ]
        for count in Self.ranges {
            let heatMap = try XCTUnwrap(Self.report(days: count).heatMap)
            let rows = HeatMapRows(heatMap)
            XCTAssertEqual(rows.unit, expected[count]?.0, "\(count) days")
            XCTAssertEqual(rows.cells.count, expected[count]?.1, "\(count) days")
            XCTAssertLessThanOrEqual(rows.cells.count, HeatMapRows.maximumRows)
        }
        // 366 days of the leap year 2020 are its 12 months. 2020-01-01 is a Wednesday: the first
        // week holds 5 days (Wed–Sun), labelled by its Monday.
        let weeks = HeatMapRows(try XCTUnwrap(Self.report(days: 92).heatMap))
        XCTAssertEqual(weeks.labels.first, "2019-12-30")
        XCTAssertEqual(weeks.labels[1], "2020-01-06")
        // Mornings of days 0…4: booked (0, 1, 2, 3, 0) of capacity 3 each = 6 / 15.
        XCTAssertEqual(weeks.cells[0][0], 6.0 / 15, accuracy: 1e-12)
        XCTAssertTrue(weeks.cells[0][2].isNaN, "no capacity in the evenings: no occupancy")
        let years = HeatMapRows(try XCTUnwrap(Self.report(days: 3660).heatMap))
        XCTAssertEqual(years.labels.prefix(2), ["2020", "2021"])
    }

    /// The sample reports' pictures too (`Reports/`, kept current by SampleReportsTests).
    func testEverySamplePictureIsLegible() throws {
        let reports = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Reports")
        let names = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix(".svg") }
        XCTAssertGreaterThanOrEqual(names.count, 7)
        for name in names {
            let svg = try String(contentsOf: reports.appendingPathComponent(name), encoding: .utf8)
            XCTAssertFalse(svg.contains(">No data</text>"), "\(name): a chart with nothing to draw is not written")
            SVGTextBoxes.assertLegible(try SVGTextBoxes.read(svg), name)
        }
    }
}

/// The text boxes of an SVG picture, estimated from each `<text>`'s position, size, anchor and
/// rotation: 0.62 em a character (0.66 bold), from 0.8 em above the baseline to 0.2 em below.
enum SVGTextBoxes {
    struct Box {
        var text: String
        var size: Double
        var minX: Double, minY: Double, maxX: Double, maxY: Double
    }

    static func read(_ svg: String) throws -> (width: Int, height: Int, boxes: [Box]) {
        func attribute(_ name: String, _ tag: String) -> String? {
            guard let range = tag.range(of: " \(name)=\"") else { return nil }
            return String(tag[range.upperBound...].prefix { $0 != "\"" })
        }
        let header = String(svg.prefix { $0 != ">" })
        let width = Int(attribute("width", header) ?? "") ?? 0
        let height = Int(attribute("height", header) ?? "") ?? 0
        var boxes: [Box] = []
        for part in svg.components(separatedBy: "<text ").dropFirst() {
            guard let close = part.range(of: ">"), let end = part.range(of: "</text>") else { continue }
            let tag = " " + String(part[..<close.lowerBound])
            let content = String(part[close.upperBound..<end.lowerBound])
                .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            let x = Double(attribute("x", tag) ?? "") ?? 0
            let y = Double(attribute("y", tag) ?? "") ?? 0
            let size = Double(attribute("font-size", tag) ?? "") ?? 0
            let advance = Double(content.count) * size * (attribute("font-weight", tag) == "bold" ? 0.66 : 0.62)
            var left = x
            switch attribute("text-anchor", tag) {
            case "middle": left = x - advance / 2
            case "end": left = x - advance
            default: break
            }
            var box = Box(
                text: content, size: size, minX: left, minY: y - 0.8 * size, maxX: left + advance, maxY: y + 0.2 * size)
            if let transform = attribute("transform", tag) {
                // Only a quarter turn back about the text's own point is drawn (axis titles).
                XCTAssertTrue(transform.hasPrefix("rotate(-90 "), "\(content): \(transform)")
                box = Box(
                    text: content, size: size, minX: x - 0.8 * size, minY: y - (left + advance - x),
                    maxX: x + 0.2 * size, maxY: y - (left - x))
            }
            if !content.isEmpty { boxes.append(box) }
        }
        return (width, height, boxes)
    }

    static func assertLegible(
        _ picture: (width: Int, height: Int, boxes: [Box]), _ name: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for box in picture.boxes {
            XCTAssertGreaterThanOrEqual(box.size, 8, "\(name): “\(box.text)” is below 8 points", file: file, line: line)
            XCTAssertTrue(
                box.minX >= -0.5 && box.minY >= -0.5 && box.maxX <= Double(picture.width) + 0.5
                    && box.maxY <= Double(picture.height) + 0.5,
                "\(name): “\(box.text)” leaves the picture", file: file, line: line)
        }
        for (index, a) in picture.boxes.enumerated() {
            for b in picture.boxes[(index + 1)...] {
                let overlapX = min(a.maxX, b.maxX) - max(a.minX, b.minX)
                let overlapY = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                XCTAssertFalse(
                    overlapX > 0.5 && overlapY > 0.5, "\(name): “\(a.text)” overlaps “\(b.text)”", file: file,
                    line: line)
            }
        }
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ png: [UInt8]) -> (width: Int, height: Int) {
        guard png.count > 24 else { return (0, 0) }
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }
}
