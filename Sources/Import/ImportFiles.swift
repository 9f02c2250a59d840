import Foundation

/// Turns the paths of `report import A B DIR` into the list of files to import, in import order:
/// arguments in the order given, files below a folder in byte order of their relative paths.
public enum ImportFiles {
    public struct Entry: Sendable, Equatable {
        /// The path to open.
        public let path: String
        /// The name shown in messages and kept in `import_log`: the path as given, or below a
        /// folder argument `DIR/relative/path`.
        public let displayName: String
        /// The last path component (the kind is told from it).
        public var fileName: String { (path as NSString).lastPathComponent }
        /// Gzip-compressed (`.gz`): read through zlib, its decompressed size unknown in advance.
        var isCompressed: Bool { fileName.lowercased().hasSuffix(".gz") }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Extensions taken from folders (a file named on the command line is always tried).
    static let exportExtensions = [".json", ".jsonl", ".ndjson", ".json.gz", ".jsonl.gz", ".ndjson.gz"]

    public static func expand(_ arguments: [String]) throws -> [Entry] {
        var entries: [Entry] = []
        let manager = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw Failure(description: "\(argument): no such file or folder")
            }
            if !isDirectory.boolValue {
                entries.append(Entry(path: argument, displayName: argument))
                continue
            }
            var relatives: [String] = []
            try walk(folder: argument, relative: "", into: &relatives)
            relatives.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            entries += relatives.map { Entry(path: prefix + $0, displayName: prefix + $0) }
        }
        return entries
    }

    /// Collects export files below a folder, skipping hidden entries (`.git`, editors' temp files).
    private static func walk(folder: String, relative: String, into result: inout [String]) throws {
        let path = relative.isEmpty ? folder : folder + "/" + relative
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw Failure(description: "\(path): cannot read folder")
        }
        for name in names where !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + child, isDirectory: &isDirectory) else {
                continue
            }
            if isDirectory.boolValue {
                try walk(folder: folder, relative: child, into: &result)
            } else if exportExtensions.contains(where: { name.lowercased().hasSuffix($0) }) {
                result.append(child)
            }
        }
    }

    /// JSON Lines by extension (SPEC §1): `.jsonl`, `.ndjson`, compressed or not.
    public static func isJSONLines(_ fileName: String) -> Bool {
        var lower = fileName.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        return lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson")
    }
}
