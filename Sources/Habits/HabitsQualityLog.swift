import ReportModel
import Time

/// The `quality` rows (issue, record, detail), packed: a database whose flows all carry a wrong
/// `streakDay` yields a row per flow, millions for a year of 10,000 users, so rows are kept as
/// bytes and their detail text is written only when a writer reads the table.
///
/// Order: by issue name, then in the order the analysis met them, which is by user id (byte
/// order), then by flow id for flows and by start for sessions. Stable for the same data, and
/// cheap: sorting millions of packed rows by record text would cost more than it tells.
struct HabitsQualityLog: Sendable {
    /// The issues, in the order of their names (the order of the table).
    enum Issue: Int, CaseIterable, Sendable {
        case figureOutOfRange, impossibleFocusSession, overlappingFocusSessions, streakDayMismatch, unknownTimezone
        case unknownUser

        var name: String {
            switch self {
            case .figureOutOfRange: return "figure_out_of_range"
            case .impossibleFocusSession: return "impossible_focus_session"
            case .overlappingFocusSessions: return "overlapping_focus_sessions"
            case .streakDayMismatch: return "streak_day_mismatch"
            case .unknownTimezone: return "unknown_timezone"
            case .unknownUser: return "unknown_user"
            }
        }
    }

    private var byIssue = [HabitsPackedBytes](repeating: HabitsPackedBytes(), count: Issue.allCases.count)

    var count: Int { byIssue.reduce(0) { $0 + $1.count } }

    /// An issue whose detail is already text (rare issues: one per user or per bad session).
    mutating func append(_ issue: Issue, record: String, detail: String) {
        let size = HabitsPackedBytes.Writer.size(of: record) + HabitsPackedBytes.Writer.size(of: detail)
        byIssue[issue.rawValue].append(maximumSize: size) { writer in
            writer.string(record)
            writer.string(detail)
        }
    }

    /// `overlapping_focus_sessions`: the later session, and the earlier one it overlaps.
    mutating func appendOverlap(session: String, earlier: String) {
        let size = HabitsPackedBytes.Writer.size(of: session) + HabitsPackedBytes.Writer.size(of: earlier)
        byIssue[Issue.overlappingFocusSessions.rawValue].append(maximumSize: size) { writer in
            writer.string(session)
            writer.string(earlier)
        }
    }

    /// `streak_day_mismatch`: the flow, its streakDay, the computed streak and the flow's date.
    mutating func appendStreakMismatch(flow: String, streakDay: Int64, computed: Int, date: Day) {
        byIssue[Issue.streakDayMismatch.rawValue].append(maximumSize: HabitsPackedBytes.Writer.size(of: flow) + 30) {
            writer in
            writer.string(flow)
            writer.signed(streakDay)
            writer.signed(Int64(computed))
            writer.signed(Int64(date.ordinal))
        }
    }

    /// The rows, decoded with their detail text.
    func makeIterator() -> AnyIterator<QualityRow> {
        var issues = Issue.allCases.makeIterator()
        var current: AnyIterator<QualityRow>?
        let byIssue = self.byIssue
        return AnyIterator {
            while true {
                if let row = current?.next() { return row }
                guard let issue = issues.next() else { return nil }
                current = byIssue[issue.rawValue].makeIterator { reader in Self.decode(issue, &reader) }
            }
        }
    }

    private static func decode(_ issue: Issue, _ reader: inout HabitsPackedBytes.Reader) -> QualityRow {
        let record = reader.string()
        let detail: String
        switch issue {
        case .overlappingFocusSessions:
            detail = "overlaps focus session " + reader.string()
        case .streakDayMismatch:
            let streakDay = reader.signed()
            let computed = reader.signed()
            let date = Day(ordinal: Int(reader.signed()))
            detail = "streakDay \(streakDay), computed streak \(computed) on \(date)"
        default:
            detail = reader.string()
        }
        return QualityRow(issue: issue.name, record: record, detail: detail)
    }
}
