import HyzerKit

/// A point on the face, in pixels from the top-left corner.
public struct Point: Sendable, Hashable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

public struct Rect: Sendable, Hashable, Codable {
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

    /// The part of this rectangle inside `other` (zero height when they do not meet).
    public func clipped(to other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
}

/// One element of the face as VoiceOver sees it: what it is, what it says, where it is. The face's
/// tree (`DisplayList.accessibility`) lists them in the order VoiceOver reads them.
public struct AccessibilityElement: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Hashable, Codable {
        /// The whole face (the root).
        case screen
        /// A title or the hole indicator.
        case heading
        /// A scrollable list; its children are rows.
        case list
        /// One player's row (leaderboard, voice overlay): a button that opens score input.
        case row
        case button
        /// A value the crown changes (the score being entered).
        case adjustable
        /// Status: the phone, staleness, pending scores, banners.
        case status
        case text
        /// The text line the voice key opens.
        case textField
    }

    public var role: Role
    public var label: String
    public var value: String?
    /// What a double tap (or the crown) does, as VoiceOver says it after a pause.
    public var hint: String?
    /// In face pixels (2 per point), clipped to what is on screen.
    public var frame: Rect
    /// True for a row only partly on screen (one sliding in or out under the header or footer).
    public var partial: Bool
    public var children: [AccessibilityElement]

    public init(_ role: Role, label: String, value: String? = nil, hint: String? = nil, frame: Rect, partial: Bool = false,
                children: [AccessibilityElement] = []) {
        self.role = role
        self.label = label
        self.value = value
        self.hint = hint
        self.frame = frame
        self.partial = partial
        self.children = children
    }

    enum CodingKeys: String, CodingKey { case role, label, value, hint, frame, partial, children }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(role, forKey: .role)
        try container.encode(label, forKey: .label)
        try container.encode(value, forKey: .value)  // null when there is none: every element has the same keys
        try container.encode(hint, forKey: .hint)
        try container.encode(frame, forKey: .frame)
        try container.encode(partial, forKey: .partial)
        try container.encode(children, forKey: .children)
    }

    /// Every element under this one (itself first), in reading order.
    public var flattened: [AccessibilityElement] { [self] + children.flatMap(\.flattened) }

    /// What VoiceOver would say for this element alone: "label, value".
    public var spoken: String { [label, value].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ") }
}

/// The typefaces the face uses: DejaVu Sans stands in for SF Pro Rounded, DejaVu Sans Mono for SF
/// Mono, and DejaVu Sans Condensed Bold for the leaderboard's names (DejaVu Sans is 20–25 % wider
/// than SF Compact; the condensed cut is close to it, so names keep their length).
public struct FontSpec: Sendable, Hashable {
    public enum Family: String, Sendable, Hashable, CaseIterable {
        case sans, sansBold, sansCondensedBold, monoBold
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
    /// Part of a circular band `thickness` wide inside the circle that fits `frame`: from the top,
    /// clockwise, `fraction` (0…1) of the turn (a circular complication's gauge).
    case arc(Rect, RGBA, thickness: Double, fraction: Double)
}

/// Everything on one frame of the face.
public struct DisplayList: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var background: RGBA
    public var commands: [DrawCommand]
    /// What is on this frame for VoiceOver, in reading order (`dump FILE.json` writes it).
    public var accessibility: AccessibilityElement

    public init(width: Double, height: Double, background: RGBA, commands: [DrawCommand] = []) {
        self.width = width
        self.height = height
        self.background = background
        self.commands = commands
        accessibility = AccessibilityElement(.screen, label: "", frame: Rect(x: 0, y: 0, width: width, height: height))
    }

    /// Adds an element to the root, after those already there.
    mutating func addElement(_ element: AccessibilityElement) {
        accessibility.children.append(element)
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

    /// DejaVu's own advances (thousandths of the size) for printable ASCII, read from the fonts the
    /// watch draws with (`hmtx`), so a layout checked without a window fits on the watch too: an
    /// average of 0.6 for Sans Bold let "13" and "+20" fit side by side here and overlap there
    /// (digits are 0.696 and "+" 0.838). A wide character (CJK, which a fallback font draws a
    /// square em wide) is a whole size; "…", "−" and "·" are measured as the ASCII character of
    /// about their width, any other character as an "o".
    public static let estimate = TextMeasurer { text, font in
        let table: [Int]? = switch font.family {
        case .sans: DejaVuAdvances.sans
        case .sansBold: DejaVuAdvances.sansBold
        case .sansCondensedBold: DejaVuAdvances.sansCondensedBold
        case .monoBold: nil  // every character 0.602
        }
        func advance(_ scalar: Unicode.Scalar) -> Int {
            if scalar.properties.isIdeographic || (0x3040...0x30FF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value) { return 1000 }
            guard let table else { return 602 }
            let measured: Unicode.Scalar = switch scalar {
            case " "..."~": scalar
            case "\u{2026}": "m"
            case "\u{2212}": "+"
            case "\u{B7}": ":"
            default: "o"
            }
            return table[Int(measured.value) - 0x20]
        }
        return text.unicodeScalars.reduce(0) { width, scalar in width + font.size * Double(advance(scalar)) / 1000 }
    }

    /// `text` in at most `maxLines` lines of `maxWidth`, broken between words (a word wider than
    /// a line is cut); the last line ends with "…" when the text does not fit. A message wraps
    /// rather than losing its end ("No standings…").
    public func wrap(_ text: String, font: FontSpec, toFit maxWidth: Double, maxLines: Int) -> [String] {
        var lines: [String] = []
        var rest = text.split(separator: " ").map(String.init)
        while !rest.isEmpty {
            guard lines.count < maxLines - 1 else {
                // The last line cut short keeps a score it ends with ("José N… won, -12", not
                // "José Núñez won, -…"): the score is what the line is for.
                let text = rest.joined(separator: " ")
                let keep = rest.count > 1 && rest.last.map(Self.isScore) == true ? text.lastIndex(of: " ") : nil
                lines.append(truncate(text, keepingFrom: keep, font: font, toFit: maxWidth))
                break
            }
            var count = 1
            while count < rest.count, width(rest[..<(count + 1)].joined(separator: " "), font) <= maxWidth { count += 1 }
            lines.append(truncate(rest[..<count].joined(separator: " "), font: font, toFit: maxWidth))
            rest.removeFirst(count)
        }
        return lines
    }

    /// "-12", "+3", "E", "4": a score or strokes, as a line ends with them.
    public static func isScore<Word: StringProtocol>(_ word: Word) -> Bool {
        word == "E" || word.drop(while: { $0 == "+" || $0 == "-" }).allSatisfy(\.isNumber) && word.contains(where: \.isNumber)
    }

    /// `text` within `maxWidth`, cut before `keep` rather than at its end: what comes from `keep`
    /// on (a score, a hole) stays whole, and what comes before it is shortened with "…". Without
    /// `keep`, `truncate(_:font:toFit:)`.
    public func truncate(_ text: String, keepingFrom keep: String.Index?, font: FontSpec, toFit maxWidth: Double) -> String {
        guard width(text, font) > maxWidth, let keep else { return truncate(text, font: font, toFit: maxWidth) }
        let kept = String(text[keep...])
        return truncate(String(text[..<keep]), font: font, toFit: maxWidth - width(kept, font)) + kept
    }

    /// `text`, or its longest prefix with "…" that fits in `maxWidth`.
    /// The first of `forms` (a text and its shorter forms, longest first) that fits; the last
    /// cut with "…" when none does.
    public func firstFitting(_ forms: [String], font: FontSpec, toFit maxWidth: Double) -> String {
        forms.first { width($0, font) <= maxWidth } ?? truncate(forms.last ?? "", font: font, toFit: maxWidth)
    }

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

/// DejaVu's advance widths for U+0020…U+007E in thousandths of an em, from the fonts' `hmtx`
/// tables (DejaVu Sans 2.37): what `TextMeasurer.estimate` measures with.
enum DejaVuAdvances {
    static let sans = [
        318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636,
        636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632,
        575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685,
        611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579,
        278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
    ]
    static let sansBold = [
        348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696,
        696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683,
        683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771,
        724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665,
        343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
    ]
    static let sansCondensedBold = [
        313, 410, 469, 754, 626, 901, 785, 275, 411, 411, 470, 754, 342, 374, 342, 329, 626, 626, 626,
        626, 626, 626, 626, 626, 626, 626, 360, 360, 754, 754, 754, 522, 900, 696, 686, 660, 747, 615,
        615, 738, 753, 334, 334, 697, 573, 896, 753, 765, 659, 765, 693, 648, 614, 730, 696, 993, 694,
        651, 652, 411, 329, 411, 754, 450, 450, 607, 644, 533, 644, 610, 391, 644, 641, 308, 308, 598,
        308, 938, 641, 618, 644, 644, 444, 536, 430, 641, 586, 831, 580, 586, 523, 641, 329, 641, 754,
    ]
}
