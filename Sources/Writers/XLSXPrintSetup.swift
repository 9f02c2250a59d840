import CXLSXWriter

/// How a sheet prints: what a manager gets from File › Print or a PDF export of the workbook.
///
/// Every sheet: A4, fitted to one page wide (a wide table never splits into column strips),
/// landscape when its columns are wider than a portrait page, a header with the report title and
/// scope, a footer with the sheet name and `Page n of m`, margins of 0.5 inch at the sides.
/// Table sheets repeat their header row on every page and print gridlines; the Summary prints
/// on one page, charts included, through an explicit print area.
struct XLSXPrintSetup {
    /// The characters of column width that fit across a portrait A4 page between the margins at
    /// Calibri 11 (about 7 px per character, 96 dpi, 7.27 inch printable).
    static let portraitCharacters = 95.0
    /// libxlsxwriter refuses a header or footer longer than this (and prints a warning).
    static let maximumHeaderLength = 255
    /// `lxw_paper` code of A4.
    static let a4: UInt8 = 9

    let title: String
    let scope: String

    /// Applies the setup to `sheet`. `widths` are the sheet's column widths in characters;
    /// `repeatHeader`: a table whose row 0 is its header; `onePage`: fit on one page wide and tall.
    func apply(to cells: XLSXCellWriter, widths: [Double], repeatHeader: Bool, onePage: Bool) throws {
        let sheet = cells.sheet
        worksheet_set_paper(sheet, XLSXPrintSetup.a4)
        if XLSXPrintSetup.isWide(widths) { worksheet_set_landscape(sheet) } else { worksheet_set_portrait(sheet) }
        worksheet_set_margins(sheet, 0.5, 0.5, 0.75, 0.75)
        worksheet_fit_to_pages(sheet, 1, onePage ? 1 : 0)
        if repeatHeader {
            try cells.check(worksheet_repeat_rows(sheet, 0, 0), row: 0, column: 0, detail: "repeated header row")
            worksheet_gridlines(sheet, UInt8(LXW_SHOW_PRINT_GRIDLINES.rawValue))
        }
        let header = XLSXPrintSetup.headerFooter(left: title, right: scope)
        let footer = XLSXPrintSetup.headerFooter(left: cells.sheetName, right: "Page &P of &N", rightIsCode: true)
        try cells.check(header.withCString { worksheet_set_header(sheet, $0) }, detail: "page header")
        try cells.check(footer.withCString { worksheet_set_footer(sheet, $0) }, detail: "page footer")
    }

    /// Whether columns this wide need a landscape page.
    static func isWide(_ widths: [Double]) -> Bool { widths.reduce(0, +) > portraitCharacters }

    /// `&L<left>&R<right>` with `&` in the texts doubled (a lone `&` starts a code), cut so that
    /// the whole stays within libxlsxwriter's 255 characters.
    static func headerFooter(left: String, right: String, rightIsCode: Bool = false) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&&").replacingOccurrences(of: "\n", with: " ")
        }
        let rightText = String((rightIsCode ? right : escaped(right)).prefix(100))
        var leftText = escaped(left)
        // The library counts bytes, not characters.
        func whole() -> String { "&L" + leftText + "&R" + rightText }
        if whole().utf8.count > maximumHeaderLength {
            while whole().utf8.count > maximumHeaderLength - 3, !leftText.isEmpty { leftText.removeLast() }
            // Never end on half of a doubled `&`.
            if leftText.reversed().prefix(while: { $0 == "&" }).count % 2 == 1 { leftText.removeLast() }
            leftText += "…"
        }
        return whole()
    }
}
