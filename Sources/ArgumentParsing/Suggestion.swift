/// The known name nearest to a mistyped one, for `did you mean --event?` (as sqlite-utils and
/// DuckDB answer a typo): the smallest edit distance, if it is at most a third of the longer
/// name (at least 1), so `--evnt` finds `--event` but `--zzz` finds nothing.
public enum Suggestion {
    public static func nearest(to typed: String, among names: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(typed, name)
            let allowed = max(1, max(typed.count, name.count) / 3)
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// `; did you mean --event?`, or nothing when no name is near.
    public static func clause(for typed: String, among names: [String], prefix: String = "") -> String {
        nearest(to: typed, among: names).map { "; did you mean \(prefix)\($0)?" } ?? ""
    }

    /// Levenshtein distance over characters, with a swap of two neighbours counting 1.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
