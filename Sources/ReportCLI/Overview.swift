import ArgumentParsing

/// `report --help`: the tool's own words around the command list (the parser's target is shared
/// with `report-sample`, so they live here).
extension HelpFormatter {
    /// The top-level help: every command with its abstract.
    public static func overview(commands: [CommandSpec]) -> String {
        var lines = [
            "OVERVIEW: Import app exports into SQLite, analyze them, write XLSX, CSV and Markdown reports.",
            "",
            "USAGE: report COMMAND [options]",
            "",
            "COMMANDS:",
        ]
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            lines.append(
                "  " + command.name + String(repeating: " ", count: width - command.name.count) + command.abstract)
        }
        lines.append("")
        lines.append("  See `report COMMAND --help` for a command's options; `report --version` for the version.")
        lines.append("")
        lines.append("EXIT CODES: 0 success; 1 failure; 2 usage error; 3 done, but records were rejected;")
        lines.append("  4 another `report nightly` run holds the lock (nothing done);")
        lines.append("  5 a report's period holds no data (nothing written; --allow-empty writes it and exits 0).")
        return lines.joined(separator: "\n") + "\n"
    }
}
