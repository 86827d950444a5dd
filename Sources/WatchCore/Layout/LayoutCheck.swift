import HyzerKit
import Foundation

/// What a designer checks on one frame of the face, as a function a test can sweep: text over
/// text, text outside the display's rounded rectangle, text cut through its letters by something
/// drawn over it, and controls smaller than 44 pt. Text is judged by its ink (the measured width
/// where its alignment puts it, a line's height), not by the frame it is laid out in.
public enum LayoutCheck {
    /// The display's corner radius: the face's rounded rectangle (`WatchMetrics.titleInset` keeps
    /// titles clear of it).
    public static let cornerRadius: Double = 36
    /// The smallest a control may be, in face pixels (44 pt).
    public static let minimumTarget: Double = 88

    public struct Ink: Sendable, Hashable {
        public let text: String
        public let rect: Rect
    }

    /// Where each visible text's ink is, in drawing order; text entirely covered by something
    /// opaque drawn later is not visible and not listed.
    public static func inks(_ list: DisplayList, measurer: TextMeasurer) -> [Ink] { drawn(list, measurer: measurer).map(\.ink) }

    /// The visible texts' ink with the index of the command that draws each.
    static func drawn(_ list: DisplayList, measurer: TextMeasurer) -> [(ink: Ink, index: Int)] {
        var inks: [(ink: Ink, index: Int)] = []
        for (index, command) in list.commands.enumerated() {
            guard case .text(let text, let frame, let font, let color, let alignment) = command, color.a > 0, !text.isEmpty else { continue }
            let width = measurer.width(text, font)
            let x: Double = switch alignment {
            case .leading: frame.x
            case .center: frame.x + (frame.width - width) / 2
            case .trailing: frame.x + frame.width - width
            }
            // A line's ink: from a little under the cap height above the centre to the descenders.
            let height = font.size * 1.0
            inks.append((Ink(text: text, rect: Rect(x: x, y: frame.y + (frame.height - height) / 2, width: width, height: height)), index))
        }
        return inks.filter { entry in !covers(list, after: entry.index, entry.ink.rect, wholly: true) }
    }

    /// What is wrong with this frame, one line each ("\"Jake\" overlaps \"Save\""); empty when nothing is.
    public static func problems(_ list: DisplayList, measurer: TextMeasurer) -> [String] {
        var problems: [String] = []
        let drawn = drawn(list, measurer: measurer)
        let visible = drawn.map(\.ink)
        let face = Rect(x: 0, y: 0, width: list.width, height: list.height)
        for ink in visible where !inside(ink.rect, roundedRect: face, radius: cornerRadius) {
            problems.append("\"\(ink.text)\" leaves the display at \(describe(ink.rect))")
        }
        for (i, a) in visible.enumerated() {
            for b in visible[(i + 1)...] where overlaps(a.rect, b.rect) {
                problems.append("\"\(a.text)\" overlaps \"\(b.text)\" at \(describe(a.rect.clipped(to: b.rect)))")
            }
        }
        for (ink, index) in drawn where covers(list, after: index, ink.rect, wholly: false) {
            problems.append("\"\(ink.text)\" is cut through its letters by what is drawn over it")
        }
        for element in list.accessibility.flattened where [.row, .button, .adjustable].contains(element.role) && !element.partial {
            if element.frame.height < minimumTarget - 0.5 || element.frame.width < minimumTarget - 0.5 {
                problems.append("the \(element.role.rawValue) \"\(element.label)\" is \(Int(element.frame.width))×\(Int(element.frame.height)) px, under 44 pt")
            }
        }
        return problems
    }

    /// Whether an opaque rectangle drawn after command `index` covers `rect` wholly (or, with
    /// `wholly` false, in part only: the text shows cut).
    static func covers(_ list: DisplayList, after index: Int, _ rect: Rect, wholly: Bool) -> Bool {
        for command in list.commands[(index + 1)...] {
            guard case .rect(let cover, let color, _) = command, color.a == 255 else { continue }
            let shared = rect.clipped(to: cover)
            guard shared.width > 0.5, shared.height > 0.5 else { continue }
            let whole = shared.width >= rect.width - 0.5 && shared.height >= rect.height - 0.5
            if whole == wholly { return true }
        }
        return false
    }

    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        let shared = a.clipped(to: b)
        return shared.width > 1 && shared.height > 1
    }

    /// Whether `rect` lies within `outer` with its corners rounded by `radius`.
    static func inside(_ rect: Rect, roundedRect outer: Rect, radius: Double) -> Bool {
        guard rect.x >= outer.x - 0.5, rect.y >= outer.y - 0.5, rect.x + rect.width <= outer.x + outer.width + 0.5,
              rect.y + rect.height <= outer.y + outer.height + 0.5 else { return false }
        let corners = [(rect.x, rect.y), (rect.x + rect.width, rect.y), (rect.x, rect.y + rect.height), (rect.x + rect.width, rect.y + rect.height)]
        for (x, y) in corners {
            let cx = min(max(x, outer.x + radius), outer.x + outer.width - radius)
            let cy = min(max(y, outer.y + radius), outer.y + outer.height - radius)
            if (x - cx) * (x - cx) + (y - cy) * (y - cy) > radius * radius + 1 { return false }
        }
        return true
    }

    static func describe(_ rect: Rect) -> String { "(\(Int(rect.x)), \(Int(rect.y)), \(Int(rect.width))×\(Int(rect.height)))" }

    /// The frame as an SVG picture (what a failing sweep writes beside its message): rectangles,
    /// rings and text as the painter draws them, near enough to see what is wrong.
    public static func svg(_ list: DisplayList, measurer: TextMeasurer) -> String {
        func hex(_ c: RGBA) -> String { "fill=\"\(c.hex)\" fill-opacity=\"\(Double(c.a) / 255)\"" }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(list.width))\" height=\"\(Int(list.height))\">\n"
        out += "<rect width=\"100%\" height=\"100%\" \(hex(list.background))/>\n"
        for command in list.commands {
            switch command {
            case .rect(let r, let color, let radius):
                out += "<rect x=\"\(r.x)\" y=\"\(r.y)\" width=\"\(r.width)\" height=\"\(r.height)\" rx=\"\(radius)\" \(hex(color))/>\n"
            case .ring(let r, let color, let thickness, let radius):
                out += "<rect x=\"\(r.x + thickness / 2)\" y=\"\(r.y + thickness / 2)\" width=\"\(r.width - thickness)\" height=\"\(r.height - thickness)\" rx=\"\(radius)\" fill=\"none\" stroke=\"\(color.hex)\" stroke-width=\"\(thickness)\"/>\n"
            case .arc(let r, let color, let thickness, _):
                out += "<circle cx=\"\(r.center.x)\" cy=\"\(r.center.y)\" r=\"\(min(r.width, r.height) / 2 - thickness / 2)\" fill=\"none\" stroke=\"\(color.hex)\" stroke-width=\"\(thickness)\"/>\n"
            case .text(let text, let frame, let font, let color, let alignment):
                let anchor = alignment == .leading ? "start" : alignment == .center ? "middle" : "end"
                let x = alignment == .leading ? frame.x : alignment == .center ? frame.center.x : frame.x + frame.width
                let family = font.family == .monoBold ? "DejaVu Sans Mono" : font.family == .sansCondensedBold ? "DejaVu Sans Condensed" : "DejaVu Sans"
                let weight = font.family == .sans ? "normal" : "bold"
                out += "<text x=\"\(x)\" y=\"\(frame.center.y + font.size * 0.35)\" font-family=\"\(family)\" font-weight=\"\(weight)\" font-size=\"\(font.size)\" text-anchor=\"\(anchor)\" \(hex(color))>\(escaped(text))</text>\n"
            }
        }
        return out + "</svg>\n"
    }
}
