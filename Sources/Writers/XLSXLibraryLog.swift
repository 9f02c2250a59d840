import CXLSXWriter
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a libxlsxwriter call with the library's own stderr output captured, so that cron sees the
/// tool's one-line error rather than `[ERROR][./src/packager.c:1541]: …` lines.
///
/// libxlsxwriter writes to C's `stderr` (the `FILE *`, not file descriptor 2, which `Console`
/// uses), so the stream is swapped for a memory stream while the call runs. The swap is
/// process-wide: a lock makes calls take turns, and nothing else in the tool prints through C stdio.
enum XLSXLibraryLog {
    private static let lock = NSLock()

    /// The call's result and what the library printed meanwhile.
    static func capture<Result>(_ call: () -> Result) -> (result: Result, log: String) {
        lock.lock(); defer { lock.unlock() }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return (call(), "") }
        let previous = report_lxw_swap_stderr(stream)
        let result = call()
        _ = report_lxw_swap_stderr(previous)
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return (result, "") }
        return (result, String(decoding: UnsafeRawBufferPointer(start: buffer, count: size), as: UTF8.self))
    }

    /// The `System error = …` text libxlsxwriter adds to a failed file operation, if any.
    static func systemError(in log: String) -> String? {
        guard let range = log.range(of: "System error = ") else { return nil }
        let rest = log[range.upperBound...]
        return String(rest.prefix { $0 != "\n" && $0 != "\r" }).trimmingCharacters(in: .whitespaces)
    }
}
