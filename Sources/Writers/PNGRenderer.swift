import CRSVG
#if canImport(Glibc)
import Glibc
#endif

/// A PNG picture of an SVG chart, for chat apps and mail clients that show PNG but not SVG.
///
/// The only code that touches librsvg and cairo (Debian's `librsvg2-dev`, the renderer GNOME
/// uses): a real SVG renderer rather than a hand-written rasteriser, so text, paths and opacity
/// come out as a browser draws them. Rendered at twice the SVG's size, on white, for sharp
/// pictures on high-density screens.
public enum PNGRenderer {
    public static let scale = 2.0

    public struct RenderError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { "cannot draw the chart as PNG: " + message }
    }

    /// The PNG bytes of `svg` (a whole SVG document).
    public static func png(fromSVG svg: String) throws -> [UInt8] {
        var buffer = report_png_buffer(data: nil, length: 0, capacity: 0)
        defer { free(buffer.data) }
        var message = [CChar](repeating: 0, count: 512)
        var text = svg
        let code = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                report_rsvg_render_png(
                    characters.baseAddress, characters.count, scale,
                    Double(SVGCharts.width), Double(SVGCharts.height),
                    &buffer, &message, message.count)
            }
        }
        guard code == 0, let data = buffer.data else {
            let nul = message.firstIndex(of: 0) ?? message.count
            throw RenderError(message: String(decoding: message[..<nul].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }
}
