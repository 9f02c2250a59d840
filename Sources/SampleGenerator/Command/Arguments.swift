/// A command-line mistake: printed as one line, exit code 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One `--name VALUE` option of a mode.
struct OptionSpecification: Sendable {
    let name: String
    let valueName: String
    let help: String
    let required: Bool
}

/// A mode of `report-sample`: its name, what it does, and its options; help text comes from here.
struct ModeSpecification: Sendable {
    let name: String
    let abstract: String
    let discussion: String
    let options: [OptionSpecification]

    var usage: String {
        let parts = options.map { $0.required ? "--\($0.name) \($0.valueName)" : "[--\($0.name) \($0.valueName)]" }
        return "report-sample \(name) " + parts.joined(separator: " ")
    }

    var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)", ""]
        if !discussion.isEmpty { lines += [discussion, ""] }
        lines.append("OPTIONS:")
        let width = (options.map { "--\($0.name) \($0.valueName)".count } + [10]).max() ?? 10
        for option in options {
            let flag = "--\(option.name) \(option.valueName)"
            lines.append("  " + flag + String(repeating: " ", count: width - flag.count + 2) + option.help)
        }
        lines.append("  --help" + String(repeating: " ", count: width - 6 + 2) + "Show this help.")
        return lines.joined(separator: "\n")
    }

    /// Parses `--name value` pairs; nil means `--help` was asked for.
    func parse(_ arguments: [String]) throws -> ParsedOptions? {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--help" || argument == "-h" { return nil }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard name.hasPrefix("--"), let option = options.first(where: { "--\($0.name)" == name }) else {
                throw UsageError(message: "unexpected argument '\(argument)' for `report-sample \(self.name)` (see `report-sample \(self.name) --help`)")
            }
            guard values[option.name] == nil else {
                throw UsageError(message: "option --\(option.name) given twice")
            }
            if let inlineValue {
                values[option.name] = inlineValue
            } else {
                guard index + 1 < arguments.count else {
                    throw UsageError(message: "option --\(option.name) needs a value: --\(option.name) \(option.valueName)")
                }
                index += 1
                values[option.name] = arguments[index]
            }
            index += 1
        }
        for option in options where option.required && values[option.name] == nil {
            throw UsageError(message: "missing --\(option.name) \(option.valueName) (usage: \(usage))")
        }
        return ParsedOptions(values: values)
    }
}

/// Option values after parsing, with typed, validated accessors.
struct ParsedOptions: Sendable {
    let values: [String: String]

    func text(_ name: String) -> String? {
        values[name]
    }

    func seed(default fallback: UInt64) throws -> UInt64 {
        guard let text = values["seed"] else { return fallback }
        guard let value = UInt64(text) else {
            throw UsageError(message: "--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'")
        }
        return value
    }

    func count(_ name: String) throws -> Int? {
        guard let text = values[name] else { return nil }
        let digits = text.filter { $0 != "_" }
        guard let value = Int(digits), value >= 0, value <= 1_000_000_000 else {
            throw UsageError(message: "--\(name) must be a whole number from 0 to 1000000000, not '\(text)'")
        }
        return value
    }

    func fraction(_ name: String, default fallback: Double) throws -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text), value.isFinite, value > 0, value <= 100 else {
            throw UsageError(message: "--\(name) must be a number above 0 and at most 100, not '\(text)'")
        }
        return value
    }
}
