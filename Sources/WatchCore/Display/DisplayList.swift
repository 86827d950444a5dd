/// A point on the face, in pixels from the top-left corner.
public struct Point: Sendable, Hashable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

public struct Rect: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }

    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
}

/// The typefaces the face uses: DejaVu Sans stands in for SF Pro Rounded, DejaVu Sans Mono for SF Mono.
public struct FontSpec: Sendable, Hashable {
    public enum Family: String, Sendable, Hashable, CaseIterable {
        case sans, sansBold, monoBold
    }

    public var family: Family
    public var size: Double

    public init(_ family: Family, _ size: Double) {
        self.family = family
        self.size = size
    }
}

public enum TextAlignment: Sendable, Hashable { case leading, center, trailing }

/// One thing to draw. The SDL host draws these in order and knows nothing else about the watch.
public enum DrawCommand: Sendable, Hashable {
    case rect(Rect, RGBA, cornerRadius: Double)
    /// Text laid out in `frame`: vertically centred, aligned horizontally, already truncated to fit.
    case text(String, frame: Rect, font: FontSpec, color: RGBA, alignment: TextAlignment)
    /// A ring of `thickness` inside `frame` (the visible haptic pulse).
    case ring(Rect, RGBA, thickness: Double, cornerRadius: Double)
}

/// Everything on one frame of the face.
public struct DisplayList: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var background: RGBA
    public var commands: [DrawCommand]

    public init(width: Double, height: Double, background: RGBA, commands: [DrawCommand] = []) {
        self.width = width
        self.height = height
        self.background = background
        self.commands = commands
    }

    /// The strings on this frame, in drawing order (what `expect-text` looks for).
    public var texts: [String] {
        commands.compactMap { if case .text(let text, _, _, _, _) = $0 { return text } else { return nil } }
    }

    public func containsText(_ needle: String) -> Bool {
        texts.contains { $0.contains(needle) } || texts.joined(separator: " ").contains(needle)
    }
}

/// Measures text in a font, so layout can truncate names to fit. The SDL host measures with
/// SDL2_ttf; without a window (tests, the bench) `TextMeasurer.estimate` stands in.
public struct TextMeasurer: Sendable {
    public let width: @Sendable (String, FontSpec) -> Double

    public init(width: @escaping @Sendable (String, FontSpec) -> Double) { self.width = width }

    /// DejaVu's average advance: about 0.6 of the size for Sans Bold and Mono, 0.55 for Sans.
    public static let estimate = TextMeasurer { text, font in
        Double(text.count) * font.size * (font.family == .sans ? 0.55 : 0.6)
    }

    /// `text`, or its longest prefix with "…" that fits in `maxWidth`.
    public func truncate(_ text: String, font: FontSpec, toFit maxWidth: Double) -> String {
        guard width(text, font) > maxWidth else { return text }
        let characters = Array(text)
        var low = 0, high = characters.count
        while low < high {
            let mid = (low + high + 1) / 2
            let candidate = String(characters[..<mid]).trimmingTrailingSpaces() + "…"
            if width(candidate, font) <= maxWidth { low = mid } else { high = mid - 1 }
        }
        return low == 0 ? "…" : String(characters[..<low]).trimmingTrailingSpaces() + "…"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
