import ArgumentParsing
import ByteOutput
import Foundation
import ReportModel
import Time
import Writers

/// A value set by another thread, read after it finished.
public final class ConcurrentResult<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?

    public init() {}

    public func set(_ value: Result<Value, any Error>) {
        lock.lock(); defer { lock.unlock() }
        result = value
    }

    public func get() -> Result<Value, any Error>? {
        lock.lock(); defer { lock.unlock() }
        return result
    }
}

/// Writes a `Report` as files (SPEC §6): the XLSX workbook, the CSV tables (one folder), the
/// Markdown report and its charts, any combination, each file written aside and renamed into
/// place. Shared by the report commands and `report nightly`.
public enum ReportFiles {
    /// The output folder when none is given.
    public static let defaultDirectory = "Reports"

    /// Writes the report's files in `formats` into `directory`: the URLs written (workbook first)
    /// and the first error. Every format is attempted even when one fails, so a broken workbook
    /// does not cost the CSV tables.
    public static func write(
        _ report: Report, formats: Outputs, csvOptions: CSVOptions = CSVOptions(), to directory: URL
    ) -> (written: [URL], failure: (any Error)?) {
        // The workbook (libxlsxwriter, single-threaded) is written on a second thread while the CSV
        // and Markdown files are written on this one: the formats are independent, and the rows of
        // a Report can be read by several writers at once.
        let workbook = ConcurrentResult<[URL]>()
        let group = DispatchGroup()
        if formats.contains(.xlsx) {
            DispatchQueue.global().async(group: group) {
                workbook.set(Result { try XLSXWriter().write(report, into: directory) })
            }
        }
        let writers: [any ReportWriter] =
            (formats.contains(.csv) ? [CSVWriter(options: csvOptions)] : [])
            + (formats.contains(.markdown) ? [MarkdownWriter()] : [])
        var written: [URL] = []
        var firstError: (any Error)?
        do {
            for writer in writers { written += try writer.write(report, into: directory) }
        } catch {
            firstError = error
        }
        group.wait()
        switch workbook.get() {
        case .success(let urls): written.insert(contentsOf: urls, at: 0)
        case .failure(let error): firstError = firstError ?? error
        case nil: break
        }
        return (written, firstError)
    }

    /// A path relative to the current folder when it is below it (shorter log lines).
    public static func displayPath(_ url: URL) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        return url.path.hasPrefix(current) ? String(url.path.dropFirst(current.count)) : url.path
    }

    /// The output folder, `-o DIR` or `Reports/`, created with its parents when missing (SPEC §7);
    /// an existing path that is not a folder is an error (`OutputFolder` says what is followed).
    public static func outputDirectory(_ explicit: String?) throws -> URL {
        let path = explicit ?? defaultDirectory
        do { try OutputFolder.prepare(path) } catch {
            throw CommandFailure(error.message(option: "-o DIR", role: "output"))
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
