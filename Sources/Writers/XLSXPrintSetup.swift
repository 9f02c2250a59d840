import CXLSXWriter

/// How a sheet prints: what a manager gets from File › Print or a PDF export of the workbook.
///
/// Every sheet: A4, a header with the report title and scope, a footer with the sheet name and
/// `Page n of m`, margins of 0.5 inch at the sides. Table sheets print at the orientation and
/// scale of `XLSXPrintLayout` (portrait when the columns fit, never below 8-point text, columns
/// split behind repeated key columns when even landscape at 8 points is too narrow), repeat
/// their header row on every page and print gridlines; the Summary prints on one page, charts
/// included, through an explicit print area. An explicit scale rather than "fit to one page wide
/// and any number tall": LibreOffice printed a blank page after such a sheet.
struct XLSXPrintSetup {
    /// The characters of column width that fit across a portrait A4 page between the margins at
    /// Calibri 11 (about 7 px per character, 96 dpi, 7.27 inch printable).
    static let portraitCharacters = 95.0
    /// libxlsxwriter refuses a header or footer longer than this (and prints a warning).
    static let maximumHeaderLength = 255
    /// `lxw_paper` code of A4.
    static let a4: UInt8 = 9
    /// Inches above and below a page's rows; the page header and footer sit 0.3 inch from the edge.
    static let topBottomMargin = 0.6

    let title: String
    let scope: String

    /// Applies the setup to `sheet`. `widths` are the sheet's column widths in characters;
    /// `repeatHeader`: a table whose row 0 is its header (`headerRow` for another row);
    /// `onePage`: fit on one page wide and tall; `keyColumns`: the leading columns that identify a
    /// row, repeated on each strip of a table too wide for a page; `rows`: the rows it prints;
    /// `footerNote`: words in the middle of the footer (a sheet that prints only some columns).
    func apply(
        to cells: XLSXCellWriter, widths: [Double], repeatHeader: Bool, onePage: Bool, keyColumns: Int = 1,
        rows: Int = 0, headerRow: UInt32 = 0, footerNote: String? = nil
    ) throws {
        let sheet = cells.sheet
        worksheet_set_paper(sheet, XLSXPrintSetup.a4)
        worksheet_set_margins(sheet, 0.5, 0.5, XLSXPrintSetup.topBottomMargin, XLSXPrintSetup.topBottomMargin)
        if onePage {
            if XLSXPrintSetup.isWide(widths) { worksheet_set_landscape(sheet) } else { worksheet_set_portrait(sheet) }
            worksheet_fit_to_pages(sheet, 1, 1)
        } else {
            let layout = XLSXPrintLayout.choose(widths: widths, keyColumns: keyColumns, rows: rows)
            if layout.landscape { worksheet_set_landscape(sheet) } else { worksheet_set_portrait(sheet) }
            worksheet_set_print_scale(sheet, UInt16(layout.scale))
            if layout.repeatColumns > 0 {
                try cells.check(
                    worksheet_repeat_columns(sheet, 0, UInt16(layout.repeatColumns - 1)), row: 0, column: 0,
                    detail: "repeated key columns")
            }
        }
        if repeatHeader {
            try cells.check(
                worksheet_repeat_rows(sheet, headerRow, headerRow), row: headerRow, column: 0,
                detail: "repeated header row")
            worksheet_gridlines(sheet, UInt8(LXW_SHOW_PRINT_GRIDLINES.rawValue))
        }
        let header = XLSXPrintSetup.headerFooter(left: title, right: scope)
        let footer = XLSXPrintSetup.headerFooter(
            left: cells.sheetName, center: footerNote, right: "Page &P of &N", rightIsCode: true)
        try cells.check(header.withCString { worksheet_set_header(sheet, $0) }, detail: "page header")
        try cells.check(footer.withCString { worksheet_set_footer(sheet, $0) }, detail: "page footer")
    }

    /// Whether columns this wide need a landscape page.
    static func isWide(_ widths: [Double]) -> Bool { widths.reduce(0, +) > portraitCharacters }

    /// `&L<left>&C<center>&R<right>` (no `&C` without a center) with `&` in the texts doubled (a
    /// lone `&` starts a code), cut so that the whole stays within libxlsxwriter's 255 characters.
    static func headerFooter(left: String, center: String? = nil, right: String, rightIsCode: Bool = false) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&&").replacingOccurrences(of: "\n", with: " ")
        }
        let rightText = String((rightIsCode ? right : escaped(right)).prefix(100))
        let centerText =
            center.map { text -> String in
                var cut = String(escaped(text).prefix(100))
                if cut.reversed().prefix(while: { $0 == "&" }).count % 2 == 1 { cut.removeLast() }
                return "&C" + cut
            } ?? ""
        var leftText = escaped(left)
        // The library counts bytes, not characters.
        func whole() -> String { "&L" + leftText + centerText + "&R" + rightText }
        if whole().utf8.count > maximumHeaderLength {
            while whole().utf8.count > maximumHeaderLength - 3, !leftText.isEmpty { leftText.removeLast() }
            // Never end on half of a doubled `&`.
            if leftText.reversed().prefix(while: { $0 == "&" }).count % 2 == 1 { leftText.removeLast() }
            leftText += "…"
        }
        return whole()
    }
}
