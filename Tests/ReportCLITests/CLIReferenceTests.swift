import Foundation
import XCTest
import ArgumentParsing
@testable import ReportCLI

/// Keeps `docs/CLI.md` equal to the tool's help. `RECORD_CLI_DOCS=1` (or `make docs-cli`) rewrites
/// it and then fails, as a re-recorded snapshot does, so that a recording run never passes as a check.
final class CLIReferenceTests: XCTestCase {
    func testCLIReferenceIsCurrent() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/CLI.md")
        let expected = CLIReference.markdown(modules: registeredModules)
        if ProcessInfo.processInfo.environment["RECORD_CLI_DOCS"] == "1" {
            try Data(expected.utf8).write(to: url)
            XCTFail("recorded docs/CLI.md (RECORD_CLI_DOCS=1); run the tests again without it to check it")
            return
        }
        let current = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(current, expected, "docs/CLI.md is out of date: run `make docs-cli`")
    }
}
