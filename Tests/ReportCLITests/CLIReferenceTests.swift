import Foundation
import XCTest
import ArgumentParsing
@testable import ReportCLI

/// Keeps `docs/CLI.md` equal to the tool's help. `RECORD_CLI_DOCS=1` (or `make docs-cli`) rewrites it.
final class CLIReferenceTests: XCTestCase {
    func testCLIReferenceIsCurrent() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/CLI.md")
        let expected = CLIReference.markdown()
        if ProcessInfo.processInfo.environment["RECORD_CLI_DOCS"] == "1" {
            try Data(expected.utf8).write(to: url)
        }
        let current = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(current, expected, "docs/CLI.md is out of date: run `make docs-cli`")
    }

    func testEveryCommandHelpIsInTheReference() {
        let reference = CLIReference.markdown()
        for command in CommandLineTool.commands {
            XCTAssertTrue(reference.contains(HelpFormatter.help(for: command.spec)), command.spec.name)
        }
    }
}
