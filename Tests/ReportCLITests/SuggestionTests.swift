import Foundation
import XCTest
import ArgumentParsing
@testable import ReportCLI

/// A mistyped option or command gets the nearest one (issue 12, item 8).
final class SuggestionTests: CLITestCase {
    func testNearestNameWithinAThirdOfItsLength() {
        XCTAssertEqual(Suggestion.nearest(to: "evnt", among: ["event", "db", "as-of"]), "event")
        XCTAssertEqual(Suggestion.nearest(to: "exlsx", among: ["xlsx", "csv", "md"]), "xlsx")
        XCTAssertEqual(Suggestion.nearest(to: "fleeet", among: ["fleet", "habits", "bookings"]), "fleet")
        XCTAssertEqual(Suggestion.nearest(to: "bokings", among: ["fleet", "habits", "bookings"]), "bookings")
        XCTAssertEqual(Suggestion.nearest(to: "imoprt", among: ["import", "check"]), "import", "a swap counts one")
        XCTAssertNil(Suggestion.nearest(to: "zzz", among: ["event", "db"]))
        XCTAssertNil(Suggestion.nearest(to: "x", among: ["md", "db"]), "two edits of a two-letter name is not near")
        XCTAssertEqual(Suggestion.editDistance("kitten", "sitting"), 3)
    }

    func testUnknownOptionSuggestsTheNearest() {
        let run = report(["fleet", "--db", databasePath, "--evnt", "salon2016"])
        XCTAssertEqual(run.code, .usage)
        XCTAssertEqual(run.errLines, ["report fleet: unknown option --evnt for `report fleet`; did you mean --event?"])
        let far = report(["fleet", "--db", databasePath, "--zzzzzz"])
        XCTAssertEqual(
            far.errLines, ["report fleet: unknown option --zzzzzz for `report fleet`; see `report fleet --help`"])
    }

    func testUnknownCommandSuggestsTheNearest() {
        let run = report(["fleeet", "--event", "salon2016"])
        XCTAssertEqual(run.code, .usage)
        XCTAssertEqual(run.errLines, ["report: unknown command \"fleeet\"; did you mean fleet?"])
        let far = report(["qqqqqq"])
        XCTAssertTrue(
            far.errLines.first?.hasPrefix("report: unknown command \"qqqqqq\"; commands: import, ") == true, far.err)
    }
}
