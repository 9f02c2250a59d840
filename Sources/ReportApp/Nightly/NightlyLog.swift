import Foundation
import Time

/// The nightly job's log: one line per step on standard error, each starting with the UTC time
/// and `nightly:` so that a log file appended to night after night can be read and grepped
/// (`2026-11-29T05:00:01Z nightly: imported inbox/tasks.json (tasks): 812 records, 0 rejected`).
/// Standard output stays empty. `--quiet` drops `info` lines; warnings and errors always show.
struct NightlyLog {
    let console: Console
    /// The wall clock, replaceable so a test can read fixed times.
    var now: () -> Date = Date.init

    /// A step that went as planned.
    func info(_ text: String) { console.info(line(text)) }

    /// Something an operator should look at: a rejected record, a failed file or report.
    func warning(_ text: String) { console.error(line(text)) }

    private func line(_ text: String) -> String {
        let seconds = Int64(now().timeIntervalSince1970.rounded(.down))
        return Timestamp(seconds: seconds).description + " nightly: " + text
    }
}
