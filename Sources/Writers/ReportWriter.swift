import Foundation
import ReportModel

/// A format a `Report` is written in: each writer names its own files after the report
/// (`<base>.xlsx`, `<base>/` for CSV, `<base>.md` and its charts) inside the output folder, writes
/// them aside and renames them into place, and returns what it wrote.
public protocol ReportWriter: Sendable {
    func write(_ report: Report, into directory: URL) throws -> [URL]
}

extension CSVWriter: ReportWriter {
    public func write(_ report: Report, into directory: URL) throws -> [URL] { try write(report, to: directory) }
}

extension MarkdownWriter: ReportWriter {
    public func write(_ report: Report, into directory: URL) throws -> [URL] { try write(report, to: directory) }
}

extension XLSXWriter: ReportWriter {
    /// Writes `<base>.xlsx` into `directory`.
    public func write(_ report: Report, into directory: URL) throws -> [URL] {
        let url = try OutputFiles.location(of: OutputFiles.fileName(report.baseName, extension: "xlsx"), in: directory)
        try write(report, to: url)
        return [url]
    }
}
