/// Reads the records of an export file one at a time, with a fixed buffer, whatever the file's size.
///
/// The layout (SPEC §1, docs/DECISIONS.md) is JSON Lines when the caller says so (a `.jsonl` /
/// `.ndjson` name); otherwise it is decided by content after an optional UTF-8 byte order mark
/// and whitespace:
/// - `[` starts an **array**: each element is one record (any JSON value; the importer rejects
///   non-objects). Anything but whitespace after the closing `]` is an error.
/// - `{` starts a **wrapper**: exactly one array, whose elements are the records, beside members
///   that are scalars or objects (metadata, kept in `wrapperMetadata`). Records are yielded as
///   they are parsed, before the object's end is seen. When the object turns out not to be a
///   wrapper (a second array, an element that is not an object, no array at all) or another
///   object follows it on a later line, `next()` throws `NotAWrapper`, which says why. The caller
///   discards the records it got; `startsWithObjectLines(source:)` then tells whether the file is
///   JSON Lines after all (`{"id":1}\n{"id":2}`: read it again with `jsonLines: true`) or one
///   document that is not records (the file fails with `NotAWrapper`'s description). Any other
///   text after the object is a syntax error, like any syntax error of an array or a wrapper.
/// - An empty, whitespace-only or byte-order-mark-only file is a valid file with zero records;
///   `emptiness` says which, for a warning. Its layout is `.jsonLines`.
/// - A lone scalar (`42`) throws `JSONLayoutError` (`a JSON value, not records`); so does a file
///   whose first bytes are UTF-16 or UTF-32 (`looks like UTF-16; save it as UTF-8`), in either mode.
/// - Anything else is a syntax error.
///
/// In **JSON Lines**, each line (ended by `\n` or `\r\n`) holds one value; blank lines are skipped
/// but counted. A line that is not valid JSON (syntax, UTF-8, depth, length) is one record whose
/// value is `.failure`, and reading goes on after the next newline, found without keeping the line.
///
/// Errors: `next()` throws `JSONSyntaxError` for malformed arrays and wrappers, `NotAWrapper` and
/// `JSONLayoutError` as above, and `JSONReadError` (or the source's own error) when reading fails.
/// After throwing, it throws the same error again.
///
/// Not Sendable: it owns a buffer and a file position; use one reader per file and task.
public final class JSONRecordReader {
    /// The file's layout, known after the first `next()`. Nil again after `NotAWrapper`.
    public var layout: JSONLayout? { cursor.layout }
    /// The members of a wrapper object other than its records (scalars and objects), in file
    /// order: those before the array are known when the first record arrives, those after it once
    /// `next()` has returned nil.
    public var wrapperMetadata: [JSONObject.Member] { cursor.wrapperMetadata }
    /// Why the file held nothing at all, once `next()` has returned nil; nil when it held a value
    /// (an empty array is an empty export, not an empty file).
    public var emptiness: JSONEmptiness? { cursor.emptiness }
    /// Bytes of the file read so far, for a progress line.
    public var bytesConsumed: Int { cursor.scanner.offset }

    /// Unchecked, like a tape's storage: a reader is used by one thread at a time, and only
    /// through its own methods.
    @exclusivity(unchecked) private var cursor: JSONRecordCursor
    private let buffer: UnsafeMutablePointer<UInt8>

    /// - Parameters:
    ///   - jsonLines: read one value per line instead of deciding the layout by content.
    ///   - maxDepth: how many arrays and objects may nest inside one record (the record included).
    ///   - maxStringBytes: the longest string (and number literal) accepted, in UTF-8 bytes; at
    ///     most 512 MiB (with a record of at most 1 GiB, a tape's 32-bit offsets stay safe).
    ///   - maxRecordBytes: the longest record accepted, so that one huge line or element cannot
    ///     exhaust memory; at most 1 GiB (a record's tape counts in 32 bits).
    ///   - bufferSize: the fixed read buffer (tests use tiny ones to split every token).
    public init(
        source: ByteSource, jsonLines: Bool, maxDepth: Int = 512, maxStringBytes: Int = 16 << 20,
        maxRecordBytes: Int = 64 << 20, bufferSize: Int = 64 << 10
    ) {
        let capacity = max(1, bufferSize)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + JSONScanner.padding)
        buffer.initialize(repeating: 0, count: capacity + JSONScanner.padding)
        let leadingBytes = LeadingBytesSource(source)
        let scanner = JSONScanner(
            source: leadingBytes, bytes: buffer, capacity: capacity, maxDepth: max(0, maxDepth),
            maxStringBytes: min(max(0, maxStringBytes), 1 << 29),
            maxRecordBytes: min(max(0, maxRecordBytes), 1 << 30))
        cursor = JSONRecordCursor(scanner: scanner, jsonLines: jsonLines, leadingBytes: leadingBytes)
    }

    deinit { buffer.deallocate() }

    /// Whether a file that is not named as JSON Lines holds JSON Lines all the same: its first
    /// non-blank line is one whole object and the next non-blank line starts another. Asked after
    /// `next()` threw `NotAWrapper`, with a fresh source for the same file; it reads only those
    /// first lines.
    public static func startsWithObjectLines(source: ByteSource, maxRecordBytes: Int = 64 << 20) -> Bool {
        let reader = JSONRecordReader(source: source, jsonLines: false, maxRecordBytes: maxRecordBytes)
        return reader.cursor.startsWithObjectLines()
    }

    /// The next record, or nil at the end of the file.
    public func next() throws -> JSONRecord? {
        try cursor.next(onto: nil)?.record
    }

    /// The next record on the reader's tape, which the call after reuses; nil at the end of the
    /// file. The import reads records this way, with no tree made (`RecordReader`). With `batch`,
    /// the record is appended to that tape instead, and stays there for another thread to read
    /// once the batch is handed over (`report check`).
    public func nextOnTape(appendingTo batch: JSONTape? = nil) throws -> JSONTapeRecord? {
        try cursor.next(onto: batch)
    }
}
