import ReportModel
import Time

/// The app's "% spent" bars (SPEC §3): the time of flows done in the period, by context.
///
/// A flow counts when its etat is `termine` and its completion day (of `completedAt` in the
/// user's zone with the day start, else its `date`) is in the period. Its tempsRealise and
/// tempsEstime (0 when absent) are split equally among its `contexte` entries, duplicates
/// included (`["sport", "sport", "santé"]` gives sport two thirds), or go whole to `(none)`.
struct HabitsCategories: Sendable {
    static let noContext = "(none)"

    struct Totals: Sendable, Equatable {
        var minutes = 0.0
        var estimatedMinutes = 0.0
    }

    private(set) var byName: [String: Totals] = [:]

    mutating func add(_ flows: [HabitsUserRecords.Flow], clock: HabitsUserClock, from: Day, to: Day) {
        for flow in flows where flow.done {
            let completed = flow.completedAt.map(clock.day(ofMicroseconds:)) ?? flow.date
            guard completed >= from, completed <= to else { continue }
            let names = flow.contexts.isEmpty ? [Self.noContext] : flow.contexts
            let share = Double(names.count)
            for name in names {
                byName[name, default: .init()].minutes += flow.realisedMinutes / share
                byName[name, default: .init()].estimatedMinutes += flow.estimatedMinutes / share
            }
        }
    }

    /// One row per category in byte order of its name: (category, minutes, percent, estimated
    /// minutes, accuracy, share). `percent` is × 100, rounded half away from zero to 2 places, empty
    /// when all minutes are 0; `accuracy` = minutes / estimated, empty when nothing was estimated;
    /// `share` = minutes / all minutes, the ratio (empty when all minutes are 0).
    var rows: [[Value]] {
        // Summed in name order: a dictionary's order changes between runs, and so would the last bit.
        let names = byName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let all = names.reduce(0.0) { $0 + (byName[$1]?.minutes ?? 0) }
        return names.map { name in
            let totals = byName[name] ?? .init()
            let percent: Double? =
                all > 0 ? (totals.minutes / all * 10_000).rounded(.toNearestOrAwayFromZero) / 100 : nil
            let accuracy: Double? = totals.estimatedMinutes > 0 ? totals.minutes / totals.estimatedMinutes : nil
            return [
                .text(name), .number(totals.minutes), .number(percent), .number(totals.estimatedMinutes),
                .number(accuracy), .number(all > 0 ? totals.minutes / all : nil),
            ]
        }
    }

    /// The rows of the workbook and Markdown table: (category, minutes, share, estimated
    /// minutes, accuracy).
    var shownRows: [[Value]] {
        rows.map { [$0[0], $0[1], $0[5], $0[3], $0[4]] }
    }
}
