import ByteOutput
import Foundation

/// How records sit in a file: the three layouts of SPEC §1.
enum Layout {
    /// `[ {…}, {…} ]`, one record per line.
    case array
    /// `{"exported_at": "…", "<member>": [ … ]}`, as the Rails back office wraps its exports.
    case wrapped(member: StaticString, exportedAt: ZonedInstant)
    /// One record per line.
    case jsonLines

    /// JSON Lines for `.jsonl` / `.ndjson` paths, an array otherwise.
    static func forPath(_ path: String) -> Layout {
        path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") ? .jsonLines : .array
    }
}

/// One output file of records of one kind, written as a stream.
///
/// Records go one per line whatever the layout, so the sample files read well and diff well.
final class RecordFile {
    let writer: JSONWriter
    private let layout: Layout
    private(set) var records = 0
    /// At most this many records are written; later ones are dropped (the `generate` mode's count).
    var limit = Int.max

    var isFull: Bool { records >= limit }

    init(path: String, layout: Layout) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw OutputError(path: folder, reason: .notWritable, operation: "create the folder")
            }
        }
        // 1 MiB: the big modes write hundreds of megabytes record by record, in a few hundred writes.
        writer = JSONWriter(sink: try ByteSink(creating: path, capacity: 1 << 20))
        self.layout = layout
        switch layout {
        case .array:
            try writer.raw("[")
        case .wrapped(let member, let exportedAt):
            try writer.raw("{\"exported_at\":")
            try writer.timestamp(exportedAt)
            try writer.raw(",\"")
            try writer.sink.write(member)
            try writer.raw("\":[")
        case .jsonLines:
            break
        }
    }

    var path: String { writer.sink.path }

    /// Writes one record: `body` fills the members of its object.
    func record(_ body: (JSONWriter) throws -> Void) throws {
        guard records < limit else { return }
        switch layout {
        case .array, .wrapped:
            try writer.raw(records == 0 ? "\n" : ",\n")
        case .jsonLines:
            break
        }
        try writer.beginObject()
        try body(writer)
        try writer.endObject()
        if case .jsonLines = layout { try writer.raw("\n") }
        records += 1
    }

    /// Closes the layout and the file; returns the bytes written.
    @discardableResult
    func finish() throws -> Int {
        switch layout {
        case .array:
            try writer.raw(records == 0 ? "]\n" : "\n]\n")
        case .wrapped:
            try writer.raw(records == 0 ? "]}\n" : "\n]}\n")
        case .jsonLines:
            break
        }
        try writer.sink.close()
        return writer.sink.bytesWritten
    }
}
