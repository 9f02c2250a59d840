import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one naming scheme of every temporary file or folder `report` writes beside its target:
/// `.<name>.tmp-<pid>-<hex>` while it is written, `.<name>.old-<pid>-<hex>` for a replaced folder
/// not yet deleted. Every writer names its temporaries here (CSV, Markdown, SVG, XLSX, the
/// nightly's archive copies and error files), and the nightly clean-up recognises them here, so
/// the two cannot drift apart.
public enum TemporaryNames {
    public enum Kind: String, Sendable { case writing = "tmp", replaced = "old" }

    /// A hidden name beside `url`, unique to this process and call.
    public static func sibling(of url: URL, _ kind: Kind = .writing) -> URL {
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        let name = "." + url.lastPathComponent + "." + kind.rawValue + "-" + String(getpid()) + "-" + random
        return url.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// The pid in a temporary name made by `sibling`, or nil for any other name.
    public static func pid(in name: String) -> Int32? {
        guard name.hasPrefix(".") else { return nil }
        let parts = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts[0].isEmpty, let last = parts.last else { return nil }
        let fields = last.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, Kind(rawValue: String(fields[0])) != nil,
            isDigits(fields[1], hexadecimal: false), let pid = Int32(fields[1]), pid > 0,
            isDigits(fields[2], hexadecimal: true)
        else { return nil }
        return pid
    }

    /// Non-empty and made only of decimal digits, or of lowercase hexadecimal digits.
    private static func isDigits(_ text: Substring, hexadecimal: Bool) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 48 && byte <= 57) || (hexadecimal && byte >= 97 && byte <= 102)
            }
    }
}
