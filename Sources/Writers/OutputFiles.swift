import ByteOutput
import Foundation

/// Safe file names and paths for report output.
///
/// Names come from data (event ids, user ids, scope strings) and from the command line, so none is
/// trusted: each becomes one plain path component, and every output path is
/// `outputDirectory/<sanitized name>`, checked to stay inside the output directory.
public enum OutputFiles {
    /// The longest name written, in bytes (well under the 255 of common file systems, leaving room
    /// for the temporary-file prefix and suffix).
    public static let maximumNameBytes = 100

    /// One safe path component made from any text.
    ///
    /// Keeps `A–Z a–z 0–9 . _ -`; every other Unicode scalar (a `/`, a NUL byte, an accented letter)
    /// becomes one `_`. A leading `.` becomes `_`, so the result is never hidden, `.` or `..`; an
    /// empty name becomes `_`. A name longer than `maximumNameBytes` is cut and given a `-` and 8
    /// hex digits of a stable hash (FNV-1a) of the whole original, so distinct long names stay
    /// distinct and the same name always maps to the same file. Distinct short names may still
    /// meet (`a/b` and `a_b` both give `a_b`): the scope strings of the SPEC never contain such
    /// characters, and a readable name matters more for them.
    public static func sanitizeFileName(_ name: String) -> String {
        sanitizeFileName(name, maximumBytes: maximumNameBytes)
    }

    /// `sanitizeFileName(stem) + "." + extension`, the stem cut so that the whole name still fits
    /// in `maximumNameBytes` (the extension is never cut off).
    public static func fileName(_ stem: String, extension fileExtension: String) -> String {
        let safeExtension = sanitizeFileName(fileExtension, maximumBytes: 16)
        let stemBytes = maximumNameBytes - safeExtension.utf8.count - 1
        return sanitizeFileName(stem, maximumBytes: stemBytes) + "." + safeExtension
    }

    /// `directory/<sanitized name>`, after checking that the standardized path is a direct child
    /// of the standardized directory (belt and braces: a sanitized name has no `/` and is not `..`).
    public static func location(of name: String, in directory: URL) throws -> URL {
        let safeName = sanitizeFileName(name)
        let parent = directory.standardizedFileURL
        let candidate = parent.appendingPathComponent(safeName).standardizedFileURL
        guard candidate.lastPathComponent == safeName,
            candidate.deletingLastPathComponent().standardizedFileURL.path == parent.path
        else {
            throw OutputError(path: candidate.path, reason: .unsafeName, operation: "resolve the output path")
        }
        return candidate
    }

    static func sanitizeFileName(_ name: String, maximumBytes: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(name.utf8.count, maximumBytes + 16))
        for scalar in name.unicodeScalars {
            let value = scalar.value
            bytes.append(value < 128 && isAllowed(UInt8(value)) ? UInt8(value) : underscore)
        }
        if bytes.isEmpty { bytes = [underscore] }
        if bytes[0] == UInt8(ascii: ".") { bytes[0] = underscore }
        if bytes.count > maximumBytes {
            let suffix = Array(("-" + hexHash(name)).utf8)
            bytes = Array(bytes.prefix(max(1, maximumBytes - suffix.count))) + suffix
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let underscore = UInt8(ascii: "_")

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// 8 hex digits of the 64-bit FNV-1a hash of the UTF-8 bytes, folded to 32 bits: stable across
    /// runs and platforms (unlike `Hasher`, which is seeded per process).
    static func hexHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let hex = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
