#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder that files are written into (`-o DIR`, `--archive DIR`), created when missing
/// (SPEC §7), parents included, like `mkdir -p`.
///
/// Each missing folder is made with one `mkdirat` (mode 0755, less the process's umask) below a
/// descriptor of its parent, so the walk cannot be redirected between one step and the next: a
/// folder this code made is opened with `O_NOFOLLOW`, and a symbolic link met where a folder is
/// missing (a dangling link, or one planted while creating) is refused rather than followed out of
/// the given path. A link that already leads to a folder is used like that folder: that part of
/// the path exists, as its owner set it up. Two runs creating the same folder at once both
/// succeed (`EEXIST` is looked at again, not taken as a failure). An existing path that is not a
/// folder is an error, and nothing is created then.
public enum OutputFolder {
    /// Why a folder could not be made ready.
    public struct Failure: Error, Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// `component` exists and is not a folder (the given path itself when it is the one).
            case notAFolder
            /// `component` is a symbolic link whose target does not exist.
            case danglingLink(target: String)
            /// `component` turned into a symbolic link while its parents were being made.
            case linkWhileCreating(target: String)
            /// A system call failed on `component`: its `errno` and `strerror` text.
            case system(code: Int32, message: String)
        }

        /// The path as given.
        public var path: String
        /// The part of the path the problem is at (`path` itself, or one of its parents).
        public var component: String
        public var reason: Reason

        /// One line naming the path, the cause and the fix; `option` is how to give another folder
        /// (`-o DIR`, `--archive DIR`) and `role` what the folder is for (`output`, `archive`).
        public func message(option: String, role: String) -> String {
            switch reason {
            case .notAFolder where component == path:
                return "\(path): not a folder; give another \(option)"
            case .notAFolder:
                return "\(path): cannot create the \(role) folder: \(component) is not a folder; give another \(option)"
            case .danglingLink(let target):
                return
                    "\(path): cannot create the \(role) folder: \(component) is a symbolic link to \(target), which "
                    + "does not exist; create its target or give another \(option)"
            case .linkWhileCreating(let target):
                return
                    "\(path): cannot create the \(role) folder: \(component) became a symbolic link to \(target) "
                    + "while it was being created; not followed; give another \(option)"
            case .system(let code, let message):
                let advice =
                    code == EACCES || code == EPERM || code == EROFS
                    ? "permission denied or read-only file system" : "\(message) (errno \(code))"
                return "\(path): cannot create the \(role) folder: \(component): \(advice); give another \(option)"
            }
        }
    }

    /// The mode of a folder made here, before the umask.
    public static let mode: mode_t = 0o755

    /// Makes sure `path` is a folder, creating it and its missing parents; returns whether it made
    /// anything.
    @discardableResult
    public static func prepare(_ path: String) throws(Failure) -> Bool {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw Failure(path: path, component: path, reason: .notAFolder)
            }
            return false
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let absolute = path.hasPrefix("/")
        var descriptor = open(absolute ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(path: path, component: absolute ? "/" : ".", reason: system(errno))
        }
        defer { close(descriptor) }
        var walked = absolute ? "/" : ""
        var created = false
        for component in components where component != "." {
            walked = walked.isEmpty || walked == "/" ? walked + component : walked + "/" + component
            let next = try step(into: component, of: descriptor, at: walked, path: path, created: &created)
            close(descriptor)
            descriptor = next
        }
        return created
    }

    /// Opens (creating when missing) the folder `name` below `parent`; `created` turns true once a
    /// folder was made, after which no link is followed.
    private static func step(
        into name: String, of parent: Int32, at walked: String, path: String, created: inout Bool
    ) throws(Failure) -> Int32 {
        for _ in 0..<8 {  // a folder made and removed by someone else, over and over: give up
            var status = stat()
            if fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) != 0 {
                let code = errno
                guard code == ENOENT else { throw Failure(path: path, component: walked, reason: system(code)) }
                if mkdirat(parent, name, mode) == 0 {
                    created = true
                } else if errno != EEXIST {
                    throw Failure(path: path, component: walked, reason: system(errno))
                }
                continue  // look again at what is there now: ours, or a concurrent run's
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                let next = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if next >= 0 { return next }
                if errno == ENOENT || errno == ELOOP { continue }
                throw Failure(path: path, component: walked, reason: system(errno))
            case S_IFLNK:
                var target = stat()
                if !created, fstatat(parent, name, &target, 0) == 0 {
                    guard target.st_mode & S_IFMT == S_IFDIR else {
                        throw Failure(path: path, component: walked, reason: .notAFolder)
                    }
                    let next = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                    if next >= 0 { return next }
                    throw Failure(path: path, component: walked, reason: system(errno))
                }
                let destination = linkTarget(parent, name)
                throw Failure(
                    path: path, component: walked,
                    reason: created ? .linkWhileCreating(target: destination) : .danglingLink(target: destination))
            default:
                throw Failure(path: path, component: walked, reason: .notAFolder)
            }
        }
        throw Failure(path: path, component: walked, reason: system(EAGAIN))
    }

    private static func linkTarget(_ parent: Int32, _ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(parent, name, &buffer, buffer.count - 1)
        guard count >= 0 else { return "?" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func system(_ code: Int32) -> Failure.Reason {
        .system(code: code, message: String(cString: strerror(code)))
    }
}
