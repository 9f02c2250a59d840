import Foundation
import Store
import XCTest

/// A throwaway Citus cluster for the tests (issue 29): a coordinator and two workers, each a
/// `PostgresTestServer` started with `shared_preload_libraries = 'citus'`, stopped and removed at
/// the process's exit like every test cluster (its `atexit` handler), whether the tests passed or
/// failed.
///
/// The nodes listen on 127.0.0.1, each on a free port: Citus names a node by host and port, and
/// the coordinator connects to the workers and to itself with them, as it would on real machines
/// (a socket folder as the host name works too, but it is not how Citus is deployed or tested
/// upstream). Their Unix sockets stay in their folders for `pg_ctl`.
///
/// In the `postgres` database of each node: `CREATE EXTENSION citus`; on the coordinator
/// `citus_set_coordinator_host('127.0.0.1', PORT0)` and `citus_add_node('127.0.0.1', PORTn)` per
/// worker. A test's empty place is a new schema (`freshDatabase`), not a database: a schema is one
/// propagated `CREATE SCHEMA` (tens of milliseconds), where a database needs the extension created in it on
/// every node and the nodes registered again (seconds), and a maintenance daemon per node.
///
/// `citus.shard_count = 4` (two shards per worker instead of Citus's default 32): the same layout
/// questions, and a distributed table is created and filled several times faster on two cores.
public final class CitusTestServer: @unchecked Sendable {
    public let coordinator: PostgresTestServer
    public let workers: [PostgresTestServer]
    public var nodes: [PostgresTestServer] { [coordinator] + workers }
    /// The database of every node that holds the extension: initdb's own.
    public static let database = "postgres"
    /// What `../shared/citus/install.sh` installs.
    public static let library = "/usr/lib/postgresql/15/lib/citus.so"
    public static let settings = ["shared_preload_libraries=citus", "citus.shard_count=4"]
    private var schemaNumber = 0
    private let lock = NSLock()

    nonisolated(unsafe) private static var sharedCluster: Result<CitusTestServer, Error>?
    private static let sharedLock = NSLock()

    /// The cluster of this test process, started on first use (a failure to start is remembered:
    /// the next tests fail with it at once instead of starting three servers again).
    public static func shared() throws -> CitusTestServer {
        try checkInstalled()
        sharedLock.lock(); defer { sharedLock.unlock() }
        if let sharedCluster { return try sharedCluster.get() }
        let result = Result { try CitusTestServer(name: "citus") }
        sharedCluster = result
        return try result.get()
    }

    /// The installer beside the repository (`../shared/citus/install.sh`), which `make test` runs.
    public static var installScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/citus/install.sh").standardizedFileURL.path
    }

    /// Returns when Citus is installed. Without it, skips the test when nothing here can install it
    /// (no `../shared/citus/install.sh`), and fails it when `make test` would have installed it.
    public static func checkInstalled() throws {
        if FileManager.default.fileExists(atPath: library) { return }
        if FileManager.default.fileExists(atPath: installScript) {
            throw TestServerError(
                "Citus is not installed (no \(library)): run `make test`, which installs it (\(installScript))")
        }
        throw XCTSkip("Citus is not installed (no \(library)) and there is no \(installScript) to install it")
    }

    /// Starts a new cluster of a coordinator and `workerCount` workers (the tests share `shared()`).
    public init(name: String, workerCount: Int = 2) throws {
        try CitusTestServer.checkInstalled()
        var started: [PostgresTestServer] = []
        do {
            for role in ["coordinator"] + (1...workerCount).map({ "worker\($0)" }) {
                started.append(
                    try PostgresTestServer(name: "\(name)-\(role)", settings: CitusTestServer.settings, tcp: true))
            }
            for node in started {
                try Database(path: node.url(database: CitusTestServer.database)).execute("CREATE EXTENSION citus")
            }
            let ports = started.map { $0.port! }
            let coordinatorDatabase = try Database(path: started[0].url(database: CitusTestServer.database))
            try coordinatorDatabase.execute("SELECT citus_set_coordinator_host('127.0.0.1', \(ports[0]))")
            for port in ports.dropFirst() {
                try coordinatorDatabase.execute("SELECT citus_add_node('127.0.0.1', \(port))")
            }
        } catch {
            started.forEach { $0.shutDown() }
            throw error
        }
        coordinator = started[0]
        workers = Array(started.dropFirst())
    }

    /// The coordinator's `postgres` database over TCP, with `schema` first in its `search_path`
    /// (so that `current_schema()`, where `report` reads its catalogue, is that schema).
    public func url(schema: String? = nil) -> String {
        "postgresql://postgres@127.0.0.1:\(coordinator.port!)/\(CitusTestServer.database)"
            + (schema.map { "?options=-csearch_path%3D\($0)" } ?? "")
    }

    /// A new empty schema of the cluster (`CREATE SCHEMA` on the coordinator, which Citus makes on
    /// the workers too), named uniquely in this process; the URL of the coordinator working in it.
    public func freshDatabase(prefix: String = "t") throws -> String {
        precondition(prefix.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "a bare schema name")
        lock.lock()
        schemaNumber += 1
        let name = "\(prefix)_\(schemaNumber)"
        lock.unlock()
        try Database(path: url()).execute("CREATE SCHEMA \(name)")
        return url(schema: name)
    }

    /// Stops every node and removes its folder now, instead of at the process's exit.
    public func stop() {
        nodes.forEach { $0.shutDown() }
    }
}
