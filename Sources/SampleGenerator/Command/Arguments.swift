import ArgumentParsing

/// A mode of `report-sample`: its command spec (parsed and shown in help by the same
/// `ArgumentParsing` as `report`'s commands) and the options it cannot do without.
struct ModeSpecification: Sendable {
    let spec: CommandSpec
    let required: [String]

    init(name: String, abstract: String, discussion: String, options: [OptionSpec], required: [String]) {
        spec = CommandSpec(
            name: name, abstract: abstract, discussion: discussion, options: options,
            tool: "report-sample")
        self.required = required
    }

    var name: String { spec.name }
    var abstract: String { spec.abstract }
    var help: String { HelpFormatter.help(for: spec) }

    /// Parses the mode's arguments; nil means `--help` was asked for.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedOptions? {
        let parsed = try ArgumentParser.parse(arguments, for: spec)
        if parsed.flag("help") { return nil }
        for name in required where parsed.value(name) == nil {
            let valueName = spec.options.first { $0.name == name }?.valueName ?? "VALUE"
            throw UsageError("missing --\(name) \(valueName) (see `report-sample \(spec.name) --help`)")
        }
        return ParsedOptions(arguments: parsed)
    }
}

/// Option values after parsing, with typed, validated accessors.
struct ParsedOptions: Sendable {
    let arguments: ParsedArguments

    func text(_ name: String) -> String? {
        arguments.value(name)
    }

    func seed(default fallback: UInt64) throws(UsageError) -> UInt64 {
        guard let text = text("seed") else { return fallback }
        guard let value = UInt64(text) else {
            throw UsageError("--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'")
        }
        return value
    }

    func count(_ name: String) throws(UsageError) -> Int? {
        guard let text = text(name) else { return nil }
        let digits = text.filter { $0 != "_" }
        guard let value = Int(digits), value >= 0, value <= 1_000_000_000 else {
            throw UsageError("--\(name) must be a whole number from 0 to 1000000000, not '\(text)'")
        }
        return value
    }

    func fraction(_ name: String, default fallback: Double) throws(UsageError) -> Double {
        guard let text = text(name) else { return fallback }
        guard let value = Double(text), value.isFinite, value > 0, value <= 100 else {
            throw UsageError("--\(name) must be a number above 0 and at most 100, not '\(text)'")
        }
        return value
    }
}
