import ArgumentParsing
import DomainInterface
/// `docs/CLI.md`: every command's `--help`, generated from the same specs the parser uses, so the
/// reference cannot drift from the tool (a test compares the file with this rendering).
public enum CLIReference {
    public static func markdown(modules: [DomainModule]) -> String {
        let commands = CommandLineTool.commands(modules)
        var text = """
            # `report` command line

            Generated from `report --help` and each command's `--help` (regenerate with `make docs-cli`;
            a test fails when this file is out of date).

            ## report

            ```text
            \(HelpFormatter.overview(commands: commands.map { $0.spec }))```

            """
        for command in commands {
            text += """

                ## report \(command.spec.name)

                ```text
                \(HelpFormatter.help(for: command.spec))```

                """
        }
        return text
    }
}
