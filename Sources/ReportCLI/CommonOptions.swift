import ArgumentParsing
import Time

/// The options every command shares (SPEC §7), each declared once: the spec help shows and the
/// key the command reads.
public enum CommonOptions {
    public static let database = Option<String>(
        "db", "PATH|URL",
        help: "A SQLite file, or postgresql://user@host/db (default: $REPORT_DB, else report.sqlite here).")
    public static let quiet = Flag("quiet", short: "q", help: "Print only warnings and errors.")
    public static let asOf = Option<Timestamp>(
        "as-of", "TIMESTAMP", help: "The moment the report describes, e.g. 2026-11-29T06:00:00+01:00 (default: now)."
    ) { (text: String) throws(UsageError) in
        guard let stamp = Timestamp(text) else {
            throw UsageError("--as-of: invalid timestamp \"\(text)\" (use e.g. 2026-11-29T06:00:00+01:00)")
        }
        return stamp
    }
    public static let busyTimeout = Option<String>(
        "busy-timeout", "SECONDS",
        help: "How long to wait for a database another process is writing (default: $REPORT_BUSY_TIMEOUT, else 60).")
}
