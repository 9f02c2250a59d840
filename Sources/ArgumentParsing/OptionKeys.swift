/// A flag, declared once and read through that declaration (`arguments[ImportOptions.strict]`):
/// the same value is the spec help shows and the key the command reads, so a renamed flag cannot
/// be read by its old name.
public struct Flag: Sendable {
    public let spec: OptionSpec

    public init(_ name: String, short: Character? = nil, help: String) {
        spec = .flag(name, short: short, help: help)
    }
}

/// An option that takes a value, declared once with how its text becomes a `Value`, and read
/// through that declaration (`try arguments.value(FleetOptions.event)`): the spec help shows, the
/// key the command reads and the one usage error a bad value gives (naming the option) come from
/// one place.
public struct Option<Value>: Sendable {
    public let spec: OptionSpec
    let parse: @Sendable (String) throws(UsageError) -> Value

    public init(
        _ name: String, _ valueName: String, short: Character? = nil, help: String,
        parse: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        spec = .value(name, valueName, short: short, help: help)
        self.parse = parse
    }

    public var name: String { spec.name }
}

extension Option where Value == String {
    /// An option whose value is any text.
    public init(_ name: String, _ valueName: String, short: Character? = nil, help: String) {
        self.init(name, valueName, short: short, help: help) { (text: String) throws(UsageError) in text }
    }
}

extension ParsedArguments {
    /// Whether the flag was given.
    public subscript(_ flag: Flag) -> Bool {
        assertDeclared(flag.spec.name)
        return flags.contains(flag.spec.name)
    }

    /// The option's value (the last one given), parsed; nil when it was not given.
    public func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        assertDeclared(option.spec.name)
        guard let text = values[option.spec.name]?.last else { return nil }
        return try option.parse(text)
    }

    /// Whether the option was given at all (for an option whose value does not matter yet).
    public func has<Value>(_ option: Option<Value>) -> Bool {
        assertDeclared(option.spec.name)
        return values[option.spec.name] != nil
    }

    /// Reading an option the command does not declare is a wiring mistake: it could only be nil.
    private func assertDeclared(_ name: String) {
        assert(declared.isEmpty || declared.contains(name), "--\(name) is not an option of this command")
    }
}
