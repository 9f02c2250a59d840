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
        case "25006":
            return "\(name) is read-only for this connection \(cause); give a user that may write, or another --db"
        case "", "08000", "08003", "08006", "08001", "08004", "57P01", "57P02", "57P03":
            return
                "cannot reach the PostgreSQL server of \(name) \(cause); check that it runs and that --db names the "
                + "right host and port"
        default:
            return description
        }
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
