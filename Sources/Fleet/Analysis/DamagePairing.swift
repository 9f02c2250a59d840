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
        var earlierPaired = [Bool](repeating: false, count: earlier.count)
        var laterPaired = [Bool](repeating: false, count: later.count)
        guard !earlier.isEmpty, !later.isEmpty else { return (earlierPaired, laterPaired) }
        // Squared distances order pairs exactly as distances do, without rounding a square root.
        let limit = maximumDistance * maximumDistance
        var candidates: [(distance: Double, earlier: Int, later: Int)] = []
        for (earlierIndex, mark) in earlier.enumerated() {
            for (laterIndex, other) in later.enumerated() where other.type == mark.type {
                let dx = other.x - mark.x, dy = other.y - mark.y
                let squared = dx * dx + dy * dy
                if squared <= limit { candidates.append((squared, earlierIndex, laterIndex)) }
            }
        }
        if candidates.count > 1 {
            candidates.sort { ($0.distance, $0.earlier, $0.later) < ($1.distance, $1.earlier, $1.later) }
        }
        for candidate in candidates where !earlierPaired[candidate.earlier] && !laterPaired[candidate.later] {
            earlierPaired[candidate.earlier] = true
            laterPaired[candidate.later] = true
        }
        return (earlierPaired, laterPaired)
    }

    /// The marks of `later` with no partner in `earlier`: new damage, in their order.
    static func unpaired(_ later: [Impact], against earlier: [Impact]) -> [Impact] {
        guard !later.isEmpty, !earlier.isEmpty else { return later }
        let laterPaired = pair(earlier: earlier, later: later).laterPaired
        var marks: [Impact] = []
        for (index, mark) in later.enumerated() where !laterPaired[index] { marks.append(mark) }
        return marks
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
