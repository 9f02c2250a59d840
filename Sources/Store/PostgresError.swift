/// An error from PostgreSQL or libpq: the SQLSTATE (when the server sent one), the message on one
/// line, the SQL that was running, and the database as messages name it (never with a password).
public struct PostgresError: StoreFailure, Sendable {
    /// The five-character SQLSTATE (`23505` unique violation, `57P01` server shutting down), or
    /// empty for a connection failure that never reached a server.
    public let state: String
    public let message: String
    public let sql: String?
    /// The URL without its password.
    public let location: String
    /// The role the connection logged in as, when known: a missing privilege names it.
    public var role: String?
    /// libpq could not read the connection string as written, or read a host, port or database
    /// holding an `@`: a password with `@ / : % ?` not percent-encoded (issue 30).
    public var misreadURL = false

    public init(state: String, message: String, sql: String? = nil, location: String) {
        self.state = state
        self.message = PostgresError.oneLine(message)
        self.sql = sql
        self.location = location
    }

    /// `PostgreSQL error 23502: null value in column "user_id" … - while executing `INSERT …``
    public var description: String {
        var text = "PostgreSQL error\(state.isEmpty ? "" : " " + state): \(message)"
        if let sql {
            let oneLine = PostgresError.oneLine(sql)
            text += " - while executing `\(oneLine.count > 120 ? String(oneLine.prefix(117)) + "..." : oneLine)`"
        }
        return text
    }

    /// One line a person can act on for the failures that come from the world: a server that
    /// cannot be reached or refuses the login, a database that does not exist, a connection lost.
    public func advice(database: String) -> String {
        let cause = "(PostgreSQL\(state.isEmpty ? "" : " " + state): \(message))"
        let name = location
        switch state {
        case "28P01", "28000":
            return "\(name): the server refused the login \(cause); check the user and password of --db or $REPORT_DB"
        case "3D000":
            return "\(name): no such database on the server \(cause); create it (createdb) or give another --db"
        case "55P03", "40P01", "57014":
            return "\(name) is locked by another process \(cause) and stayed locked for the whole --busy-timeout; "
                + "try again when the other import or report has finished, or give a longer --busy-timeout"
        case "42501":
            return "\(name): " + privilegeAdvice(cause: cause)
        case "25006":
            return "\(name) is read-only for this connection \(cause); give a user that may write, or another --db"
        case "" where misreadURL:
            return
                "cannot connect with \(name): libpq read the connection string otherwise than meant \(cause); "
                + "percent-encode the password's special characters in the URL (@ %40, / %2F, : %3A, % %25, ? %3F, "
                + "# %23), or leave it out of the URL and use PGPASSWORD, ~/.pgpass or PGSERVICE"
        case "", "08000", "08003", "08006", "08001", "08004", "57P01", "57P02", "57P03":
            return
                "cannot reach the PostgreSQL server of \(name) \(cause); check that it runs and that --db names the "
                + "right host and port"
        default:
            return description
        }
    }

    /// Which GRANT a role lacks (SQLSTATE 42501), said from the server's message and the SQL that
    /// was refused: issue 30 met a raw `42501` on `CREATE TABLE` for a role without CREATE on the
    /// schema (PostgreSQL 15 gives PUBLIC no CREATE on `public` any more).
    func privilegeAdvice(cause: String) -> String {
        let who = role ?? "of --db"
        let grantee = role ?? "<role>"
        let creating = sql.map { SQLText.leadingKeyword($0) == "CREATE" } ?? false
        if let schema = Self.object(after: "permission denied for schema ", in: message) {
            if creating {
                return
                    "the role \(who) may not create tables in schema \(schema) \(cause); as the database's owner run "
                    + "GRANT CREATE ON SCHEMA \(schema) TO \(grantee), or import as the owner"
            }
            return "the role \(who) may not use schema \(schema) \(cause); as the database's owner run GRANT USAGE ON "
                + "SCHEMA \(schema) TO \(grantee)"
        }
        if let table = Self.object(after: "permission denied for table ", in: message) {
            return
                "the role \(who) may not read or write table \(table) \(cause); as its owner run GRANT SELECT, INSERT, "
                + "UPDATE, DELETE ON \(table) TO \(grantee) (SELECT alone for a role that only reports)"
        }
        if message.contains("permission denied to create temporary tables") {
            return "the role \(who) may not create temporary tables \(cause); as the database's owner run GRANT "
                + "TEMPORARY ON DATABASE <database> TO \(grantee)"
        }
        return "the role \(who) lacks a privilege \(cause); grant it as the database's owner, or give --db the "
            + "owner's role"
    }

    /// `public` in `permission denied for schema public`: the name that follows `prefix`.
    static func object(after prefix: String, in message: String) -> String? {
        guard let range = message.range(of: prefix) else { return nil }
        let name = message[range.upperBound...].prefix { !$0.isWhitespace }
        return name.isEmpty ? nil : String(name)
    }

    /// libpq's messages run over several lines ("connection to server … failed: FATAL: …\n").
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: [" ", "\t"]) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
