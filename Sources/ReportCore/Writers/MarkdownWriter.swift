import Foundation

/// Writes the Markdown report of SPEC §6.3, for chat and e-mail, with its charts as SVG files.
///
/// Layout: title; scope, as-of and tool version; parameters; headline figures; then each table
/// with `.markdown` in its outputs (title, caption, its first `markdownLimit` rows as a GitHub
/// table, a line counting the rest); the charts and the heat map as linked SVG pictures; notes.
/// Empty sections are left out. Percent columns show text bars (`███████░░░  74 %`), numbers are
/// right-aligned. Output is deterministic: the same report gives the same bytes.
public struct MarkdownWriter: Sendable {
    public init() {}

    /// The Markdown text and the SVG files it links (`name` is the sanitized file name, to be
    /// written beside the `.md`), without touching the disk: the CLI prints the text to stdout.
    public func render(_ report: Report) -> (markdown: String, svgs: [(name: String, content: String)]) {
        var lines: [String] = []
        lines.append("# " + MarkdownText.singleLine(report.title))
        lines.append("")
        lines.append("- Scope: " + MarkdownText.singleLine(report.scope))
        lines.append("- As of: " + report.asOf.description)
        lines.append("- Tool version: report " + MarkdownText.singleLine(report.toolVersion))
        if !report.parameters.isEmpty {
            lines += ["", "## Parameters", "", "| Parameter | Value |", "|---|---|"]
            for parameter in report.parameters {
                lines.append("| " + MarkdownText.cell(parameter.name) + " | " + MarkdownText.cell(parameter.value) + " |")
            }
        }
        if !report.figures.isEmpty {
            lines += ["", "## Headline figures", "", "| Figure | Value |", "|---|---:|"]
            for figure in report.figures {
                lines.append("| " + MarkdownText.cell(figure.title) + " | "
                    + MarkdownText.cell(MarkdownText.display(figure.value, as: figure.type)) + " |")
            }
        }
        for table in report.tables where table.outputs.contains(.markdown) {
            lines.append("")
            lines += MarkdownTable.lines(table)
        }
        let svgs = pictures(report)
        let sentences = report.charts.compactMap { ChartSinglePoint.sentence(for: $0, in: report) }
        if !svgs.isEmpty || !sentences.isEmpty {
            lines += ["", "## Charts"]
            for picture in svgs {
                lines += ["", "![" + MarkdownText.altText(picture.title) + "](" + picture.name + ")"]
            }
            for sentence in sentences { lines += ["", MarkdownText.singleLine(sentence)] }
        }
        if !report.notes.isEmpty {
            lines += ["", "## Notes", ""]
            lines += report.notes.flatMap { MarkdownText.wrapped("- " + MarkdownText.singleLine($0)) }
        }
        return (lines.joined(separator: "\n") + "\n", svgs.map { ($0.name, $0.content) })
    }

    /// Writes `<directory>/<sanitized baseName>.md` and its SVG files beside it, each atomically
    /// (the pictures first, so the report never links a file that is not there yet). Returns the
    /// `.md` URL followed by the SVG URLs.
    public func write(_ report: Report, to directory: URL) throws -> [URL] {
        let rendered = render(report)
        var written: [URL] = []
        for picture in rendered.svgs {
            let url = try OutputFiles.location(of: picture.name, in: directory)
            try OutputFiles.writeFile(at: url, contents: picture.content)
            written.append(url)
        }
        let markdownURL = try OutputFiles.location(of: OutputFiles.fileName(report.baseName, extension: "md"),
                                                   in: directory)
        try OutputFiles.writeFile(at: markdownURL, contents: rendered.markdown)
        return [markdownURL] + written
    }

    /// Each chart, then the heat map, as `<baseName>-<fileStem>.svg` (sanitized; a repeated
    /// stem gets `-2`, `-3` so no picture overwrites another).
    private func pictures(_ report: Report) -> [(title: String, name: String, content: String)] {
        var result: [(title: String, name: String, content: String)] = []
        var names = Set<String>()
        func add(_ title: String, _ stem: String, _ content: String) {
            var name = OutputFiles.fileName(report.baseName + "-" + stem, extension: "svg")
            var attempt = 2
            while names.contains(name) {
                name = OutputFiles.fileName(report.baseName + "-" + stem + "-\(attempt)", extension: "svg")
                attempt += 1
            }
            names.insert(name)
            result.append((title, name, content))
        }
        // A chart of one point is a sentence instead (`ChartSinglePoint`): a lone dot is not a chart.
        for chart in report.charts where ChartSinglePoint.sentence(for: chart, in: report) == nil {
            add(chart.title, chart.fileStem, SVGCharts.render(chart, in: report))
        }
        if let heatMap = report.heatMap { add(heatMap.title, heatMap.fileStem, SVGCharts.render(heatMap)) }
        return result
    }
}
