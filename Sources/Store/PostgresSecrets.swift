import CLibPQ

/// What of a `--db` value (or `$REPORT_DB`) must never be shown, and how to hide it in any text.
///
/// A password that is not percent-encoded splits a URL where libpq does not expect it: in
/// `postgresql://report:Tr0ub4dor@3xyz@127.0.0.1/report` libpq stops the password at the first
/// `@` and then cannot resolve the host `3xyz@127.0.0.1`, and its message quotes that host (issue
/// 30). So a password is not one string to replace but every spelling of it and every piece: the
/// secrets are
/// - the password libpq itself parsed (`PQconninfoParse`), whatever form the value has;
/// - for a URL, all the text between the scheme and the **last** `@` after the user name (a
///   password may hold `@`, `/`, `:`, `%`, `?`), raw and percent-decoded;
/// - what follows `password=` (a URL query parameter, or a keyword/value string), parsed by libpq
///   when it can, else the whole rest of the value, raw and decoded.
///
/// `mask(_:)` replaces each whole secret, every text that shares 3 characters in a row with one,
/// and every quoted token that is a piece of one (or starts with the end of one), with `***`. It
/// is applied to every message libpq or the server writes (`PostgresConnection`) and to the
/// location as messages show it (`StoreLocation.display`): the only texts a piece of a password
/// can come from. A text that shares 3 characters with the password by chance is masked there
/// too, the price of that guarantee. Every line the command line writes on standard error
/// (`Console`) is masked with `mask(_:pieces: false)`: whole secrets and quoted pieces only (an
/// argument echoed in a usage error), so that the tool's own words and the data in reject lines
/// stay readable. A password of one or two characters is hidden where the location is shown, not
/// in free text.
///
/// Everything here works on Unicode scalars, not on characters: a combining mark after `=`, `:`
/// or `@` makes one character of two, which a search by character would step over (the fuzz
/// target `connection_strings` found `password=̛…` shown whole).
public struct ConnectionSecrets: Sendable {
    /// Every spelling of a password found, longest first.
    public let secrets: [String]
    private let scalarSecrets: [[Unicode.Scalar]]
    /// Every 3 scalars in a row of a secret, packed 21 bits each (`key`).
    private let trigrams: Set<UInt64>

    /// The secrets of a location; none for a path (a SQLite file has no password).
    public init(location: String) { self.init(locations: [location]) }

    /// The secrets of several values at once: the command line's arguments and `$REPORT_DB`, so
    /// that a URL given in the wrong place (`report status postgresql://…`) is hidden too.
    public init(locations: [String]) {
        var found: [String] = []
        for location in locations where StoreLocation.isPostgreSQL(location) || StoreLocation.urlScheme(location) != nil
        {
            let parsed = ConnectionSecrets.parsedPassword(location)
            if let password = parsed.password { found.append(password) }
            if let region = ConnectionSecrets.userInformationPassword(location) { found.append(region) }
            if let rest = ConnectionSecrets.afterPasswordKeyword(location), !parsed.succeeded || parsed.password == nil
            {
                found.append(rest)
            }
        }
        found = found.flatMap { [$0, ConnectionSecrets.percentDecoded($0), ConnectionSecrets.unquoted($0)] }
        var unique: [String] = []
        for secret in found where !secret.isEmpty && !unique.contains(secret) { unique.append(secret) }
        secrets = unique.sorted { $0.unicodeScalars.count > $1.unicodeScalars.count }
        scalarSecrets = secrets.map { Array($0.unicodeScalars) }
        var trigrams = Set<UInt64>()
        for secret in scalarSecrets where secret.count >= 3 {
            for start in 0...(secret.count - 3) { trigrams.insert(ConnectionSecrets.key(secret, start)) }
        }
        self.trigrams = trigrams
    }

    public var isEmpty: Bool { secrets.isEmpty }

    /// `text` with every whole secret, every 3 scalars in a row of one (unless `pieces` is false),
    /// and every quoted token that is a piece of one replaced by `***`.
    public func mask(_ text: String, pieces: Bool = true) -> String {
        guard !secrets.isEmpty else { return text }
        return mask(Array(text.unicodeScalars), placed: nil, pieces: pieces) ?? text
    }

    /// `mask(_:pieces:)` of scalars, where `placed` marks the `***` that `StoreLocation.display`
    /// put in already: no match may use them, or the mask of `*@b` would take the host `b` of
    /// `u:***@b` too. Nil when nothing is hidden.
    func mask(_ scalars: [Unicode.Scalar], placed: [Bool]?, pieces: Bool) -> String? {
        var hidden = [Bool](repeating: false, count: scalars.count)
        func free(_ range: Range<Int>) -> Bool {
            guard let placed else { return true }
            return !range.contains { placed[$0] }
        }
        for pattern in scalarSecrets where pattern.count >= 3 {
            var start = 0
            while start + pattern.count <= scalars.count {
                if scalars[start..<start + pattern.count].elementsEqual(pattern), free(start..<start + pattern.count) {
                    for index in start..<start + pattern.count { hidden[index] = true }
                    start += pattern.count
                } else {
                    start += 1
                }
            }
        }
        if pieces, scalars.count >= 3 {
            for start in 0...(scalars.count - 3)
            where trigrams.contains(ConnectionSecrets.key(scalars, start)) && free(start..<start + 3) {
                hidden[start] = true
                hidden[start + 1] = true
                hidden[start + 2] = true
            }
        }
        // libpq quotes what it could not use (`could not translate host name "ss"`): a quoted piece
        // of a password, however short, is hidden.
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\"", let close = scalars[(index + 1)...].firstIndex(of: "\"") else {
                index += 1
                continue
            }
            let token = Array(scalars[(index + 1)..<close])
            if !token.isEmpty {
                if scalarSecrets.contains(where: { ConnectionSecrets.contains($0, token) }) {
                    for position in (index + 1)..<close { hidden[position] = true }
                } else {
                    // A token that starts with the end of a secret (`x@127.0.0.1` of `…ss@x@127.0.0.1`)
                    // or ends with its start: that piece is hidden.
                    let (head, tail) = ConnectionSecrets.overlaps(token, scalarSecrets)
                    for position in (index + 1)..<(index + 1 + head) { hidden[position] = true }
                    for position in (close - tail)..<close { hidden[position] = true }
                }
            }
            index = close + 1
        }
        guard hidden.contains(true) else { return nil }
        var result = String.UnicodeScalarView()
        var position = 0
        while position < scalars.count {
            if hidden[position] {
                result.append(contentsOf: "***".unicodeScalars)
                while position < scalars.count && hidden[position] { position += 1 }
            } else {
                result.append(scalars[position])
                position += 1
            }
        }
        return String(result)
    }

    /// The 3 scalars from `start` as one number (a scalar needs 21 bits).
    static func key(_ scalars: [Unicode.Scalar], _ start: Int) -> UInt64 {
        UInt64(scalars[start].value) << 42 | UInt64(scalars[start + 1].value) << 21 | UInt64(scalars[start + 2].value)
    }

    /// Whether `needle` occurs in `haystack`, scalar by scalar.
    static func contains(_ haystack: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// The longest start of `token` that ends a secret, and the longest end of it that starts one.
    static func overlaps(_ token: [Unicode.Scalar], _ secrets: [[Unicode.Scalar]]) -> (head: Int, tail: Int) {
        var head = 0
        var tail = 0
        for secret in secrets {
            for length in stride(from: min(token.count, secret.count), through: 1, by: -1) where length > head {
                if token[0..<length].elementsEqual(secret[(secret.count - length)...]) {
                    head = length
                    break
                }
            }
            for length in stride(from: min(token.count, secret.count), through: 1, by: -1) where length > tail {
                if token[(token.count - length)...].elementsEqual(secret[0..<length]) {
                    tail = length
                    break
                }
            }
        }
        return (head, min(tail, token.count - head))
    }

    /// Whether libpq cannot parse the value, or parses a host, port, user or database holding an
    /// `@` or a port that is not a number: what a password written with `@ / : % ?` gives.
    static func isMisread(_ location: String) -> Bool {
        guard let options = parsedOptions(location) else { return true }
        if ["host", "hostaddr", "port", "user", "dbname"].contains(where: { options[$0]?.contains("@") == true }) {
            return true
        }
        if let port = options["port"], !port.split(separator: ",").allSatisfy({ Int($0) != nil }) { return true }
        return false
    }

    /// The password libpq parses out of the value, and whether it could parse the value at all.
    static func parsedPassword(_ location: String) -> (succeeded: Bool, password: String?) {
        guard let options = parsedOptions(location) else { return (false, nil) }
        return (true, options["password"])
    }

    /// The non-empty values libpq parses out of a connection string by keyword (`PQconninfoParse`),
    /// or nil when it cannot parse it.
    static func parsedOptions(_ location: String) -> [String: String]? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(location, &message) else {
            if let message { PQfreemem(message) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var index = 0
        while let keyword = options[index].keyword {
            if let value = options[index].val {
                let text = String(cString: value)
                if !text.isEmpty { values[String(cString: keyword)] = text }
            }
            index += 1
        }
        return values
    }

    /// In `scheme://user:password@host…`, the password as written: everything after the user's
    /// `:` up to the `@` that ends the user information.
    static func userInformationPassword(_ location: String) -> String? {
        guard let range = passwordRange(location) else { return nil }
        return Self.string(Array(location.unicodeScalars)[range])
    }

    /// Where the password of a URL's user information lies, in scalars. In a well-formed URL it
    /// ends at the `@` of the authority (up to the first `/` or `?`), and libpq reads it the same
    /// way: its parsed password is that text, decoded, and none of the host, port, user or
    /// database it parsed holds an `@`. Otherwise the password was written with `@`, `/`, `?` or
    /// `%` in it (libpq then cut it somewhere), and the user information runs to the **last** `@`
    /// of the value: more is hidden than needed when a database name also holds an `@`, never less.
    static func passwordRange(_ location: String) -> Range<Int>? {
        let scalars = Array(location.unicodeScalars)
        guard let schemeEnd = find(["://"], in: scalars, from: 0).map({ $0 + 3 }) else { return nil }
        func range(endingAt at: Int?) -> Range<Int>? {
            guard let at, let colon = scalars[schemeEnd..<at].firstIndex(of: ":") else { return nil }
            return colon + 1 < at ? (colon + 1)..<at : nil
        }
        let authorityEnd = scalars[schemeEnd...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? scalars.count
        let standard = range(endingAt: scalars[schemeEnd..<authorityEnd].lastIndex(of: "@"))
        if let options = parsedOptions(location),
            options["password"] == standard.map({ percentDecoded(string(scalars[$0])) }),
            !["host", "hostaddr", "port", "user", "dbname"].contains(where: { options[$0]?.contains("@") == true })
        {
            return standard
        }
        return range(endingAt: scalars[schemeEnd...].lastIndex(of: "@"))
    }

    /// The value after the first `password=` (case-insensitive, spaces allowed around `=`), used
    /// when libpq cannot parse the whole: up to the next `&keyword=` of a URL or ` keyword=` of a
    /// keyword/value string that libpq knows (`StoreLocation.passwordValueRange`), so that no
    /// piece of a password written with `&` or spaces is left out.
    static func afterPasswordKeyword(_ location: String) -> String? {
        let scalars = Array(location.unicodeScalars)
        guard let range = StoreLocation.passwordValueRange(scalars, from: 0, quoted: false), !range.isEmpty
        else { return nil }
        return string(scalars[range])
    }

    /// `%41` as `A`; an invalid escape is kept as written (libpq refuses it; the text stays secret).
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// A keyword/value string's quoted value (`'p a\'ss'`) without its quotes and escapes.
    static func unquoted(_ text: String) -> String {
        guard text.unicodeScalars.first == "'" else { return text }
        var result = String.UnicodeScalarView()
        var escaped = false
        for scalar in text.unicodeScalars.dropFirst() {
            if escaped {
                result.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "'" {
                break
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    static func string<C: Collection>(_ scalars: C) -> String where C.Element == Unicode.Scalar {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// The first offset at or after `from` where one of `needles` (ASCII, matched without case)
    /// starts.
    static func find(_ needles: [String], in scalars: [Unicode.Scalar], from: Int) -> Int? {
        let patterns = needles.map { Array($0.unicodeScalars) }
        guard from < scalars.count else { return nil }
        for start in from..<scalars.count {
            for pattern in patterns where start + pattern.count <= scalars.count {
                if zip(scalars[start..<start + pattern.count], pattern).allSatisfy({ lower($0) == lower($1) }) {
                    return start
                }
            }
        }
        return nil
    }

    static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
    }
}

extension StoreLocation {
    /// The location as messages show it: a URL with its password replaced by `***`
    /// (`postgresql://report:***@db/report`; one written without percent-encoding, holding `@`,
    /// `/` or `:`, is hidden to the last `@`: `ConnectionSecrets.passwordRange`); a
    /// `password=` parameter or keyword masked; then every other piece of the password masked
    /// (`ConnectionSecrets`). A path is shown unchanged. A password never reaches a message.
    public static func display(_ location: String) -> String {
        guard isPostgreSQL(location) || urlScheme(location) != nil else { return location }
        var scalars = Array(location.unicodeScalars)
        var placed = [Bool](repeating: false, count: scalars.count)
        func place(_ range: Range<Int>) {
            scalars.replaceSubrange(range, with: "***".unicodeScalars)
            placed.replaceSubrange(range, with: [true, true, true])
        }
        if let range = ConnectionSecrets.passwordRange(location) { place(range) }
        var searchFrom = 0
        while let range = passwordValueRange(scalars, from: searchFrom, quoted: true) {
            place(range)
            searchFrom = range.lowerBound + 3
        }
        return ConnectionSecrets(location: location).mask(scalars, placed: placed, pieces: true)
            ?? ConnectionSecrets.string(scalars)
    }

    /// Where the value of the next `password=` at or after `from` lies, in scalars: a quoted
    /// keyword value to its closing quote (when `quoted`), else up to the next parameter libpq
    /// knows (`&name=` in a URL, ` name=` in a keyword/value string) or the end. A value written
    /// with `&` or spaces in it is taken whole rather than cut at the first one.
    static func passwordValueRange(_ scalars: [Unicode.Scalar], from: Int, quoted: Bool) -> Range<Int>? {
        let isURL = ConnectionSecrets.find(["://"], in: scalars, from: 0) != nil
        var search = from
        while let keyword = ConnectionSecrets.find(["password"], in: scalars, from: search) {
            search = keyword + 8
            var index = keyword + 8
            while index < scalars.count, scalars[index] == " " { index += 1 }
            guard index < scalars.count, scalars[index] == "=" else { continue }
            index += 1
            while index < scalars.count, scalars[index] == " " { index += 1 }
            if quoted, !isURL, index < scalars.count, scalars[index] == "'" {
                var end = index + 1
                var escaped = false
                while end < scalars.count {
                    let scalar = scalars[end]
                    end += 1
                    if escaped {
                        escaped = false
                    } else if scalar == "\\" {
                        escaped = true
                    } else if scalar == "'" {
                        break
                    }
                }
                return index..<end
            }
            var end = index
            let separator: Unicode.Scalar = isURL ? "&" : " "
            while end < scalars.count {
                if scalars[end] == separator, startsParameter(scalars[(end + 1)...]) { break }
                end += 1
            }
            return index..<end
        }
        return nil
    }

    /// Whether scalars start with a parameter libpq knows and its `=` (spaces allowed).
    private static func startsParameter(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let trimmed = scalars.drop { $0 == " " || $0 == "\t" }
        let keyword = trimmed.prefix { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "_" }
        guard keywordValueKeywords.contains(ConnectionSecrets.string(keyword).lowercased()) else { return false }
        return trimmed.dropFirst(keyword.count).drop { $0 == " " || $0 == "\t" }.first == "="
    }

    /// A libpq keyword/value connection string (`host=db dbname=report password=…`): it starts
    /// with a keyword libpq knows followed by `=`. Such a value names a PostgreSQL database; a
    /// SQLite file named like that can still be given as `./host=…`.
    public static func isKeywordValue(_ location: String) -> Bool {
        startsParameter(Array(location.unicodeScalars)[...])
    }

    /// The keywords of libpq 15's connection strings that a value may start with.
    static let keywordValueKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "connect_timeout",
        "client_encoding", "options", "application_name", "fallback_application_name", "keepalives", "sslmode",
        "sslcert", "sslkey", "sslrootcert", "sslpassword", "requiressl", "gssencmode", "krbsrvname",
        "target_session_attrs", "channel_binding", "tcp_user_timeout",
    ]
}
