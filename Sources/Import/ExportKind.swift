/// The fifteen kinds of export file (SPEC §1), and how a file's kind is told from its name.
public enum ExportKind: String, CaseIterable, Sendable, Comparable {
    // habits
    case users, flows, tasks, focusSessions = "focus_sessions", logins, moods
    // bookings
    case services, slots, customers, bookings
    // fleet
    case events, groups, drivers, assignments, loanRecords = "loan_records"

    public enum Domain: String, Sendable, CaseIterable { case habits, bookings, fleet }

    public var name: String { rawValue }

    public var domain: Domain {
        switch self {
        case .users, .flows, .tasks, .focusSessions, .logins, .moods: return .habits
        case .services, .slots, .customers, .bookings: return .bookings
        case .events, .groups, .drivers, .assignments, .loanRecords: return .fleet
        }
    }

    public static func < (lhs: ExportKind, rhs: ExportKind) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// The longest kind name that the file name starts with, followed by the end of the name or a
    /// character that is not a letter: `assignments-2016-10-01.json`, `tasks_resync.json`.
    public static func detect(fileName: String) -> ExportKind? {
        let lower = Array(fileName.utf8)
        var best: ExportKind?
        for kind in allCases {
            let name = Array(kind.rawValue.utf8)
            guard lower.count >= name.count, Array(lower[0..<name.count]) == name else { continue }
            if lower.count > name.count {
                let next = lower[name.count]
                let isLetter = (next >= 65 && next <= 90) || (next >= 97 && next <= 122) || next >= 0x80
                if isLetter { continue }
            }
            if best == nil || name.count > (best?.rawValue.utf8.count ?? 0) { best = kind }
        }
        return best
    }

    public static var knownNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
