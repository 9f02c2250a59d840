import Foundation
import ReportModel

/// Writes the Markdown report of SPEC §6.3, for chat and e-mail, with its charts as SVG files.
///
/// Layout: title; scope, as-of and tool version; parameters; headline figures; then each table
/// with `.markdown` in its outputs (title, caption, its first `markdownLimit` rows as a GitHub
/// table, a line counting the rest); the charts and the heat map as linked SVG pictures; notes.
/// Empty sections are left out. Percent columns show text bars (`███████░░░  74 %`), numbers are
/// right-aligned. Output is deterministic: the same report gives the same bytes.
public struct MarkdownWriter: Sendable {
    public init() {}

    /// Which picture files the Markdown links: none (the text goes to standard output, no file
    /// is written beside it), the SVG files, or the PNG files with their SVG beside them.
    public enum PictureLinks: Sendable, Equatable { case none, svg, pngAndSVG }

    /// The Markdown text and the SVG files it links (`name` is the sanitized file name, to be
    /// written beside the `.md`), without touching the disk. `links` says which files exist:
    /// Markdown printed on standard output links none, since no file is written beside it.
    public func render(
        _ report: Report, links: PictureLinks = .svg
    )
        -> (markdown: String, svgs: [(name: String, content: String)])
    {
        var lines: [String] = []
        lines.append("# " + MarkdownText.singleLine(report.title))
        lines.append("")
        lines.append("- Scope: " + MarkdownText.singleLine(report.scope))
        lines.append(
            "- As of: " + report.asOf.description
                + (report.timeZone.map { " (" + MarkdownText.singleLine($0) + "; times in this report are local)" }
                    ?? ""))
        lines.append("- Tool version: report " + MarkdownText.singleLine(report.toolVersion))
        if !report.parameters.isEmpty {
            lines += ["", "## Parameters", "", "| Parameter | Value |", "|---|---|"]
            for parameter in report.parameters {
                lines.append(
                    "| " + MarkdownText.cell(parameter.name) + " | " + MarkdownText.cell(parameter.value) + " |")
            }
        }
        if !report.figures.isEmpty {
            lines += ["", "## Headline figures", "", "| Figure | Value |", "|---|---:|"]
            for figure in report.figures {
                lines.append(
                    "| " + MarkdownText.cell(figure.title) + " | "
                        + MarkdownText.cell(MarkdownText.display(figure.value, as: figure.type)) + " |")
            }
        }
        for table in report.tables where table.outputs.contains(.markdown) {
            lines.append("")
            lines += MarkdownTable.lines(table)
        }
        let svgs = pictures(report)
        let sentences =
            report.charts.compactMap { ChartAbsence.sentence(for: $0, in: report) }
            + [report.heatMap.flatMap(ChartAbsence.sentence(for:))].compactMap { $0 }
        if !svgs.isEmpty || !sentences.isEmpty {
            lines += ["", "## Charts"]
            switch links {
            case .none where !svgs.isEmpty:
                lines += ["", "The charts are written as PNG and SVG files when the report is saved to a folder."]
            case .none:
                break
            case .svg:
                for picture in svgs {
                    lines += ["", "![" + MarkdownText.altText(picture.title) + "](" + picture.name + ")"]
                }
            case .pngAndSVG:
                for picture in svgs {
                    // The SVG on its own line (the same paragraph), so that lines stay short.
                    lines += [
                        "",
                        "![" + MarkdownText.altText(picture.title) + "](" + MarkdownWriter.pngName(picture.name) + ")",
                        "[SVG](" + picture.name + ")",
                    ]
                }
            }
            for sentence in sentences { lines += ["", MarkdownText.singleLine(sentence)] }
        }
        if !report.notes.isEmpty {
            lines += ["", "## Notes", ""]
            lines += report.notes.flatMap { MarkdownText.wrapped("- " + MarkdownText.singleLine($0)) }
        }
        return (lines.joined(separator: "\n") + "\n", svgs.map { ($0.name, $0.content) })
    }

    /// Writes `<directory>/<sanitized baseName>.md` and its pictures beside it, each as SVG and as
    /// PNG (drawn by librsvg, for chat apps that show no SVG), each file atomically and the
    /// pictures first, so the report never links a file that is not there. If a PNG cannot be
    /// drawn, the report links the SVG files only. Returns the `.md` URL, then each picture's
    /// SVG and PNG URLs.
    public func write(_ report: Report, to directory: URL) throws -> [URL] {
        let svgs = render(report, links: .none).svgs
        var written: [URL] = []
        var pngs: [(url: URL, bytes: [UInt8])] = []
        for picture in svgs {
            let url = try OutputFiles.location(of: picture.name, in: directory)
            try OutputFiles.writeFile(at: url, contents: picture.content)
            written.append(url)
            if let bytes = try? PNGRenderer.png(fromSVG: picture.content) {
                pngs.append((try OutputFiles.location(of: MarkdownWriter.pngName(picture.name), in: directory), bytes))
            }
        }
        let allDrawn = pngs.count == svgs.count
        if allDrawn {
            for png in pngs { try OutputFiles.writeFile(at: png.url) { try $0.write(png.bytes) } }
            written = zip(written, pngs).flatMap { [$0, $1.url] }
        }
        let markdown = render(report, links: allDrawn ? .pngAndSVG : .svg).markdown
        let markdownURL = try OutputFiles.location(
            of: OutputFiles.fileName(report.baseName, extension: "md"),
            in: directory)
        try OutputFiles.writeFile(at: markdownURL, contents: markdown)
        return [markdownURL] + written
    }

    /// `fleet-salon2016-heatmap.svg` → `fleet-salon2016-heatmap.png`.
    static func pngName(_ svgName: String) -> String {
        (svgName.hasSuffix(".svg") ? String(svgName.dropLast(4)) : svgName) + ".png"
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
        // A chart with nothing to draw, or of one point, is a sentence instead (`ChartAbsence`).
        for chart in report.charts where ChartAbsence.sentence(for: chart, in: report) == nil {
            add(chart.title, chart.fileStem, SVGCharts.render(chart, in: report))
        }
        if let heatMap = report.heatMap, ChartAbsence.sentence(for: heatMap) == nil {
            add(heatMap.title, heatMap.fileStem, SVGCharts.render(heatMap))
        }
        return result
    }
}
