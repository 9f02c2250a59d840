import Foundation
import XCTest
@testable import ReportCore

/// A second reader: LibreOffice must open the workbook (charts, conditional formats and all) and
/// print it to PDF.
final class XLSXLibreOfficeTests: XCTestCase {
    func testLibreOfficeConvertsTheWorkbookToPDF() throws {
        guard let soffice = ["/usr/bin/soffice", "/usr/local/bin/soffice", "/usr/lib/libreoffice/program/soffice"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui")
        }
        let directory = try XLSXTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = directory.appendingPathComponent("fleet-salon2016.xlsx")
        try XLSXWriter().write(XLSXSampleReport.make(), to: book)
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
    }
}
