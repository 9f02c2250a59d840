import Foundation
import XCTest

/// The one policy for a program or library a test needs (LibreOffice, python3 with openpyxl,
/// unzip, the built `report` binary): `make test` installs every one of them, so a missing one
/// FAILS the test with what to install, never skips it quietly: a suite that skips its LibreOffice
/// checks on a machine without LibreOffice would pass without having checked anything.
/// Tests that are opt-in by design (the 2 GB import) skip through their own environment variable.
public enum RequiredTool {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The first executable among `candidates` (absolute paths, or names looked up in `$PATH`).
    public static func path(_ candidates: [String], install: String) throws -> String {
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for candidate in candidates {
            if candidate.hasPrefix("/") {
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                continue
            }
            for folder in searchPath where FileManager.default.isExecutableFile(atPath: "\(folder)/\(candidate)") {
                return "\(folder)/\(candidate)"
            }
        }
        throw Missing(description: "\(candidates.joined(separator: " or ")) is missing: \(install) (`make test` does)")
    }

    /// Checks that python3 can import `module`.
    public static func pythonModule(_ module: String, install: String) throws {
        let python = try path(["python3"], install: "apt-get install python3")
        let result = try ChildProcess.run(python, ["-c", "import \(module)"])
        guard result.status == 0 else {
            throw Missing(description: "python3 cannot import \(module): \(install) (`make test` does): \(result.err)")
        }
    }
}

/// A new, empty folder under the system's temporary folder; the caller removes it.
public func makeTemporaryFolder(_ prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
