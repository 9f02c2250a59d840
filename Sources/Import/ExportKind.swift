/// The name of a domain (`habits`, `bookings`, `fleet`): declared by the domain itself, so the
/// import layer holds no list of domains.
public struct DomainName: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: DomainName, rhs: DomainName) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A kind of export file (SPEC §1): its name, as file names start with it, and its domain.
///
/// Each domain declares its kinds as static members (`ExportKind.tasks` in Habits), so a switch
/// over a domain's kinds reads as before while the import layer names none of them.
public struct ExportKind: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let domain: DomainName
    /// The tables a file of the kind fills in bulk, whose secondary indexes a large file drops and
    /// builds again after its rows (`Importer.Options.bulkIndexBytes`): the kind's own table, and
    /// any other its records carry rows for (the loan records embedded in assignments).
    public let bulkTables: [String]
    public init(_ name: String, domain: DomainName, bulkTables: [String]? = nil) {
        self.name = name
        self.domain = domain
        self.bulkTables = bulkTables ?? [name]
    }
    public var description: String { name }

    /// A kind is its name in its domain: how its tables load is not part of what it is.
    public static func == (left: ExportKind, right: ExportKind) -> Bool {
        left.name == right.name && left.domain == right.domain
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(domain)
    }
}

/// Every kind of the registered modules, in registration order: how a file's kind is told from
/// its name, and how `--kind NAME` is looked up.
public struct KindRegistry: Sendable {
    public let kinds: [ExportKind]

    public init(_ modules: [ImportModule]) { kinds = modules.flatMap(\.kinds) }

    /// The kind called `name` exactly.
    public func kind(named name: String) -> ExportKind? { kinds.first { $0.name == name } }

    /// The longest kind name that the file name starts with, followed by the end of the name or a
    /// character that is not a letter: `assignments-2016-10-01.json`, `tasks_resync.json`.
    public func detect(fileName: String) -> ExportKind? {
        let lower = Array(fileName.utf8)
        var best: ExportKind?
        for kind in kinds {
            let name = Array(kind.name.utf8)
            guard lower.count >= name.count, Array(lower[0..<name.count]) == name else { continue }
            if lower.count > name.count {
                let next = lower[name.count]
                let isLetter = (next >= 65 && next <= 90) || (next >= 97 && next <= 122) || next >= 0x80
                if isLetter { continue }
            }
            if best == nil || name.count > (best?.name.utf8.count ?? 0) { best = kind }
        }
        return best
    }

    /// `users, flows, …`: for messages that list what is known.
    public var knownNames: String { kinds.map(\.name).joined(separator: ", ") }
}
