import XCTest
import ArgumentParsing
import Store
@testable import ReportCLI

final class ArgumentParserTests: XCTestCase {
    let spec = CommandSpec(
        name: "demo", abstract: "A demo.", positionals: "PATH...", minimumPositionals: 1,
        options: [
            .value("db", "PATH", help: "Database."),
            .value("kind", "NAME", short: "k", repeating: true, help: "Kinds."),
            .flag("strict", help: "Strict."),
            .value("output", "DIR", short: "o", help: "Output."),
        ])

    func testOptionsInEveryForm() throws {
        let parsed = try ArgumentParser.parse(
            [
                "--db", "a.sqlite", "--kind=tasks", "-k", "flows", "--strict", "-o", "out", "x.json", "--",
                "--not-an-option",
            ], for: spec)
        XCTAssertEqual(parsed.value("db"), "a.sqlite")
        XCTAssertEqual(parsed.all("kind"), ["tasks", "flows"])
        XCTAssertTrue(parsed.flag("strict"))
        XCTAssertEqual(parsed.value("output"), "out")
        XCTAssertEqual(parsed.positionals, ["x.json", "--not-an-option"])
    }

    func testUsageErrorsSayWhatToDo() {
        XCTAssertThrowsError(try ArgumentParser.parse(["--nope", "x"], for: spec)) { error in
            XCTAssertEqual("\(error)", "unknown option --nope for `report demo`; see `report demo --help`")
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["x", "--db"], for: spec)) { error in
            XCTAssertEqual("\(error)", "--db needs a value (PATH)")
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--db", "a", "--db", "b", "x"], for: spec)) { error in
            XCTAssertEqual("\(error)", "--db given twice")
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--strict=yes", "x"], for: spec)) { error in
            XCTAssertEqual("\(error)", "--strict takes no value")
        }
        XCTAssertThrowsError(try ArgumentParser.parse([], for: spec)) { error in
            XCTAssertEqual("\(error)", "`report demo` needs PATH...; see `report demo --help`")
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["-xyz", "p"], for: spec))
    }

    func testHelpNeedsNoPositionals() throws {
        XCTAssertTrue(try ArgumentParser.parse(["--help"], for: spec).flag("help"))
        XCTAssertTrue(try ArgumentParser.parse(["-h"], for: spec).flag("help"))
    }

    func testHelpIsGeneratedFromTheSpec() {
        XCTAssertEqual(
            HelpFormatter.help(for: spec),
            """
            OVERVIEW: A demo.

            USAGE: report demo [options] PATH...

            OPTIONS:
              --db PATH         Database.
              -k, --kind NAME   Kinds.
              --strict          Strict.
              -o, --output DIR  Output.
              -h, --help        Show this help and exit.

            """)
    }
}

/// Every error reaches its exit code through `ExitCodeError`; anything else is a failure.
final class ExitCodeErrorTests: XCTestCase {
    func testErrorsCarryTheirExitCodes() {
        struct Unclassified: Error {}
        XCTAssertEqual(CommandLineTool.exitCode(of: UsageError("x")), .usage)
        XCTAssertEqual(CommandLineTool.exitCode(of: CommandFailure("x")), .failure)
        XCTAssertEqual(CommandLineTool.exitCode(of: Unclassified()), .failure)
    }
}
