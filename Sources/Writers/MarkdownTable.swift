import Time
import ReportModel

/// One table as a Markdown section: the rows a reader wants first (`Table.markdownOrder`), the
/// columns that matter (`Table.markdownColumns`), and a line saying what is left to the files.
enum MarkdownTable {
    static func lines(_ table: Table) -> [String] {
        var lines = ["## " + MarkdownText.singleLine(table.title)]
        if let caption = table.caption { lines += ["", MarkdownText.singleLine(caption)] }
        lines.append("")
        let chosen =
            table.markdownColumns.map { names in
                table.columns.indices.filter { names.contains(table.columns[$0].name) }
            } ?? Array(table.columns.indices)
        let columns = chosen.isEmpty ? Array(table.columns.indices) : chosen
        let types = columns.map { table.columns[$0].type }
        let limit = max(table.markdownLimit, 0)
        let (picked, total) = pick(table, limit: limit)
        let shown = picked.map { row -> String in
            let cells = zip(columns, types).map { index, type in
                MarkdownText.cell(shortened(MarkdownText.display(index < row.count ? row[index] : .empty, as: type)))
            }
            return "| " + cells.joined(separator: " | ") + " |"
        }
        let remaining = max(total - shown.count, 0)
        if shown.isEmpty && remaining == 0 {
            lines.append("No rows.")
            return lines
        }
        if !shown.isEmpty {
            if let order = orderNote(table, shown: shown.count, total: total) { lines += [order, ""] }
            lines.append(
                "| " + columns.map { MarkdownText.cell(table.columns[$0].title) }.joined(separator: " | ") + " |")
            lines.append("|" + types.map { isNumeric($0) ? "---:" : "---" }.joined(separator: "|") + "|")
            lines += shown
        }
        let hiddenColumns = table.columns.count - columns.count
        if remaining > 0 || hiddenColumns > 0 {
            if !shown.isEmpty { lines.append("") }
            lines.append(moreRows(remaining, columns: hiddenColumns, outputs: table.outputs))
        }
        return lines
    }

    /// The rows to show and the table's row count. In the table's order the first `limit` rows;
    /// else the `limit` first by the sort column, descending, empty values last, ties in table
    /// order: one pass, keeping `limit` rows, so a long table costs no memory.
    static func pick(_ table: Table, limit: Int) -> (rows: [[Value]], total: Int) {
        let rows = table.rows.makeIterator()
        let sortName: String
        switch table.markdownOrder {
        case .asWritten:
            var shown: [[Value]] = []
            while shown.count < limit, let row = rows.next() { shown.append(row) }
            var total = shown.count
            if let count = table.rows.count {
                total = max(count, total)
            } else {
                while rows.next() != nil { total += 1 }
            }
            return (shown, total)
        case .latestFirst(let name), .largestFirst(let name), .latestFirstThrough(let name, _):
            sortName = name
        }
        var through: Day?
        if case .latestFirstThrough(_, let day) = table.markdownOrder { through = day }
        guard let sortIndex = table.columns.firstIndex(where: { $0.name == sortName }), limit > 0 else {
            var plain = table
            plain.markdownOrder = .asWritten
            return pick(plain, limit: limit)
        }
        var kept: [(key: Double, index: Int, row: [Value])] = []
        var index = 0
        // Larger keys first; among equal keys the earlier row.
        func before(_ a: (key: Double, index: Int, row: [Value]), _ b: (key: Double, index: Int, row: [Value])) -> Bool
        {
            a.key != b.key ? a.key > b.key : a.index < b.index
        }
        while let row = rows.next() {
            var key = sortIndex < row.count ? sortKey(row[sortIndex]) : -Double.infinity
            // Days after `through` go below every other day, the earliest of them first.
            if let through, sortIndex < row.count, case .day(let day) = row[sortIndex], day > through {
                key = -1e12 - Double(day.ordinal)
            }
            let entry = (key: key, index: index, row: row)
            index += 1
            if kept.count < limit {
                kept.append(entry)
                kept.sort(by: before)
            } else if let last = kept.last, before(entry, last) {
                kept[kept.count - 1] = entry
                kept.sort(by: before)
            }
        }
        return (kept.map(\.row), index)
    }

    /// The most characters of a cell in chat: a longer text (a quality detail) is cut with `…`;
    /// the CSV and XLSX files have it whole.
    static let maximumCellCharacters = 60

    static func shortened(_ text: String) -> String {
        text.count > maximumCellCharacters ? String(text.prefix(maximumCellCharacters - 1)) + "…" : text
    }

    /// A value's place in a descending order: numbers, days and instants by their size; empty
    /// and text values last.
    private static func sortKey(_ value: Value) -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number.isFinite ? number : -Double.infinity
        case .day(let day): return Double(day.ordinal)
        case .timestamp(let timestamp): return Double(timestamp.microseconds)
        case .boolean(let flag): return flag ? 1 : 0
        case .empty, .text: return -Double.infinity
        }
    }

    /// "Latest first." or "Top 10 by hours out." above a reordered table.
    private static func orderNote(_ table: Table, shown: Int, total: Int) -> String? {
        switch table.markdownOrder {
        case .asWritten: return nil
        case .latestFirst(let name):
            let title = table.columns.first { $0.name == name }?.title.lowercased() ?? name
            return shown < total ? "The latest \(shown) by \(title), latest first." : "Latest first by \(title)."
        case .latestFirstThrough(let name, let day):
            let title = table.columns.first { $0.name == name }?.title.lowercased() ?? name
            return
                (shown < total
                ? "The latest \(shown) by \(title) up to \(day), latest first"
                : "Latest first by \(title) up to \(day)")
                + "; the days after it follow."
        case .largestFirst(let name):
            let title = table.columns.first { $0.name == name }?.title.lowercased() ?? name
            return shown < total ? "The top \(shown) by \(title)." : "Largest \(title) first."
        }
    }

    /// "12 more rows in the CSV and XLSX files.", naming only the files the table goes to, and
    /// the columns left out here (`12 more rows and 9 more columns in …`).
    static func moreRows(_ count: Int, columns: Int = 0, outputs: Outputs) -> String {
        let rowNoun = count == 1 ? "1 more row" : "\(count) more rows"
        let columnNoun = columns == 1 ? "1 more column" : "\(columns) more columns"
        let noun = columns == 0 ? rowNoun : count == 0 ? columnNoun : rowNoun + " and " + columnNoun
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
        case .integer, .decimal, .duration, .euros, .measure: return true
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
            if character == "|" {
                result += "\\|"
            } else if character.isNewline {
                result += "<br>"
            } else {
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

    /// A list item cut at spaces into lines of at most `width` characters, the continuation
    /// lines indented by two spaces (the same item to a Markdown reader), so a chat window or a
    /// terminal never scrolls sideways.
    static func wrapped(_ item: String, width: Int = 120) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in item.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = "  " + word
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        lines.append(line)
        return lines
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
