import Foundation
import XCTest
import ReportModel
import Writers
@testable import ReportModel
@testable import Writers

/// A second reader: LibreOffice must open the workbook (charts, conditional formats and all) and
/// print it to PDF.
final class XLSXLibreOfficeTests: XCTestCase {
    func testLibreOfficeConvertsTheWorkbookToPDF() throws {
        try convert(XLSXSampleReport.make(), expectingZip64: false)
    }

    /// Rows streamed without a known count switch ZIP64 on; LibreOffice and openpyxl must still read it.
    func testLibreOfficeReadsAZip64Workbook() throws {
        var report = XLSXSampleReport.make()
        let streamed = Rows { AnyIterator(XLSXSampleReport.vehicles.rows.all.makeIterator()) }
        report.tables = [Table(name: "vehicles", columns: XLSXSampleReport.vehicles.columns, rows: streamed)]
        XCTAssertTrue(XLSXWriter.needsZip64(report))
        try convert(report, expectingZip64: true)
    }

    private func convert(_ report: Report, expectingZip64: Bool) throws {
        guard let soffice = ["/usr/bin/soffice", "/usr/local/bin/soffice", "/usr/lib/libreoffice/program/soffice"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui")
        }
        XCTAssertEqual(XLSXWriter.needsZip64(report), expectingZip64)
        let directory = try XLSXTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = directory.appendingPathComponent("fleet-salon2016.xlsx")
        try XLSXWriter().write(report, to: book)
        let output = directory.appendingPathComponent("pdf", isDirectory: true)
        // A private profile, so that a LibreOffice already running elsewhere does not take the job.
        let profile = directory.appendingPathComponent("profile", isDirectory: true)
        let result = try XLSXTestSupport.run(soffice, [
            "-env:UserInstallation=" + profile.absoluteString, "--headless",
            "--convert-to", "pdf", "--outdir", output.path, book.path,
        ], timeout: 240)
        XCTAssertEqual(result.status, 0, result.error)
        let pdf = output.appendingPathComponent("fleet-salon2016.pdf")
        let bytes = try Data(contentsOf: pdf)
        XCTAssertGreaterThan(bytes.count, 1_000)
        XCTAssertEqual(String(decoding: bytes.prefix(5), as: UTF8.self), "%PDF-")
        if expectingZip64 {
            let dump = try XLSXTestSupport.dump(book)
            XCTAssertEqual(dump.sheet("Vehicles")?.cell(1, 0)?.v, "AB-123-CD")
        }
    }
}
