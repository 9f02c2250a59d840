import Foundation

/// A small, fast, seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64).
///
/// The generator never touches `SystemRandomNumberGenerator`: the same seed must give
/// byte-identical files on every machine and every run, which is what makes the sample data
/// reviewable in git and the benchmarks repeatable. Each domain derives its own stream
/// (`derived(_:)`) so that changing how fleet data is drawn never shifts the habits data.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state0: UInt64
    private var state1: UInt64
    private var state2: UInt64
    private var state3: UInt64

    init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var value = splitMix
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        state0 = nextSplitMix()
        state1 = nextSplitMix()
        state2 = nextSplitMix()
        state3 = nextSplitMix()
    }

    /// An independent stream for one purpose, named by a small constant.
    func derived(_ stream: UInt64) -> SeededRandom {
        SeededRandom(seed: state0 ^ (stream &* 0xD1B5_4A32_D192_ED03))
    }

    mutating func next() -> UInt64 {
        let result = rotateLeft(state1 &* 5, 7) &* 9
        let shifted = state1 << 17
        state2 ^= state0
        state3 ^= state1
        state1 ^= state2
        state0 ^= state3
        state2 ^= shifted
        state3 = rotateLeft(state3, 45)
        return result
    }

    private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// A value in `0..<bound` (bound > 0), by Lemire's multiply-high; the bias is far below notice.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A value in the closed range.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A double in [0, 1) with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// An index drawn with the given relative weights (all ≥ 0, some > 0).
    mutating func weightedIndex(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var target = unit() * total
        for (index, weight) in weights.enumerated() {
            if target < weight { return index }
            target -= weight
        }
        return weights.count - 1
    }

    /// A roughly bell-shaped integer around `center` (sum of three uniforms), within ±spread.
    mutating func around(_ center: Int, spread: Int) -> Int {
        guard spread > 0 else { return center }
        let sum = int(-spread...spread) + int(-spread...spread) + int(-spread...spread)
        return center + sum / 3
    }

    /// A count with the given mean, Poisson-distributed (Knuth; fine for the small means used here).
    mutating func poisson(mean: Double) -> Int {
        guard mean > 0 else { return 0 }
        let limit = exp(-min(mean, 30))
        var product = unit()
        var count = 0
        while product > limit {
            count += 1
            product *= unit()
        }
        return count
    }

    /// k distinct elements in a random order (k is cut to the array's size).
    mutating func sample<Element>(_ elements: [Element], count: Int) -> [Element] {
        var pool = elements
        var result: [Element] = []
        for _ in 0..<min(count, pool.count) {
            result.append(pool.remove(at: below(pool.count)))
        }
        return result
    }
}
