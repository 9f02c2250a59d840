/// Reads the records of an export file one at a time, with a fixed buffer, whatever the file's size.
///
/// The layout (SPEC §1) is JSON Lines when the caller says so (a `.jsonl` / `.ndjson` name);
/// otherwise it is decided by content after an optional UTF-8 byte order mark and whitespace:
/// - `[` starts an **array**: each element is one record (any JSON value; the importer rejects
///   non-objects). Anything but whitespace after the closing `]` is an error.
/// - `{` starts a **wrapper**: scalar members around exactly one array whose elements are the
///   records. Records are yielded as they are parsed, before the object's end is seen. When the
///   object turns out not to be a wrapper (a second array, an object member, an element that is
///   not an object, no array at all, text after the object), `next()` throws `NotAWrapper`: the
///   caller discards the records it got and reads the file again with `jsonLines: true`, so
///   `{"id":1}\n{"id":2}` is read as two JSON Lines records. A syntax error met before that is
///   known is fatal, like any syntax error of an array or a wrapper.
/// - An empty or whitespace-only file is a valid file with zero records; its layout is `.jsonLines`.
/// - Anything else is a syntax error.
///
/// In **JSON Lines**, each line (ended by `\n` or `\r\n`) holds one value; blank lines are skipped
/// but counted. A line that is not valid JSON (syntax, UTF-8, depth, length) is one record whose
/// value is `.failure`, and reading goes on after the next newline, found without keeping the line.
///
/// Errors: `next()` throws `JSONSyntaxError` for malformed arrays and wrappers, `NotAWrapper` as
/// above, and `JSONReadError` (or the source's own error) when reading fails. After throwing, it
/// throws the same error again.
///
/// Not Sendable: it owns a buffer and a file position; use one reader per file and task.
public final class JSONRecordReader {
    /// The file's layout, known after the first `next()`. Nil again after `NotAWrapper`.
    public var layout: JSONLayout? { cursor.layout }
    /// Scalar members of a wrapper object, in file order: those before the array are known when
    /// the first record arrives, those after it once `next()` has returned nil.
    public var wrapperScalars: [JSONObject.Member] { cursor.wrapperScalars }
    /// Bytes of the file read so far, for a progress line.
    public var bytesConsumed: Int { cursor.scanner.offset }

    private var cursor: JSONRecordCursor
    private let buffer: UnsafeMutablePointer<UInt8>

    /// - Parameters:
    ///   - jsonLines: read one value per line instead of deciding the layout by content.
    ///   - maxDepth: how many arrays and objects may nest inside one record (the record included).
    ///   - maxStringBytes: the longest string (and number literal) accepted, in UTF-8 bytes.
    ///   - maxRecordBytes: the longest record accepted, so that one huge line or element cannot
    ///     exhaust memory as a tree.
    ///   - bufferSize: the fixed read buffer (tests use tiny ones to split every token).
    public init(source: ByteSource, jsonLines: Bool, maxDepth: Int = 512, maxStringBytes: Int = 16 << 20,
                maxRecordBytes: Int = 64 << 20, bufferSize: Int = 64 << 10) {
        let capacity = max(1, bufferSize)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + JSONScanner.padding)
        buffer.initialize(repeating: 0, count: capacity + JSONScanner.padding)
        let scanner = JSONScanner(source: source, bytes: buffer, capacity: capacity, maxDepth: max(0, maxDepth),
                                  maxStringBytes: max(0, maxStringBytes), maxRecordBytes: max(0, maxRecordBytes))
        cursor = JSONRecordCursor(scanner: scanner, jsonLines: jsonLines)
    }

    deinit { buffer.deallocate() }

    /// The next record, or nil at the end of the file.
    public func next() throws -> JSONRecord? {
        try cursor.next()
    }
}
