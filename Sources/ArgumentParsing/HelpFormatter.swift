/// Renders a command's help from its spec, so help and parsing never disagree.
public enum HelpFormatter {
    public static func help(for spec: CommandSpec) -> String {
        var lines: [String] = []
        var usage = "\(spec.tool) \(spec.name)"
        if !spec.options.isEmpty { usage += " [options]" }
        if let positionals = spec.positionals { usage += " " + positionals }
        lines.append("OVERVIEW: \(spec.abstract)")
        lines.append("")
        lines.append("USAGE: \(usage)")
        if !spec.discussion.isEmpty {
            lines.append("")
            lines.append(
                contentsOf: spec.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        lines.append("")
        lines.append("OPTIONS:")
        let labels = spec.options.map(label)
        let width = min(28, (labels.map(\.count).max() ?? 0) + 2)
        for (option, label) in zip(spec.options, labels) {
            let padded =
                label.count + 2 <= width
                ? label + String(repeating: " ", count: width - label.count)
                : label + "\n" + String(repeating: " ", count: width + 2)
            lines.append("  " + padded + option.help)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func label(_ option: OptionSpec) -> String {
        var text = option.short.map { "-\($0), " } ?? ""
        text += "--\(option.name)"
        if let valueName = option.valueName { text += " \(valueName)" }
        return text
    }
}
