/// A usage error: wrong or missing arguments. Exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The arguments of one command after parsing: option values by name, flags, positionals.
public struct ParsedArguments: Sendable, Equatable {
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []
    /// The options of the command the arguments were parsed for (empty: built by hand, in a test).
    public var declared: Set<String> = []

    public init() {}

    public func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value given for an option (a later `--db` wins over an earlier one).
    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// Parses `--name value`, `--name=value`, `-n value`, flags, `--` and positionals against a spec.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.declared = Set(spec.options.map(\.name))
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var inlineValue: String?
            let option: OptionSpec
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let found = spec.option(named: name) else {
                    let hint = Suggestion.clause(for: name, among: spec.options.map(\.name), prefix: "--")
                    throw UsageError(
                        "unknown option --\(name) for `\(spec.tool) \(spec.name)`"
                            + (hint.isEmpty ? "; see `\(spec.tool) \(spec.name) --help`" : hint))
                }
                option = found
            } else {
                let letters = Array(argument.dropFirst())
                guard letters.count == 1, let found = spec.option(short: letters[0]) else {
                    throw UsageError(
                        "unknown option \(argument) for `\(spec.tool) \(spec.name)`; see `\(spec.tool) "
                            + "\(spec.name) --help`"
                    )
                }
                option = found
            }
            if option.isFlag {
                if inlineValue != nil { throw UsageError("--\(option.name) takes no value") }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("--\(option.name) needs a value (\(option.valueName ?? "VALUE"))")
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeating, parsed.values[option.name] != nil {
                throw UsageError("--\(option.name) given twice")
            }
            parsed.values[option.name, default: []].append(value)
        }
        if parsed.flag("help") { return parsed }
        if spec.positionals == nil, let first = parsed.positionals.first {
            throw UsageError(
                "unexpected argument \"\(first)\" for `\(spec.tool) \(spec.name)`; see `\(spec.tool) "
                    + "\(spec.name) --help`"
            )
        }
        if parsed.positionals.count < spec.minimumPositionals {
            throw UsageError(
                "`\(spec.tool) \(spec.name)` needs \(spec.positionals ?? "arguments"); see `\(spec.tool) "
                    + "\(spec.name) --help`"
            )
        }
        return parsed
    }
}
