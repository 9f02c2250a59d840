import ReportModel
/// One table as a Markdown section.
enum MarkdownTable {
    static func lines(_ table: Table) -> [String] {
        var lines = ["## " + MarkdownText.singleLine(table.title)]
        if let caption = table.caption { lines += ["", MarkdownText.singleLine(caption)] }
        lines.append("")
        let types = table.columns.map(\.type)
        let limit = max(table.markdownLimit, 0)
        var shown: [String] = []
        let rows = table.rows.makeIterator()
        while shown.count < limit, let row = rows.next() {
            let cells = types.indices.map { index in
                MarkdownText.cell(MarkdownText.display(index < row.count ? row[index] : .empty, as: types[index]))
            }
            shown.append("| " + cells.joined(separator: " | ") + " |")
        }
        var remaining = 0
        if let count = table.rows.count {
            remaining = max(count - shown.count, 0)
        } else {
            while rows.next() != nil { remaining += 1 }
        }
        if shown.isEmpty && remaining == 0 {
            lines.append("No rows.")
            return lines
        }
        if !shown.isEmpty {
            lines.append("| " + table.columns.map { MarkdownText.cell($0.title) }.joined(separator: " | ") + " |")
            lines.append("|" + types.map { isNumeric($0) ? "---:" : "---" }.joined(separator: "|") + "|")
            lines += shown
        }
        if remaining > 0 {
            if !shown.isEmpty { lines.append("") }
            lines.append(moreRows(remaining, outputs: table.outputs))
        }
        return lines
    }

    /// "12 more rows in the CSV and XLSX files.", naming only the files the table goes to.
    static func moreRows(_ count: Int, outputs: Outputs) -> String {
        let noun = count == 1 ? "1 more row" : "\(count) more rows"
        switch (outputs.contains(.csv), outputs.contains(.xlsx)) {
        case (true, true): return noun + " in the CSV and XLSX files."
        case (true, false): return noun + " in the CSV file."
        case (false, true): return noun + " in the XLSX file."
        case (false, false): return noun + " not shown."
        }
    }

    /// Numbers are right-aligned; percent bars stay left so that the bars line up.
    private static func isNumeric(_ type: ColumnType) -> Bool {
        switch type {
        case .integer, .decimal, .hours, .euros: return true
        case .percent, .text, .date, .timestamp, .boolean: return false
        }
    }
}

/// Escaping and display of text in Markdown.
enum MarkdownText {
    /// A value as shown in a cell: percent values as text bars, the rest as `DisplayText`.
    static func display(_ value: Value, as type: ColumnType) -> String {
        if type == .percent, let ratio = value.doubleValue { return DisplayText.percentBar(ratio) }
        return DisplayText.text(value, as: type)
    }

    /// A table cell: `|` → `\|`, each line break (CRLF, LF or CR) → `<br>`, and the escapes of
    /// `singleLine`.
    static func cell(_ text: String) -> String {
        guard text.contains(where: { $0 == "|" || $0.isNewline || $0 == "<" || $0 == "\u{0}" }) else { return text }
        var result = ""
        for character in text {
            if character == "|" { result += "\\|" } else if character.isNewline { result += "<br>" } else {
                appendEscaped(character, to: &result)
            }
        }
        return result
    }

    /// Text on one line (titles, list items): line breaks become spaces. Text from the data can
    /// never become markup: `<` is written `&lt;`, so a name like `<img src=x onerror=…>` shows as
    /// text in a mail client that renders Markdown's raw HTML; a NUL (a JSON `\u0000` kept in
    /// the database) becomes U+FFFD, as CommonMark itself requires.
    static func singleLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "<" || $0 == "\u{0}" }) else { return text }
        var result = ""
        for character in text {
            if character.isNewline { result.append(" ") } else { appendEscaped(character, to: &result) }
        }
        return result
    }

    private static func appendEscaped(_ character: Character, to result: inout String) {
        switch character {
        case "<": result += "&lt;"
        case "\u{0}": result += "\u{FFFD}"
        default: result.append(character)
        }
    }

    /// Image alt text: one line, brackets escaped so the link stays a link.
    static func altText(_ text: String) -> String {
        var result = ""
        for character in singleLine(text) {
            if character == "[" || character == "]" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
