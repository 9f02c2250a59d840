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

    /// Options declared once, read through the declaration: the parse of a value, its usage error
    /// naming the option, a flag, and an option that was not given.
    func testTypedKeysReadWhatTheirDeclarationSays() throws {
        let count = Option<Int>("count", "N", help: "How many.") { (text: String) throws(UsageError) in
            guard let value = Int(text), value > 0 else {
                throw UsageError("--count: not a positive number \"\(text)\"")
            }
            return value
        }
        let verbose = Flag("verbose", help: "Say more.")
        let name = Option<String>("name", "TEXT", help: "A name.")
        let typed = CommandSpec(name: "typed", abstract: "Typed.", options: [count.spec, verbose.spec, name.spec])
        let parsed = try ArgumentParser.parse(["--count", "12", "--verbose"], for: typed)
        XCTAssertEqual(try parsed.value(count), 12)
        XCTAssertTrue(parsed[verbose])
        XCTAssertNil(try parsed.value(name))
        XCTAssertFalse(parsed.has(name))
        XCTAssertEqual(parsed.declared, ["count", "verbose", "name", "help"])
        let bad = try ArgumentParser.parse(["--count", "-3"], for: typed)
        XCTAssertThrowsError(try bad.value(count)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--count: not a positive number \"-3\"")
        }
        XCTAssertFalse(try ArgumentParser.parse([], for: typed)[verbose])
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
