/// How a table sheet prints on A4 so that no text is below 8 points and no page is wasted: the
/// orientation, the scale, and whether its columns split across pages behind repeated key columns.
///
/// Widths are Excel character units (Calibri 11: about 7 pixels a character plus 5 of padding, at
/// 96 pixels an inch). Between margins of 0.5 inch, a portrait page is 698 pixels wide and 756
/// points tall, a landscape one 1,026 pixels wide and 509 points tall (0.6 inch top and bottom);
/// 92 % of those widths are counted on.
/// - Of portrait and landscape at a scale up to the largest at which the columns fit, and at
///   73 % or more (11-point text at 8 points): the one with fewer pages, each at the largest scale
///   that gives its fewest; on a tie portrait when it prints at 80 % or more, else the larger
///   scale.
/// - Wider than that, the scale is 73 % and the columns split into strips, each strip starting
///   with the table's key columns again (`repeatColumns`), in whichever orientation gives fewer
///   pages. A sheet is never shrunk below 8 points to fit.
struct XLSXPrintLayout: Equatable {
    /// The printable widths less 8 %: spreadsheet programs round column widths and keep room for
    /// gridlines, and a column cut off at a page's edge is worse than a page a little less full.
    static let portraitPixels = 698.0 * 0.92
    static let landscapePixels = 1_026.0 * 0.92
    static let portraitPoints = 842.0 - 2 * XLSXPrintSetup.topBottomMargin * 72
    static let landscapePoints = 595.0 - 2 * XLSXPrintSetup.topBottomMargin * 72
    /// 8 / 11 points, rounded up.
    static let minimumScale = 73
    static let portraitMinimumScale = 80
    static let rowPoints = 15.0

    var landscape: Bool
    /// Percent, 73…100.
    var scale: Int
    /// Leading columns printed on every strip (0: the columns fit, no strips).
    var repeatColumns: Int

    static func pixels(_ width: Double) -> Double { width * 7 + 5 }

    /// The layout of a sheet with these column widths, `keyColumns` leading key columns and
    /// `rows` rows (header included).
    static func choose(widths: [Double], keyColumns: Int, rows: Int) -> XLSXPrintLayout {
        let total = widths.reduce(0) { $0 + pixels($1) }
        guard total > 0 else { return XLSXPrintLayout(landscape: false, scale: 100, repeatColumns: 0) }
        let portraitScale = min(100, Int((portraitPixels / total * 100).rounded(.down)))
        let landscapeScale = min(100, Int((landscapePixels / total * 100).rounded(.down)))
        // Of the orientations whose text stays at 8 points or more: the fewest pages; then portrait
        // when it prints at 80 % or more, else the larger scale.
        // Each at the largest scale that still gives its fewest pages (a 64-row table prints on one
        // page at 74 % rather than on two at 85 %).
        func fullest(_ landscape: Bool, _ fit: Int) -> (Bool, Int) {
            guard fit >= minimumScale else { return (landscape, fit) }
            let fewest = pages(rows: rows, landscape: landscape, scale: minimumScale)
            let scale = stride(from: fit, through: minimumScale, by: -1).first {
                pages(rows: rows, landscape: landscape, scale: $0) == fewest
            }
            return (landscape, scale ?? minimumScale)
        }
        let candidates = [fullest(false, portraitScale), fullest(true, landscapeScale)].filter {
            $0.1 >= minimumScale
        }
        if let best = candidates.min(by: { left, right in
            let (leftPages, rightPages) = (
                pages(rows: rows, landscape: left.0, scale: left.1),
                pages(rows: rows, landscape: right.0, scale: right.1)
            )
            if leftPages != rightPages { return leftPages < rightPages }
            if !left.0, left.1 >= portraitMinimumScale { return true }
            if !right.0, right.1 >= portraitMinimumScale { return false }
            return left.1 > right.1
        }) {
            return XLSXPrintLayout(landscape: best.0, scale: best.1, repeatColumns: 0)
        }
        let key = min(max(keyColumns, 1), widths.count)
        func stripPages(landscape: Bool) -> Int {
            let width = (landscape ? landscapePixels : portraitPixels) * 100 / Double(minimumScale)
            return strips(widths, key: key, pageWidth: width)
                * pages(rows: rows, landscape: landscape, scale: minimumScale)
        }
        let landscape = stripPages(landscape: true) <= stripPages(landscape: false)
        return XLSXPrintLayout(landscape: landscape, scale: minimumScale, repeatColumns: key)
    }

    /// Pages a column strip of `rows` rows takes (the header repeated on each).
    static func pages(rows: Int, landscape: Bool, scale: Int) -> Int {
        let perPage = max(1, rowsOnPage(landscape: landscape, scale: scale) - 1)
        return max(1, (max(rows - 1, 0) + perPage - 1) / perPage)
    }

    /// Rows of 15 points a page holds at `scale` percent, 2 % of its height kept free (a
    /// spreadsheet program rounds row heights): 45 on a landscape page at 73 %.
    static func rowsOnPage(landscape: Bool, scale: Int) -> Int {
        let height = (landscape ? landscapePoints : portraitPoints) * 0.98
        return Int(height / (rowPoints * Double(scale) / 100))
    }

    /// The strips the columns need on pages `pageWidth` pixels wide, the key columns on each.
    static func strips(_ widths: [Double], key: Int, pageWidth: Double) -> Int {
        let keyPixels = widths.prefix(key).reduce(0) { $0 + pixels($1) }
        var count = 1
        var used = keyPixels
        for width in widths.dropFirst(key) {
            let needed = pixels(width)
            if used + needed > pageWidth, used > keyPixels {
                count += 1
                used = keyPixels
            }
            used += needed
        }
        return count
    }
}
