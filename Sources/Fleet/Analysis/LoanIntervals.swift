/// The time one car spent out, from the intervals of its loans (SPEC §5).
///
/// A car counts once however many loans cover a moment, so its hours out are the length of the
/// *union* of its loan intervals, clipped to the opening windows. Intervals are half-open
/// [out, end): a car back at 12:00 and out again at 12:00 has two loans that do not overlap.
enum LoanIntervals {
    /// One loan's interval, in microseconds, with the caller's tag for it.
    struct Interval: Sendable {
        let start: Int64
        let end: Int64
        let tag: Int
    }

    /// Microseconds of the union of `intervals` inside each window, indexed like `windows`.
    /// `intervals` must be sorted by start; windows must not overlap one another.
    static func microsecondsOut(of intervals: [Interval], windows: [OpeningWindow]) -> [Int64] {
        var perWindow = [Int64](repeating: 0, count: windows.count)
        for (start, end) in union(intervals) {
            for (index, window) in windows.enumerated() {
                let overlap = min(end, window.end) - max(start, window.start)
                if overlap > 0 { perWindow[index] += overlap }
            }
        }
        return perWindow
    }

    /// The union as disjoint, sorted [start, end) pieces; empty intervals vanish.
    static func union(_ intervals: [Interval]) -> [(start: Int64, end: Int64)] {
        var pieces: [(start: Int64, end: Int64)] = []
        for interval in intervals where interval.end > interval.start {
            if let last = pieces.last, interval.start <= last.end {
                pieces[pieces.count - 1].end = max(last.end, interval.end)
            } else {
                pieces.append((interval.start, interval.end))
            }
        }
        return pieces
    }

    /// Every pair of intervals that share some moment, each pair once, as (earlier tag, later tag)
    /// in order of the later one's start, then the earlier one's position.
    /// `intervals` must be sorted by start.
    static func overlappingPairs(_ intervals: [Interval]) -> [(earlier: Int, later: Int)] {
        var pairs: [(earlier: Int, later: Int)] = []
        var open: [Interval] = []
        for interval in intervals where interval.end > interval.start {
            open.removeAll { $0.end <= interval.start }
            for earlier in open { pairs.append((earlier.tag, interval.tag)) }
            open.append(interval)
        }
        return pairs
    }
}
