/// Hands out valid, unique worksheet names, so that libxlsxwriter never refuses (and never prints).
///
/// Excel's rules: at most 31 characters, none of `[ ] : * ? / \`, not starting or ending with an
/// apostrophe, unique without regard to case, and not `History` (Excel reserves it). Names come
/// from table titles, which analyzers choose and which may clash (`Summary`, two `Daily` tables):
/// a clash gets ` (2)`, ` (3)`… rather than an error.
struct XLSXSheetNames {
    static let maximumLength = 31
    private static let forbidden: Set<Character> = ["[", "]", ":", "*", "?", "/", "\\"]

    /// Lower-cased names already given out, plus the reserved one.
    private var taken: Set<String> = ["history"]

    /// A valid name close to `title` that no earlier call returned.
    mutating func claim(_ title: String) -> String {
        let base = XLSXSheetNames.sanitize(title)
        if taken.insert(XLSXSheetNames.key(base)).inserted { return base }
        return claim(base, startingAt: 2)
    }

    /// The name of continuation sheet `number` (2, 3…) of a table whose first sheet is `first`.
    mutating func claimContinuation(of first: String, number: Int) -> String {
        claim(first, startingAt: number)
    }

    private mutating func claim(_ base: String, startingAt first: Int) -> String {
        var number = first
        while true {
            let suffix = " (\(number))"
            let stem = XLSXSheetNames.trimmed(XLSXSheetNames.prefix(base, utf16Length: maximumStem(for: suffix)))
            let candidate = (stem.isEmpty ? "Sheet" : stem) + suffix
            if taken.insert(XLSXSheetNames.key(candidate)).inserted { return candidate }
            number += 1
        }
    }

    private func maximumStem(for suffix: String) -> Int { XLSXSheetNames.maximumLength - suffix.utf16.count }

    /// The title with forbidden and control characters replaced, cut to 31, apostrophes trimmed.
    static func sanitize(_ title: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in title.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || forbidden.contains(Character(scalar)) {
                scalars.append("_")
            } else {
                scalars.append(scalar)
            }
        }
        let cut = trimmed(prefix(String(scalars), utf16Length: maximumLength))
        return cut.isEmpty ? "Sheet" : cut
    }

    /// Leading and trailing apostrophes and spaces removed (Excel refuses the apostrophes, and a
    /// cut can leave a trailing space).
    static func trimmed(_ name: String) -> String {
        var scalars = Substring(name).unicodeScalars
        while let first = scalars.first, first == "'" || first == " " { scalars.removeFirst() }
        while let last = scalars.last, last == "'" || last == " " { scalars.removeLast() }
        return String(scalars)
    }

    /// The longest prefix of whole Unicode scalars whose UTF-16 length fits: Excel counts UTF-16
    /// units, libxlsxwriter counts scalars, so this satisfies both.
    static func prefix(_ text: String, utf16Length limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var length = 0
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            length += scalar.utf16.count
            if length > limit { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Case-insensitive identity, as Excel compares sheet names.
    private static func key(_ name: String) -> String { name.lowercased() }
}
