import Foundation
import ReportTestSupport
import Store
import XCTest
@testable import ReportCLI

#if canImport(Glibc)
import Glibc
#endif

/// A password never leaks (issue 30), against a real server that asks for one (SCRAM): random
/// passwords from all printable ASCII and some UTF-8 (seeded: a failure reproduces), written in
/// URLs correctly (percent-encoded) and incorrectly (raw, so `@ / : % ? #` split the URL where
/// libpq does not expect), as a query parameter, in keyword/value strings quoted and not, in
/// `--db` and in `$REPORT_DB`; through every failure path: a host that does not resolve, a port
/// with no server, a database that does not exist, a wrong password, a server that is down (its
/// socket folder left without a socket). Nothing on standard output or error, no log line of
/// `report nightly`, no report file, no `import_log` row and no `status` output holds 3 characters
/// of the password that the same run with a same-shape password does not hold too (the tool's
/// own words may share 3 characters with a random password by chance; a piece of the password
/// changes with it).
final class PasswordLeakTests: CLITestCase {
    static let role = "leak_user"
    static let wrongRole = "leak_other"
    static let database = "leak_db"

    private var server: PostgresTestServer!
    private var maintenance: Database!
    /// An existing folder with no server's socket in it: what a stopped server leaves.
    private var downFolder: String!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PostgresTestServer.passwordServer()
        maintenance = try Database(
            path: "postgresql://postgres:\(PostgresTestServer.password)@/postgres?host=\(server.folder.path)")
        if try maintenance.scalarInt("SELECT COUNT(*) FROM pg_roles WHERE rolname = ?", [.text(Self.role)]) == 0 {
            try maintenance.execute("CREATE ROLE \(Self.role) LOGIN; CREATE ROLE \(Self.wrongRole) LOGIN")
            try setPassword(of: Self.wrongRole, to: "Fixed-Pa55word")
            try maintenance.execute("CREATE DATABASE \(Self.database) OWNER \(Self.role)")
        }
        downFolder = path("server-down")
        try FileManager.default.createDirectory(atPath: downFolder, withIntermediateDirectories: true)
    }

    /// `ALTER ROLE … PASSWORD`: the server quotes the bound password itself (`format('%L')`), so
    /// no password is ever spliced into SQL by the test.
    private func setPassword(of role: String, to password: String) throws {
        let statement = try maintenance.prepare("SELECT format('ALTER ROLE %I PASSWORD %L', ?::text, ?::text)")
        try statement.bind([.text(role), .text(password)])
        XCTAssertTrue(try statement.step())
        try maintenance.execute(statement.string(0))
    }

    /// One way of reaching the database: a failure path, written in one form.
    private struct Attempt {
        let name: String
        let location: (String) -> String
        let viaEnvironment: Bool
    }

    private func attempts() -> [Attempt] {
        let socket = server.folder.path
        let encodedSocket = PasswordForms.percentEncoded(socket)
        let encodedDown = PasswordForms.percentEncoded(downFolder)
        let paths: [(name: String, host: String, kvHost: String, port: String, role: String, database: String)] = [
            ("bad host", "no-such-host.invalid", "no-such-host.invalid", "5432", Self.role, Self.database),
            ("bad port", encodedSocket, socket, "1", Self.role, Self.database),
            ("bad database", encodedSocket, socket, "5432", Self.role, "no_such_database"),
            ("wrong password", encodedSocket, socket, "5432", Self.wrongRole, Self.database),
            ("server down", encodedDown, downFolder, "5432", Self.role, Self.database),
        ]
        var result: [Attempt] = []
        for path in paths {
            let url = "postgresql://\(path.role):"
            let rest = "@\(path.host):\(path.port)/\(path.database)"
            result += [
                Attempt(
                    name: "\(path.name), encoded URL", location: { url + PasswordForms.percentEncoded($0) + rest },
                    viaEnvironment: false),
                Attempt(name: "\(path.name), raw URL", location: { url + $0 + rest }, viaEnvironment: false),
                Attempt(
                    name: "\(path.name), raw URL in $REPORT_DB", location: { url + $0 + rest }, viaEnvironment: true),
                Attempt(
                    name: "\(path.name), raw query parameter",
                    location: { "postgresql://\(path.role)@\(path.host):\(path.port)/\(path.database)?password=\($0)" },
                    viaEnvironment: false),
                Attempt(
                    name: "\(path.name), quoted keyword/value",
                    location: {
                        "host=\(path.kvHost) port=\(path.port) user=\(path.role) dbname=\(path.database) "
                            + "password=\(PasswordForms.quoted($0))"
                    }, viaEnvironment: false),
                Attempt(
                    name: "\(path.name), raw keyword/value",
                    location: {
                        "host=\(path.kvHost) port=\(path.port) user=\(path.role) password=\($0) dbname=\(path.database)"
                    }, viaEnvironment: false),
            ]
        }
        return result
    }

    /// `report ARGS` with the location in `--db` or `$REPORT_DB`: its standard output and error.
    private func run(_ arguments: [String], _ location: String, viaEnvironment: Bool) -> String {
        let run =
            viaEnvironment
            ? report(arguments, environment: ["REPORT_DB": location])
            : report(arguments + ["--db", location])
        return run.out + run.err
    }

    func testNoFailurePathShowsAPieceOfThePassword() throws {
        var generator = PasswordGenerator(seed: 30)
        let moods = try write("inbox/moods.json", #"[{"userId": "u1", "date": "2026-11-01", "mood": 4}]"#)
        for round in 0..<12 {
            let password = generator.password()
            let other = PasswordForms.sameShape(password)
            for attempt in attempts() {
                // The role's password is the one tried, so "bad database" gets past the login.
                var outputs: [String] = []
                for secret in [password, other] {
                    try setPassword(of: Self.role, to: secret)
                    var text = run(["status"], attempt.location(secret), viaEnvironment: attempt.viaEnvironment)
                    if round % 4 == 0 {
                        text += run(
                            ["import", moods], attempt.location(secret), viaEnvironment: attempt.viaEnvironment)
                        text += run(
                            [
                                "nightly", "--inbox", path("empty-inbox"), "--archive", path("archive"), "-o",
                                path("out"),
                                "--as-of", "2026-11-02T06:00:00+01:00",
                            ],
                            attempt.location(secret), viaEnvironment: attempt.viaEnvironment)
                    }
                    outputs.append(text)
                }
                XCTAssertFalse(outputs[0].isEmpty)
                let leaked = PasswordForms.leaked(password, in: outputs[0], baseline: outputs[1])
                XCTAssertEqual(
                    leaked, [],
                    "round \(round), \(attempt.name), password \(password.debugDescription): \(outputs[0])")
                XCTAssertFalse(
                    password.count >= 3 && outputs[0].contains(password), "\(attempt.name): \(outputs[0])")
            }
        }
    }

    /// The right password, written correctly: import, status, a report, `import_log`, and the
    /// nightly log hold no piece of it either.
    func testASuccessfulRunShowsNoPieceOfThePassword() throws {
        var generator = PasswordGenerator(seed: 3031)
        try FileManager.default.createDirectory(atPath: path("empty-inbox"), withIntermediateDirectories: true)
        for round in 0..<3 {
            let password = generator.password()
            let other = PasswordForms.sameShape(password)
            var outputs: [String] = []
            for secret in [password, other] {
                let name = "leak_ok_\(round)_\(outputs.count)"
                try maintenance.execute("CREATE DATABASE \(name) OWNER \(Self.role)")
                try setPassword(of: Self.role, to: secret)
                let url =
                    "postgresql://\(Self.role):\(PasswordForms.percentEncoded(secret))@"
                    + "\(PasswordForms.percentEncoded(server.folder.path))/\(name)"
                let moods = try write(
                    "ok-\(round)/moods.json", #"[{"userId": "u1", "date": "2026-11-01", "mood": 4}]"#)
                var text = ""
                let imported = report(["import", "--db", url, moods])
                XCTAssertEqual(imported.code, .success, imported.err)
                text += imported.out + imported.err
                let status = report(["status", "--db", url])
                XCTAssertEqual(status.code, .success, status.err)
                text += status.out + status.err
                let output = path("reports-\(round)-\(outputs.count)")
                let habits = report([
                    "habits", "--db", url, "--date", "2026-11-01", "--as-of", "2026-11-02T06:00:00+01:00",
                    "--csv", "--md", "-o", output,
                ])
                XCTAssertEqual(habits.code, .success, habits.err)
                text += habits.out + habits.err
                for file in try FileManager.default.subpathsOfDirectory(atPath: output).sorted() {
                    text += (try? String(contentsOfFile: output + "/" + file, encoding: .utf8)) ?? ""
                }
                let nightly = report([
                    "nightly", "--db", url, "--inbox", path("empty-inbox"), "--archive", path("archive"),
                    "-o", output, "--as-of", "2026-11-02T06:00:00+01:00",
                ])
                text += nightly.out + nightly.err
                let log = try Database(path: url).rows("SELECT * FROM import_log ORDER BY 1")
                text += log.map { row in row.map { "\($0)" }.joined(separator: "|") }.joined(separator: "\n")
                outputs.append(text)
            }
            let leaked = PasswordForms.leaked(password, in: outputs[0], baseline: outputs[1])
            XCTAssertEqual(leaked, [], "password \(password.debugDescription): \(outputs[0])")
            XCTAssertTrue(outputs[0].contains("\(Self.role):***@"), "status shows the location masked")
        }
    }
}
