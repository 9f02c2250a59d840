/// A small SVG builder: fixed size, escaped text, numbers with at most 2 decimals.
///
/// Output is deterministic (same calls, same bytes) and well-formed XML whatever the text: the
/// five XML specials are escaped and characters XML 1.0 forbids (control characters, U+FFFE,
/// U+FFFF) become U+FFFD, so a label taken from data can never break the file or inject markup.
struct SVGDocument {
    let width: Int
    let height: Int
    private var body: [String] = []

    init(width: Int, height: Int, title: String) {
        self.width = width
        self.height = height
        body.append("<title>\(SVGDocument.escape(title))</title>")
        body.append("<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>")
        text(title, x: Double(width) / 2, y: 28, size: 16, anchor: "middle", weight: "bold")
    }

    /// The whole document, ending with a newline.
    func rendered() -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\" font-family=\"sans-serif\">\n"
            + body.joined(separator: "\n") + "\n</svg>\n"
    }

    /// Adds raw markup built by the other methods (for `<defs>`, groups).
    mutating func raw(_ markup: String) { body.append(markup) }

    mutating func text(
        _ content: String, x: Double, y: Double, size: Double = 11, anchor: String = "start",
        weight: String? = nil, fill: String = "#333333", rotate: Double? = nil
    ) {
        var attributes =
            "x=\"\(SVGDocument.number(x))\" y=\"\(SVGDocument.number(y))\" "
            + "font-size=\"\(SVGDocument.number(size))\" text-anchor=\"\(anchor)\" fill=\"\(fill)\""
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let rotate {
            attributes +=
                " transform=\"rotate(\(SVGDocument.number(rotate)) \(SVGDocument.number(x)) "
                + "\(SVGDocument.number(y)))\""
        }
        body.append("<text \(attributes)>\(SVGDocument.escape(content))</text>")
    }

    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String,
        stroke: String? = nil, cornerRadius: Double? = nil, opacity: Double? = nil
    ) {
        var attributes =
            "x=\"\(SVGDocument.number(x))\" y=\"\(SVGDocument.number(y))\" "
            + "width=\"\(SVGDocument.number(width))\" height=\"\(SVGDocument.number(height))\" fill=\"\(fill)\""
        if let cornerRadius { attributes += " rx=\"\(SVGDocument.number(cornerRadius))\"" }
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        if let opacity { attributes += " fill-opacity=\"\(SVGDocument.number(opacity))\"" }
        body.append("<rect \(attributes)/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1) {
        body.append(
            "<line x1=\"\(SVGDocument.number(x1))\" y1=\"\(SVGDocument.number(y1))\" "
                + "x2=\"\(SVGDocument.number(x2))\" y2=\"\(SVGDocument.number(y2))\" stroke=\"\(stroke)\" "
                + "stroke-width=\"\(SVGDocument.number(width))\"/>")
    }

    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double = 2) {
        let list = points.map { SVGDocument.number($0.x) + "," + SVGDocument.number($0.y) }.joined(separator: " ")
        body.append(
            "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" "
                + "stroke-width=\"\(SVGDocument.number(width))\"/>")
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: String, stroke: String? = nil) {
        var attributes =
            "cx=\"\(SVGDocument.number(x))\" cy=\"\(SVGDocument.number(y))\" "
            + "r=\"\(SVGDocument.number(radius))\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        body.append("<circle \(attributes)/>")
    }

    mutating func path(_ data: String, fill: String, stroke: String? = nil, width: Double = 1) {
        var attributes = "d=\"\(data)\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\" stroke-width=\"\(SVGDocument.number(width))\"" }
        body.append("<path \(attributes)/>")
    }

    /// A coordinate or size: at most 2 decimals, no trailing zeros, never `-0`, `0` when not finite.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = FixedDecimal.string(value, places: 2)
        while text.hasSuffix("0") && text.contains(".") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Text safe inside an element or an attribute value.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A fixed, colour-blind-friendly series palette (Tableau 10), cycled.
    static let palette = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
        "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    ]

    static func colour(_ index: Int) -> String { palette[index % palette.count] }

    /// A document holding only its title and "No data", for a chart with nothing to draw.
    static func noData(title: String, width: Int, height: Int) -> String {
        var document = SVGDocument(width: width, height: height, title: title)
        document.text(
            "No data", x: Double(width) / 2, y: Double(height) / 2, size: 14, anchor: "middle",
            fill: "#777777")
        return document.rendered()
    }
}
