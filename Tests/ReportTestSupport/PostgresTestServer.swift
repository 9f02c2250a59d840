import Foundation
import Store
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster for the tests: `initdb` into a temporary folder, `pg_ctl start`
/// listening on a Unix socket in that folder only (no TCP port to collide with), and stopped and
/// removed when the test process exits, whether its tests passed or failed. A cluster started with
/// `tcp: true` (the nodes of `CitusTestServer`) also listens on 127.0.0.1, on a free port.
///
/// `initdb` runs once per process: every further trust-authenticated cluster is a copy of that
/// first data folder (`cp -a`: two to five times faster than `initdb` on the test machine).
///
/// Run as root (the container), the cluster belongs to the `postgres` user (PostgreSQL refuses to
/// run as root): the folder is given to it and every server command runs through `runuser`.
/// Durability is switched off (`fsync=off`): a crash loses a test cluster, never data.
public final class PostgresTestServer: @unchecked Sendable {
    public let folder: URL
    public let binaries: String
    /// The TCP port on 127.0.0.1 of a cluster started with `tcp: true` (nil: the socket only).
    public private(set) var port: Int?
    private var databaseNumber = 0
    /// The server's settings, given again on a restart.
    private var options = ""
    private let lock = NSLock()

    /// The server of this test process, started on first use.
    public static func shared() throws -> PostgresTestServer {
        sharedLock.lock(); defer { sharedLock.unlock() }
        if let sharedServer { return sharedServer }
        let server = try PostgresTestServer(name: "main")
        sharedServer = server
        return server
    }

    nonisolated(unsafe) private static var sharedServer: PostgresTestServer?
    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var running: [PostgresTestServer] = []
    private static let runningLock = NSLock()
    private static let registerExit: Void = { atexit { PostgresTestServer.stopAll() } }()
    /// The data folder `initdb` made first in this process (trust authentication), copied for the
    /// next clusters; removed at exit.
    nonisolated(unsafe) private static var dataTemplate: URL?
    private static let templateLock = NSLock()

    /// The password of `passwordServer()`'s superuser.
    public static let password = "Test-Pa55word"
    nonisolated(unsafe) private static var passwordCluster: PostgresTestServer?

    /// A second server that asks for a password (SCRAM), for the tests of a refused login.
    public static func passwordServer() throws -> PostgresTestServer {
        sharedLock.lock(); defer { sharedLock.unlock() }
        if let passwordCluster { return passwordCluster }
        let server = try PostgresTestServer(name: "password", authentication: "scram-sha-256")
        passwordCluster = server
        return server
    }

    /// Starts a new cluster (tests of several servers start more than one). With `tcp`, it also
    /// listens on 127.0.0.1 on a port free when it starts (another one is tried if it is taken
    /// by then).
    public init(name: String, settings: [String] = [], authentication: String = "trust", tcp: Bool = false) throws {
        guard let binaries = PostgresTestServer.findBinaries() else {
            throw TestServerError(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run `make test`, which installs it")
        }
        self.binaries = binaries
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            "report-pg-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
        _ = PostgresTestServer.registerExit
        PostgresTestServer.removeAbandoned(binaries: binaries)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if getuid() == 0 {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: folder.path)
            }
            try initializeData(authentication: authentication)
            var attempts = 0
            while true {
                attempts += 1
                if tcp { port = try PostgresTestServer.freePort() }
                let listen =
                    port.map { ["-p", String($0), "-c", "listen_addresses=127.0.0.1"] } ?? ["-c", "listen_addresses="]
                options =
                    (["-k", folder.path] + listen + [
                        "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                        "-c", "max_connections=60",
                    ] + settings.flatMap { ["-c", $0] })
                    .map { $0.isEmpty ? "''" : $0 }.joined(separator: " ")
                do {
                    try restart()
                    break
                } catch  where tcp && attempts < 5 {
                    continue  // the port was taken between the check and the start
                }
            }
        } catch {
            // The server's log says why it did not start; it goes with the folder.
            let log = (try? String(contentsOfFile: folder.path + "/server.log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: folder)
            throw log.isEmpty ? error : TestServerError("\(error)\nserver.log: \(log.suffix(2000))")
        }
        PostgresTestServer.runningLock.lock()
        PostgresTestServer.running.append(self)
        PostgresTestServer.runningLock.unlock()
    }

    /// `folder/data`: a copy of this process's first trust cluster, or a new `initdb`.
    private func initializeData(authentication: String) throws {
        let data = folder.path + "/data"
        guard authentication == "trust" else { return try initdb(data, authentication: authentication) }
        // The first cluster makes the template while holding the lock; the next ones wait for it,
        // then copy it side by side (it is never started nor changed).
        PostgresTestServer.templateLock.lock()
        if let template = PostgresTestServer.dataTemplate {
            PostgresTestServer.templateLock.unlock()
            try PostgresTestServer.spawn(["/bin/cp", "-a", template.path, data])
            return
        }
        defer { PostgresTestServer.templateLock.unlock() }
        try initdb(data, authentication: authentication)
        let template = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            "report-pg-template-\(getpid())-\(UUID().uuidString.prefix(8))")
        try PostgresTestServer.spawn(["/bin/cp", "-a", data, template.path])
        PostgresTestServer.dataTemplate = template
    }

    private func initdb(_ data: String, authentication: String) throws {
        var initArguments = [
            "-D", data, "-A", authentication, "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync",
        ]
        if authentication != "trust" {
            let passwordFile = folder.appendingPathComponent("password").path
            try Data(PostgresTestServer.password.utf8).write(to: URL(fileURLWithPath: passwordFile))
            if getuid() == 0 {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: passwordFile)
            }
            initArguments.append("--pwfile=" + passwordFile)
        }
        try run("initdb", initArguments)
    }

    /// A TCP port of 127.0.0.1 that nothing listens on now (the system's choice for port 0).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestServerError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw TestServerError("cannot find a free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The URL of a database of this server (the superuser, over the socket).
    public func url(database: String) -> String {
        "postgresql://postgres@/\(database)?host=\(folder.path)" + (port.map { "&port=\($0)" } ?? "")
    }

    /// A new empty database, named uniquely in this process.
    public func freshDatabase(prefix: String = "t") throws -> String {
        lock.lock()
        databaseNumber += 1
        let name = "\(prefix)_\(databaseNumber)"
        lock.unlock()
        let maintenance = try Database(path: url(database: "postgres"))
        try maintenance.execute(
            "CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        return url(database: name)
    }

    /// Stops the server now (a test of a server lost in the middle of an import).
    public func stop() {
        _ = try? run("pg_ctl", ["-D", folder.path + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts a stopped server again.
    public func restart() throws {
        try run(
            "pg_ctl", ["-D", folder.path + "/data", "-o", options, "-l", folder.path + "/server.log", "-w", "start"])
    }

    /// The server's process id while it runs (the first line of `postmaster.pid`).
    public var pid: pid_t? {
        guard let text = try? String(contentsOfFile: folder.path + "/data/postmaster.pid", encoding: .utf8) else {
            return nil
        }
        return text.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// Stops the server and removes its folder now, instead of at the process's exit.
    public func shutDown() {
        stop()
        try? FileManager.default.removeItem(at: folder)
        PostgresTestServer.runningLock.lock()
        PostgresTestServer.running.removeAll { $0 === self }
        PostgresTestServer.runningLock.unlock()
    }

    static func stopAll() {
        runningLock.lock()
        let servers = running
        running.removeAll()
        runningLock.unlock()
        for server in servers {
            server.stop()
            try? FileManager.default.removeItem(at: server.folder)
        }
        templateLock.lock()
        if let dataTemplate { try? FileManager.default.removeItem(at: dataTemplate) }
        dataTemplate = nil
        templateLock.unlock()
    }

    /// Clusters left by a test process that died before its exit handler ran (a crash): the pid
    /// in the folder name is no longer running. Stopped and removed, so that they do not pile up.
    static func removeAbandoned(binaries: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("report-pg-") && !name.hasPrefix("report-pg-output-") {
            // report-pg-NAME-PID-XXXXXXXX, NAME may hold dashes (`citus-worker1`).
            let parts = name.split(separator: "-")
            guard parts.count >= 5, parts[parts.count - 1].count == 8, let pid = Int32(parts[parts.count - 2]),
                pid != getpid(), kill(pid, 0) != 0
            else { continue }
            let folder = "/tmp/" + name
            let command =
                (getuid() == 0 ? "runuser -u postgres -- " : "")
                + "\(binaries)/pg_ctl -D \(folder)/data -m immediate stop >/dev/null 2>&1"
            _ = command.withCString { system($0) }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init)
            .sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first {
            FileManager.default.fileExists(atPath: $0 + "/initdb")
        }
    }

    /// Runs a server program (as `postgres` when this process is root); throws with its output on failure.
    ///
    /// Through `posix_spawn` and `waitpid` with the output in a file: Foundation's `Process` waits
    /// forever here once `pg_ctl` has left a server running in the background.
    @discardableResult
    public func run(_ program: String, _ arguments: [String]) throws -> String {
        try PostgresTestServer.spawn(
            (getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [binaries + "/" + program]
                + arguments)
    }

    /// Runs `command` (an absolute path, then its arguments); throws with its output on failure.
    @discardableResult
    static func spawn(_ command: [String]) throws -> String {
        let shown = command.first == "/usr/sbin/runuser" ? Array(command.dropFirst(4)) : command
        let program = (shown[0] as NSString).lastPathComponent
        let arguments = shown.dropFirst()
        let outputPath = NSTemporaryDirectory() + "report-pg-output-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, command[0], &actions, nil, argv, environ)
        guard code == 0 else { throw TestServerError("cannot start \(command[0]): error \(code)") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw TestServerError("\(program) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }
}

public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The backend the store tests run against: SQLite unless `REPORT_TEST_BACKEND=postgresql`, or
/// `REPORT_TEST_BACKEND=citus` (PostgreSQL too, on a Citus cluster: `CitusTestServer`). `make test`
/// runs the import and report suites once per backend, with the same tests.
public enum TestStore {
    /// The kind of store: `.postgresql` on Citus too (Citus speaks PostgreSQL; `isCitus` tells).
    public static var backend: StoreKind {
        switch ProcessInfo.processInfo.environment["REPORT_TEST_BACKEND"] {
        case "postgresql", "citus": return .postgresql
        default: return .sqlite
        }
    }

    /// Whether the PostgreSQL databases are schemas of the Citus test cluster.
    public static var isCitus: Bool { ProcessInfo.processInfo.environment["REPORT_TEST_BACKEND"] == "citus" }

    /// Throws what a test of this backend must do when the backend cannot run here: on Citus, skip
    /// when Citus is not installed and cannot be, fail when `make test` would install it.
    public static func checkAvailable() throws {
        if isCitus { try CitusTestServer.checkInstalled() }
    }

    /// The query listing a table's columns in order (`?` the table name), in the backend's catalogue.
    public static var columnsSQL: String {
        switch backend {
        case .sqlite: return "SELECT name FROM pragma_table_info(?) ORDER BY cid"
        case .postgresql:
            return
                "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND "
                + "table_name = ? ORDER BY ordinal_position"
        }
    }

    /// The query listing a table's primary key columns in order (`?` the table name), in the
    /// backend's catalogue; no row for a table without one.
    public static var primaryKeySQL: String {
        switch backend {
        case .sqlite: return "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk"
        case .postgresql:
            return """
                SELECT a.attname::text FROM pg_catalog.pg_constraint k
                JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS c(number, position) ON true
                JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = c.number
                WHERE k.conrelid = to_regclass(?) AND k.contype = 'p' ORDER BY c.position
                """
        }
    }

    /// A fresh, empty database: a file `name` in `directory` on SQLite, a new database of the test
    /// server on PostgreSQL, a new schema of the Citus test cluster on Citus.
    public static func freshLocation(in directory: String, name: String = "t.sqlite") throws -> String {
        switch backend {
        case .sqlite: return (directory as NSString).appendingPathComponent(name)
        case .postgresql:
            return isCitus
                ? try CitusTestServer.shared().freshDatabase() : try PostgresTestServer.shared().freshDatabase()
        }
    }
}
