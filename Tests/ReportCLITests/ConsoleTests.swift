import ReportApp
import ArgumentParsing
import XCTest
@testable import ReportCLI

final class ConsoleTests: XCTestCase {
    final class Buffer: @unchecked Sendable { var text = "" }

    func testProgressIsDrawnOnlyAtATerminalAndClearedBeforeOtherLines() {
        let terminal = Buffer(), cron = Buffer()
        let atTerminal = Console(out: { _ in }, error: { terminal.text += $0 }, errorIsTerminal: true)
        let underCron = Console(out: { _ in }, error: { cron.text += $0 }, errorIsTerminal: false)
        for console in [atTerminal, underCron] {
            console.progress("importing tasks.json  45 %")
            console.error("tasks.json record 3: field date: invalid date")
        }
        XCTAssertEqual(
            terminal.text,
            "\r\u{1B}[Kimporting tasks.json  45 %\r\u{1B}[Ktasks.json record 3: field date: invalid date\n")
        XCTAssertEqual(cron.text, "tasks.json record 3: field date: invalid date\n")
    }

    func testQuietKeepsErrorsOnly() {
        let err = Buffer(), out = Buffer()
        let console = Console(out: { out.text += $0 }, error: { err.text += $0 }, errorIsTerminal: true)
        console.quiet = true
        console.info("wrote Reports/fleet-salon2016.xlsx")
        console.progress("importing")
        console.error("a failure")
        console.output("result")
        XCTAssertEqual(err.text, "a failure\n")
        XCTAssertEqual(out.text, "result\n")
    }
}
