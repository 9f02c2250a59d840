extension StoreLocation {
    /// Why a `--db` value cannot name a database, said with what to give instead; nil when it can
    /// be tried. A value written as a URL (`scheme://…`) must be a PostgreSQL one: `mysql://…` was
    /// taken for a SQLite file path and failed as `no such database`, `sqlite:///path` as `SQLite
    /// error 14` (issue 30). Only the scheme is quoted: the rest may hold a password.
    public static func unsupportedReason(_ location: String) -> String? {
        guard !isPostgreSQL(location), let scheme = urlScheme(location) else { return nil }
        let known = "postgresql:// or postgres:// for PostgreSQL; a plain path (no scheme) means a SQLite file"
        switch scheme.lowercased() {
        case "sqlite", "sqlite3", "file":
            let rest = location.dropFirst(scheme.count + 3)
            // The path is quoted back only when nothing in it can be a password.
            let example =
                rest.hasPrefix("/") && ConnectionSecrets(location: location).isEmpty
                ? String(rest) : "/path/to/report.sqlite"
            return "\(scheme):// URLs are not read; give the SQLite file's path itself (\(example)); --db takes "
                + known
        default:
            return "unsupported URL scheme \"\(scheme)://\"; --db takes " + known
        }
    }

    /// The scheme of `scheme://…` (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`), or nil.
    static func urlScheme(_ location: String) -> String? {
        guard let separator = location.range(of: "://") else { return nil }
        let scheme = location[..<separator.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            })
        else { return nil }
        return String(scheme)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
