import Foundation
import Import
import JSON
import Store

/// The lines an import or a check prints about one file, shared by `report import`, `report
/// check` and `report nightly` so that a file is described in the same words everywhere.
public enum ImportMessages {
    /// The lines naming a file's rejected records: the first ones, then how many more.
    public static func rejectionLines(_ outcome: FileOutcome) -> [String] {
        var lines = outcome.rejectMessages
        if outcome.rejected > outcome.rejectMessages.count, !outcome.failed {
            let more = "\(outcome.file): \(outcome.rejected - outcome.rejectMessages.count) more rejected records"
            lines.append(
                more
                    + (outcome.status == .checked
                        ? " (check stores nothing: `report import` keeps them all in the import_rejects table)"
                        : " (all are in the import_rejects table)"))
        }
        return lines.map { $0.oneLine() }
    }

    /// `F: warning: the file is empty (0 bytes): no records; …`, one line per warning.
    public static func warningLines(_ outcome: FileOutcome) -> [String] {
        outcome.warnings.map { "\(outcome.file): warning: \($0)".oneLine() }
    }

    /// ` (records from member "tasks")` for a wrapper, so that a file read from an unexpected
    /// member (a one-line record that looks like a wrapper) shows it; empty for other layouts.
    public static func recordsMemberNote(_ outcome: FileOutcome) -> String {
        guard let member = outcome.layout?.recordsMember else { return "" }
        return " (records from member \(JSONValue.string(member).excerpt()))"
    }

    /// The one line saying why a file failed (`report nightly` also writes it beside the file).
    public static func failureLine(_ file: String, _ reason: String) -> String {
        "\(file): \(reason)".oneLine()
    }

    /// Draws the one progress line while a file is read (at a terminal only).
    public static func showProgress(of reading: FileReading, on console: Console) {
        reading.progress = { progress in
            var line = "importing \(progress.file)  \(progress.records) records"
            if let bytes = progress.bytes, bytes.total > 0 {
                line +=
                    "  \(Int(Double(bytes.read) / Double(bytes.total) * 100)) % of "
                    + "\(Formatting.megabytes(Int(bytes.total)))"
            }
            console.progress(line)
        }
    }
}

/// The one line a failure is told in.
public enum FailureText {
    /// A database problem (locked, read-only, damaged, full) says which database and what to do;
    /// anything else is already written for the user. On one line, a URL's password masked.
    public static func describe(_ error: any Error, database: String) -> String {
        let text =
            (error as? any StoreFailure)?.advice(database: StoreLocation.display(database)) ?? String(describing: error)
        return text.oneLine()
    }
}

extension String {
    /// Line breaks (from a path or a value quoted in a message) shown as `\n`, so that an error
    /// stays the one line that cron mails and scripts grep.
    public func oneLine() -> String {
        guard contains(where: \.isNewline) else { return self }
        var result = ""
        for character in self {
            if character == "\r\n" {
                result += "\\r\\n"
            } else if character == "\n" {
                result += "\\n"
            } else if character == "\r" {
                result += "\\r"
            } else if character.isNewline {
                result += " "
            } else {
                result.append(character)
            }
        }
        return result
    }
}
