import Foundation
import Writers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files a killed run can leave in a folder it writes to, recognised by the exact
/// names their writers give them, and nothing else:
///
/// - every writer's (`TemporaryNames`: CSV, Markdown, SVG, XLSX, the CSV folders, the nightly's
///   archive copies and error files): `.<name>.tmp-<pid>-<hex>` (a file or a folder) and
///   `.<name>.old-<pid>-<hex>` (a replaced CSV folder not yet deleted);
/// - libxlsxwriter's own scratch files (`tmpfileplus`: `tmp.` and 10 letters or digits, mode
///   0600). The library unlinks each one right after creating it, so one survives only a kill in
///   that instant, and it is then still empty: only empty ones are taken.
///
/// A name carrying the pid of a process that is alive is left alone: a `report fleet -o` running
/// beside the nightly job may be writing it.
enum StaleTemporaryFiles {
    /// What a name is, if it is one of those temporary files.
    enum Match: Equatable {
        /// A writer's temporary file or folder, with the pid of the process that made it.
        case writer(pid: Int32)
        /// A libxlsxwriter scratch file (no pid in the name).
        case libxlsxwriter
    }

    static func match(_ name: String) -> Match? {
        if let pid = TemporaryNames.pid(in: name) { return .writer(pid: pid) }
        return libxlsxwriterName(name) ? .libxlsxwriter : nil
    }

    /// Removes the stale temporary entries directly inside `folder` (or below it when
    /// `recursive`, descending into ordinary folders only). Returns the paths removed and a line
    /// per entry that could not be removed.
    static func remove(
        in folder: String, recursive: Bool = false,
        isAlive: (Int32) -> Bool = StaleTemporaryFiles.isAlive
    ) -> (removed: [String], errors: [String]) {
        var removed: [String] = [], errors: [String] = []
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return ([], []) }
        for name in names.sorted() {
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            let isFolder = status.st_mode & S_IFMT == S_IFDIR
            switch match(name) {
            case .writer(let pid)?:
                guard !isAlive(pid) else { continue }
            case .libxlsxwriter?:
                guard status.st_mode & S_IFMT == S_IFREG, status.st_size == 0,
                    status.st_mode & 0o077 == 0
                else { continue }
            case nil:
                if recursive, isFolder, !name.hasPrefix(".") {
                    let below = remove(in: path, recursive: true, isAlive: isAlive)
                    removed += below.removed
                    errors += below.errors
                }
                continue
            }
            do {
                try FileManager.default.removeItem(atPath: path)
                removed.append(path)
            } catch {
                errors.append(
                    "\(path): cannot remove this stale temporary \(isFolder ? "folder" : "file") "
                        + "(\(error.localizedDescription))"
                )
            }
        }
        return (removed, errors)
    }

    /// A process with this pid exists (ours counts: never delete what this run is writing).
    static func isAlive(_ pid: Int32) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }

    private static func libxlsxwriterName(_ name: String) -> Bool {
        guard name.hasPrefix("tmp.") else { return false }
        let rest = name.utf8.dropFirst(4)
        return rest.count == 10
            && rest.allSatisfy { byte in
                (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
            }
    }
}
