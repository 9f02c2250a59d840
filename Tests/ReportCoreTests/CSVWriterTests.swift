import ByteOutput
import Foundation
import XCTest
import ReportModel
import Writers
import Time
@testable import ReportModel
@testable import Writers

final class CSVWriterTests: XCTestCase {
    func testWritesEveryCSVTableAndTheSummaryMatchingGoldenFiles() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let urls = try CSVWriter().write(WriterTestSupport.sampleReport, to: directory)
        let folder = directory.appendingPathComponent("fleet-salon2016")
        XCTAssertEqual(
            urls.map(\.lastPathComponent),
            [
                "items.csv", "empty.csv", "categories.csv", "csv_only.csv",
                "summary.csv", "datapackage.json",
            ])
        XCTAssertEqual(
            urls.map { $0.deletingLastPathComponent().standardizedFileURL.path },
            Array(repeating: folder.standardizedFileURL.path, count: 6))
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(
            listed, ["categories.csv", "csv_only.csv", "datapackage.json", "empty.csv", "items.csv", "summary.csv"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["fleet-salon2016"])
        for url in urls {
            let bytes = try [UInt8](Data(contentsOf: url))
            WriterTestSupport.assertSnapshot(bytes, named: "csv/fleet-salon2016/" + url.lastPathComponent)
        }
    }

    func testFieldsFollowTheDashboardContract() throws {
        let records = try CSVParser.parse(render(WriterTestSupport.itemsTable))
        XCTAssertEqual(records[0], ["key", "count", "share", "duration", "price", "ratio", "day", "at", "flag"])
        XCTAssertEqual(
            records[1],
            [
                "plain", "3", "0.7312", "1.50", "12.50", "0.125", "2016-10-01",
                "2016-10-01T07:12:00.000Z", "true",
            ])
        XCTAssertEqual(
            records[2],
            [
                "'=SUM(A1)", "-7", "0.1250", "2.68", "0.00", "0.000", "",
                "2016-10-02T23:59:30.250Z", "false",
            ])
        XCTAssertEqual(records[3], ["'+1", "", "", "", "", "", "", "", ""])
        XCTAssertEqual(
            records[4],
            [
                "'-x", "-42", "-0.0350", "-1.01", "1234567.89", "-2.001", "2016-02-29",
                "2016-10-01T14:42:00.000Z", "",
            ])
        XCTAssertEqual(
            records[5],
            [
                "'@x", "0", "1.2000", "1000000000000000.00", "100.00", "5.000", "0999-12-31",
                "", "true",
            ])
        XCTAssertEqual(records[6], ["'\tx", "8", "0.0000", "0.00", "12.00", "10.000", "", "", ""])
        XCTAssertEqual(records[7][0], "say \"hi\", ok")
        XCTAssertEqual(records[7][1], "9223372036854775807")
        XCTAssertEqual(records[8][0], "line1\nline2 | a|b")
        XCTAssertEqual(records[9][0], "'\rcarriage\r\nreturn")
        XCTAssertEqual(records[10][0], "café ünïcode ✓")
        XCTAssertEqual(records.count, 11)
        XCTAssertTrue(records.allSatisfy { $0.count == 9 }, "every record has the header's field count")
    }

    /// SPEC §6.1: one number of fractional digits per column: none when no value has a
    /// fraction, milliseconds when they suffice, else microseconds; each column on its own.
    func testEveryTimestampOfAColumnHasTheSameFractionalDigits() throws {
        func time(_ text: String) -> Value { Timestamp(text).map(Value.timestamp) ?? .empty }
        let table = Table(
            name: "t",
            columns: [
                Column("whole", .timestamp), Column("milli", .timestamp),
                Column("micro", .timestamp), Column("text"),
            ],
            rows: [
                [
                    time("2016-10-01T15:47:28+02:00"), time("2016-10-01T15:47:28+02:00"), time("2016-10-01T15:47:28Z"),
                    .text("a"),
                ],
                [.empty, time("2016-10-01T15:47:28.859+02:00"), time("2016-10-01T15:47:28.000001Z"), .text("b")],
                [
                    time("2016-10-01T15:47:29Z"), time("2016-10-01T15:47:28.05-05:00"), time("2016-10-01T15:47:28.5Z"),
                    .text("c"),
                ],
            ])
        XCTAssertEqual(
            try render(table),
            "whole,milli,micro,text\r\n"
                + "2016-10-01T13:47:28Z,2016-10-01T13:47:28.000Z,2016-10-01T15:47:28.000000Z,a\r\n"
                + ",2016-10-01T13:47:28.859Z,2016-10-01T15:47:28.000001Z,b\r\n"
                + "2016-10-01T15:47:29Z,2016-10-01T20:47:28.050Z,2016-10-01T15:47:28.500000Z,c\r\n")
    }

    /// A timestamp before 1970 has a negative microsecond count: its fraction is still read right.
    func testFractionalDigitsOfATimestampBefore1970() throws {
        XCTAssertEqual(Timestamp("1969-12-31T23:59:59.250Z")?.fractionDigitsNeeded, 3)
        XCTAssertEqual(Timestamp("1969-12-31T23:59:59.000250Z")?.fractionDigitsNeeded, 6)
        XCTAssertEqual(Timestamp("1969-12-31T23:59:59Z")?.fractionDigitsNeeded, 0)
    }

    func testQuotingAndLineEndsAreRFC4180() throws {
        let table = Table(
            name: "t", columns: [Column("a"), Column("b")],
            rows: [
                [.text("x,y"), .text("say \"hi\"")], [.text("two\nlines"), .text("plain")],
            ])
        XCTAssertEqual(try render(table), "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",plain\r\n")
    }

    func testNumbersAreNeverPrefixedButNegativeTextIs() throws {
        let table = Table(
            name: "t", columns: [Column("id"), Column("amount", .euros), Column("n", .integer)],
            rows: [[.text("-5"), .number(-5), .integer(-5)]])
        XCTAssertEqual(try render(table), "id,amount,n\r\n'-5,-5.00,-5\r\n")
    }

    func testHeaderOnlyTableAndShortRows() throws {
        let empty = Table(name: "e", columns: [Column("name"), Column("count", .integer)], rows: [[Value]]())
        XCTAssertEqual(try render(empty), "name,count\r\n")
        let ragged = Table(
            name: "r", columns: [Column("a"), Column("b", .integer)],
            rows: [[.text("only")], [.text("x"), .integer(1), .text("extra")]])
        XCTAssertEqual(try render(ragged), "a,b\r\nonly,\r\nx,1\r\n")
    }

    func testByteOrderMarkOnlyWhenAsked() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let urls = try CSVWriter(options: CSVOptions(bom: true)).write(WriterTestSupport.sampleReport, to: directory)
        // The CSV files start with the mark; the schema (JSON, which forbids one) says `utf-8-sig`.
        for url in urls where url.pathExtension == "csv" {
            let bytes = try [UInt8](Data(contentsOf: url))
            XCTAssertEqual(Array(bytes.prefix(3)), [0xEF, 0xBB, 0xBF], url.lastPathComponent)
            XCTAssertNotEqual(bytes[3], 0xEF)
        }
        let plain = try render(WriterTestSupport.itemsTable)
        XCTAssertTrue(plain.hasPrefix("key,"))
    }

    func testSummaryFormatsEachFigureByItsType() throws {
        let sink = ByteSink()
        try CSVWriter().writeSummary(WriterTestSupport.sampleReport.figures, to: sink)
        XCTAssertEqual(
            try sink.collectedText(),
            "metric,value\r\nusers,3\r\nutilization,0.7312\r\nhours_out,12.35\r\n"
                + "revenue_eur,100.00\r\naverage_score,72.3\r\nfirst_day,2016-09-30\r\nlabel,'=cmd\r\nmissing,\r\n")
    }

    func testATableNamedSummaryReplacesTheGeneratedOne() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        var report = WriterTestSupport.sampleReport
        report.tables = [
            Table(
                name: "summary", columns: [Column("metric"), Column("value")],
                rows: [[.text("own"), .text("1")]])
        ]
        let urls = try CSVWriter().write(report, to: directory)
        XCTAssertEqual(urls.map(\.lastPathComponent), ["summary.csv", "datapackage.json"])
        XCTAssertEqual(try String(contentsOf: urls[0], encoding: .utf8), "metric,value\r\nown,1\r\n")
    }

    func testTwoTablesWritingTheSameFileIsAnError() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        var report = WriterTestSupport.sampleReport
        report.tables = [
            Table(name: "a/b", columns: [Column("x")], rows: [[Value]]()),
            Table(name: "a_b", columns: [Column("x")], rows: [[Value]]()),
        ]
        XCTAssertThrowsError(try CSVWriter().write(report, to: directory)) { error in
            XCTAssertEqual((error as? OutputError)?.reason, .duplicateName)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testAScopeFromDataStaysInsideTheOutputFolder() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        var report = WriterTestSupport.sampleReport
        report.scope = "../../etc/passwd"
        let urls = try CSVWriter().write(report, to: directory)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["fleet-.._.._etc_passwd"])
        for url in urls {
            XCTAssertTrue(url.standardizedFileURL.path.hasPrefix(directory.standardizedFileURL.path + "/"))
        }
    }

    func testRewritingReplacesTheFolderWhole() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let folder = directory.appendingPathComponent("fleet-salon2016")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: folder.appendingPathComponent("old_table.csv"))
        _ = try CSVWriter().write(WriterTestSupport.sampleReport, to: directory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("old_table.csv").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["fleet-salon2016"])
    }

    func testMissingOutputFolderThrows() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self).appendingPathComponent("missing")
        XCTAssertThrowsError(try CSVWriter().write(WriterTestSupport.sampleReport, to: directory)) { error in
            XCTAssertEqual((error as? OutputError)?.reason, .missingFolder)
        }
    }

    /// 200,000 rows produced on demand, never held as an array, come out whole and in order.
    func testStreamsRowsProducedOnDemand() throws {
        let directory = try WriterTestSupport.temporaryDirectory(for: self)
        let rowCount = 200_000
        let rows = Rows(count: nil) {
            var index = 0
            return AnyIterator {
                guard index < rowCount else { return nil }
                defer { index += 1 }
                return [.integer(index), .number(Double(index) / 8), .text("row \(index)")]
            }
        }
        let table = Table(
            name: "big", columns: [Column("id", .integer), Column("hours", .duration), Column("label")],
            rows: rows)
        let url = directory.appendingPathComponent("big.csv")
        try OutputFiles.writeFile(at: url) { try CSVWriter().writeTable(table, to: $0) }
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, rowCount + 2)  // header, rows, and the empty rest after the last CRLF
        XCTAssertEqual(lines[1], "0,0.00,row 0")
        XCTAssertEqual(lines[rowCount], "199999,24999.88,row 199999")
        XCTAssertEqual(lines[rowCount + 1], "")
    }

    private func render(_ table: Table, options: CSVOptions = CSVOptions()) throws -> String {
        let sink = ByteSink()
        try CSVWriter(options: options).writeTable(table, to: sink)
        return try sink.collectedText()
    }
}

/// A strict RFC 4180 reader for the tests: records of fields, CRLF record ends, quoted fields.
enum CSVParser {
    struct Malformed: Error { var offset: Int }

    static func parse(_ text: String) throws -> [[String]] {
        let characters = Array(text.unicodeScalars)
        var records: [[String]] = []
        var record: [String] = []
        var field = String.UnicodeScalarView()
        var index = 0
        var quoted = false
        while index < characters.count {
            let character = characters[index]
            if quoted {
                if character == "\"" {
                    if index + 1 < characters.count && characters[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                guard field.isEmpty else { throw Malformed(offset: index) }
                quoted = true
            } else if character == "," {
                record.append(String(field))
                field = String.UnicodeScalarView()
            } else if character == "\r" {
                guard index + 1 < characters.count, characters[index + 1] == "\n" else {
                    throw Malformed(offset: index)
                }
                record.append(String(field))
                records.append(record)
                record = []
                field = String.UnicodeScalarView()
                index += 1
            } else if character == "\n" {
                throw Malformed(offset: index)  // a bare LF outside quotes is not RFC 4180
            } else {
                field.append(character)
            }
            index += 1
        }
        guard !quoted, field.isEmpty, record.isEmpty else { throw Malformed(offset: index) }
        return records
    }
}
