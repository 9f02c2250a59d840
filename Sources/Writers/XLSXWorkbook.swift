import ByteOutput
import CXLSXWriter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReportModel

/// One open libxlsxwriter workbook: the only owner of `lxw_workbook` and its C strings.
///
/// Not Sendable: it owns a C handle that must be closed (or freed) exactly once, by one thread.
/// Always in constant-memory mode, so a million-row sheet costs one row of memory; rows must
/// therefore be written in order, sheet by sheet (sheets may interleave).
final class XLSXWorkbook {
    typealias Sheet = UnsafeMutablePointer<lxw_worksheet>
    typealias Format = UnsafeMutablePointer<lxw_format>

    private var handle: UnsafeMutablePointer<lxw_workbook>?
    let path: String
    /// Strings handed to libxlsxwriter inside option structs or kept by pointer: freed only
    /// after `workbook_close`, whatever the library does with them.
    private var ownedStrings: [UnsafeMutablePointer<CChar>] = []
    private var formats: [String: Format] = [:]
    private(set) var bold: Format?

    /// Opens a workbook that will be written to `path` when closed; `temporaryDirectory` holds
    /// libxlsxwriter's per-sheet temporary files.
    init(path: String, temporaryDirectory: String, zip64: Bool) throws {
        self.path = path
        var options = lxw_workbook_options()
        options.constant_memory = 1
        options.use_zip64 = zip64 ? 1 : 0
        let pathCopy = try XLSXWorkbook.duplicate(path)
        defer { free(pathCopy) }
        options.tmpdir = try XLSXWorkbook.duplicate(temporaryDirectory)
        defer { free(options.tmpdir) }
        guard let workbook = workbook_new_opt(pathCopy, &options) else {
            throw XLSXError(LXW_ERROR_MEMORY_MALLOC_FAILED, detail: "workbook_new_opt returned NULL", path: path)
        }
        handle = workbook
        let boldFormat = try addFormat()
        format_set_bold(boldFormat)
        bold = boldFormat
    }

    deinit {
        discard()
    }

    private func workbook() throws -> UnsafeMutablePointer<lxw_workbook> {
        guard let handle else { throw XLSXError.invalid("the workbook is already closed", path: path) }
        return handle
    }

    /// A C copy of `text` that lives until the workbook is closed.
    func own(_ text: String) throws -> UnsafeMutablePointer<CChar> {
        let copy = try XLSXWorkbook.duplicate(text)
        ownedStrings.append(copy)
        return copy
    }

    private static func duplicate(_ text: String) throws -> UnsafeMutablePointer<CChar> {
        guard let copy = strdup(text) else {
            throw XLSXError(LXW_ERROR_MEMORY_MALLOC_FAILED, detail: "strdup")
        }
        return copy
    }

    /// Adds a worksheet; `name` must come from `XLSXSheetNames` (checked, so the library is silent).
    func addSheet(named name: String) throws -> Sheet {
        let workbook = try workbook()
        guard let sheet = name.withCString({ workbook_add_worksheet(workbook, $0) }) else {
            throw XLSXError(
                LXW_ERROR_PARAMETER_VALIDATION, detail: "workbook_add_worksheet returned NULL",
                sheet: name, path: path)
        }
        return sheet
    }

    private func addFormat() throws -> Format {
        guard let format = workbook_add_format(try workbook()) else {
            throw XLSXError(LXW_ERROR_MEMORY_MALLOC_FAILED, detail: "workbook_add_format returned NULL", path: path)
        }
        return format
    }

    /// The format stored under `key`, made and set up by `configure` the first time: one format
    /// per distinct look and workbook. Keys of the fixed looks start with NUL, which no number
    /// format code does.
    private func sharedFormat(_ key: String, _ configure: (Format) -> Void) throws -> Format {
        if let format = formats[key] { return format }
        let format = try addFormat()
        configure(format)
        formats[key] = format
        return format
    }

    /// The shared format with this Excel number format code (`0.0%`), made once per workbook.
    func numberFormat(_ code: String) throws -> Format {
        try sharedFormat(code) { format in code.withCString { format_set_num_format(format, $0) } }
    }

    /// The bold header format of a column, aligned as its cells are: numbers, dates and
    /// timestamps to the right, booleans centred (as Excel shows them), text to the left, so that
    /// a header sits above its values. With `wraps`, the title wraps at its spaces and sits at the
    /// bottom of a two-line header row, so that a long title (`Interior delta`) does not widen a
    /// column of one-digit values.
    func headerFormat(for type: ColumnType, wraps: Bool = false) throws -> Format? {
        let alignment: lxw_format_alignments
        switch type {
        case .text:
            if !wraps { return bold }
            alignment = LXW_ALIGN_LEFT
        case .boolean: alignment = LXW_ALIGN_CENTER
        case .integer, .decimal, .percent, .duration, .euros, .measure, .date, .timestamp: alignment = LXW_ALIGN_RIGHT
        }
        return try sharedFormat("\u{0}header\(alignment.rawValue)\(wraps ? "w" : "")") { format in
            format_set_bold(format)
            format_set_align(format, UInt8(alignment.rawValue))
            if wraps {
                format_set_text_wrap(format)
                format_set_align(format, UInt8(LXW_ALIGN_VERTICAL_BOTTOM.rawValue))
            }
        }
    }

    /// Text that wraps inside its column, top-aligned: a long detail in a column capped at 60
    /// characters would otherwise run across the empty cells to its right and off the page.
    func wrappingTextFormat() throws -> Format {
        try sharedFormat("\u{0}wrap") { format in
            format_set_text_wrap(format)
            format_set_align(format, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue))
        }
    }

    /// A bold format with a bigger font, for the Summary title.
    func titleFormat() throws -> Format {
        try sharedFormat("\u{0}title") { format in
            format_set_bold(format)
            format_set_font_size(format, 14)
        }
    }

    /// A new chart of the given `LXW_CHART_*` type.
    func addChart(_ type: lxw_chart_type) throws -> UnsafeMutablePointer<lxw_chart> {
        guard let chart = workbook_add_chart(try workbook(), UInt8(type.rawValue)) else {
            throw XLSXError(LXW_ERROR_MEMORY_MALLOC_FAILED, detail: "workbook_add_chart returned NULL", path: path)
        }
        return chart
    }

    /// Title, subject, comments and the creation time (`time_t`), which makes the file a
    /// function of the report: the same report gives the same properties every night.
    func setProperties(title: String, subject: String, comments: String, created: Int64) throws {
        var properties = lxw_doc_properties()
        properties.title = try own(title)
        properties.subject = try own(subject)
        properties.comments = try own(comments)
        // 0 means "now" to libxlsxwriter; the first second of 1970 is as good a stand-in.
        properties.created = time_t(created == 0 ? 1 : created)
        let error = workbook_set_properties(try workbook(), &properties)
        guard error == LXW_NO_ERROR else { throw XLSXError(error, detail: "document properties", path: path) }
    }

    /// Assembles and zips the file. The workbook is gone afterwards, whatever the result.
    ///
    /// This is where a full disk shows: the library's printed lines are captured, and its
    /// `System error` becomes an `OutputError` (`no space left on the device; …`) or the detail
    /// of the `XLSXError`.
    func close() throws {
        let workbook = try workbook()
        handle = nil
        let (error, log) = XLSXLibraryLog.capture { workbook_close(workbook) }
        let code = errno
        releaseStrings()
        guard error == LXW_NO_ERROR else {
            let systemError = XLSXLibraryLog.systemError(in: log)
            for candidate in [ENOSPC, EDQUOT]
            where systemError == String(cString: strerror(candidate)) || (systemError == nil && code == candidate) {
                throw OutputError(path: path, errno: candidate, operation: "write the workbook")
            }
            throw XLSXError(error, detail: systemError, path: path)
        }
    }

    /// Frees the workbook without writing anything (after a failure).
    func discard() {
        if let handle {
            lxw_workbook_free(handle)
            self.handle = nil
        }
        releaseStrings()
    }

    private func releaseStrings() {
        for text in ownedStrings { free(text) }
        ownedStrings.removeAll()
        formats.removeAll()
        bold = nil
    }
}
