/// Tells new damage from damage already there, by pairing the marks of two records (SPEC §5).
///
/// Agents mark damage by tapping a car diagram, so the same dent is never at exactly the same
/// point twice. Two marks of one type within 20 units are taken as one dent. The pairing is
/// greedy over all candidate pairs by ascending distance, so that the closest marks pair first;
/// ties go to the lower index in the earlier record, then in the later one, which makes the
/// result independent of anything but the records themselves.
enum DamagePairing {
    /// The farthest two marks of one dent can be, in diagram units.
    static let maximumDistance = 20.0

    /// Which marks of `earlier` and of `later` found a partner.
    static func pair(earlier: [Impact], later: [Impact]) -> (earlierPaired: [Bool], laterPaired: [Bool]) {
        withPairing(earlier: earlier, later: later) { earlierPaired, laterPaired in
            (Array(earlierPaired), Array(laterPaired))
        }
    }

    /// The marks of `later` with no partner in `earlier`: new damage, in their order.
    static func unpaired(_ later: [Impact], against earlier: [Impact]) -> [Impact] {
        guard !later.isEmpty, !earlier.isEmpty else { return later }
        return withPairing(earlier: earlier, later: later) { _, laterPaired in
            var marks: [Impact] = []
            for (index, mark) in later.enumerated() where !laterPaired[index] { marks.append(mark) }
            return marks
        }
    }

    private struct Candidate {
        let distance: Double
        let earlier: Int
        let later: Int
    }

    /// Record pairs with at most this many mark pairs keep their candidates in stack storage.
    private static let stackCandidates = 256

    /// Pairs the marks and hands `body` the flags of the paired ones. The flags, and the candidate
    /// pairs of records with a few marks, live in temporary (stack) storage: the pass pairs
    /// 600,000 record pairs, mostly of a few marks each.
    private static func withPairing<Result>(
        earlier: [Impact], later: [Impact],
        _ body: (UnsafeMutableBufferPointer<Bool>, UnsafeMutableBufferPointer<Bool>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: earlier.count + later.count) { flags in
            flags.initialize(repeating: false)
            let earlierPaired = UnsafeMutableBufferPointer(rebasing: flags[..<earlier.count])
            let laterPaired = UnsafeMutableBufferPointer(rebasing: flags[earlier.count...])
            let greedy = { (candidates: UnsafeMutableBufferPointer<Candidate>) in
                var candidates = candidates
                if candidates.count > 1 {
                    candidates.sort { ($0.distance, $0.earlier, $0.later) < ($1.distance, $1.earlier, $1.later) }
                }
                for candidate in candidates where !earlierPaired[candidate.earlier] && !laterPaired[candidate.later] {
                    earlierPaired[candidate.earlier] = true
                    laterPaired[candidate.later] = true
                }
            }
            let most = earlier.count * later.count
            if most <= stackCandidates {
                withUnsafeTemporaryAllocation(of: Candidate.self, capacity: most) { storage in
                    var count = 0
                    forEachCandidate(earlier, later) { candidate in
                        (storage.baseAddress! + count).initialize(to: candidate)
                        count += 1
                    }
                    greedy(UnsafeMutableBufferPointer(rebasing: storage[..<count]))
                }
            } else {
                var candidates: [Candidate] = []
                forEachCandidate(earlier, later) { candidates.append($0) }
                candidates.withUnsafeMutableBufferPointer { greedy($0) }
            }
            return body(earlierPaired, laterPaired)
        }
    }

    /// Every same-type pair of marks within the distance, with its squared distance (which
    /// orders pairs exactly as the distance does, without rounding a square root).
    private static func forEachCandidate(_ earlier: [Impact], _ later: [Impact], _ body: (Candidate) -> Void) {
        let limit = maximumDistance * maximumDistance
        for (earlierIndex, mark) in earlier.enumerated() {
            for (laterIndex, other) in later.enumerated() where other.type == mark.type {
                let dx = other.x - mark.x, dy = other.y - mark.y
                let squared = dx * dx + dy * dy
                if squared <= limit { body(Candidate(distance: squared, earlier: earlierIndex, later: laterIndex)) }
            }
        }
    }
}

/// A cell of the 4 × 4 grid over the 400 × 400 car diagram: columns `A`–`D` by x, rows `1`–`4`
/// by y, 100 units each; the far edge (400) belongs to the last cell.
struct DamageZone: Sendable, Equatable {
    let column: Int
    let row: Int

    init(x: Double, y: Double) {
        column = DamageZone.band(x)
        row = DamageZone.band(y)
    }

    static func band(_ coordinate: Double) -> Int {
        guard coordinate.isFinite else { return 0 }
        // Clamp before converting: Int(_:) traps on a huge value (import keeps 0…400, but this
        // must not depend on it).
        return Int(min(3, max(0, (coordinate / 100).rounded(.down))))
    }

    static let columnLabels = ["A", "B", "C", "D"]
    static let rowLabels = ["1", "2", "3", "4"]

    /// `B3`.
    var name: String { DamageZone.columnLabels[column] + DamageZone.rowLabels[row] }
}
