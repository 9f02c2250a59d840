/// An option a command accepts: a flag (`--strict`) or an option with a value (`--db PATH`).
public struct OptionSpec: Sendable {
    public let name: String
    public let short: Character?
    /// The value's placeholder in help (`PATH`), or nil for a flag.
    public let valueName: String?
    public let help: String
    /// May be given more than once (values accumulate).
    public let repeating: Bool

    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, repeating: false)
    }

    public static func value(
        _ name: String, _ valueName: String, short: Character? = nil, repeating: Bool = false, help: String
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, repeating: repeating)
    }

    public var isFlag: Bool { valueName == nil }
}

/// A command's static description, modelled on swift-argument-parser's `CommandConfiguration`:
/// everything help shows and the parser needs.
public struct CommandSpec: Sendable {
    public let name: String
    public let abstract: String
    public let discussion: String
    /// The positional arguments' placeholder (`PATH...`), or nil when the command takes none.
    public let positionals: String?
    /// The least number of positional arguments.
    public let minimumPositionals: Int
    public let options: [OptionSpec]
    /// The program the command belongs to, as help and messages name it (`report`, `report-sample`).
    public let tool: String

    public init(
        name: String, abstract: String, discussion: String = "", positionals: String? = nil,
        minimumPositionals: Int = 0, options: [OptionSpec], tool: String = "report"
    ) {
        self.name = name
        self.tool = tool
        self.abstract = abstract
        self.discussion = discussion
        self.positionals = positionals
        self.minimumPositionals = minimumPositionals
        self.options = options + [Self.help.spec]
    }

    /// `--help`, which every command has.
    public static let help = Flag("help", short: "h", help: "Show this help and exit.")

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
}
