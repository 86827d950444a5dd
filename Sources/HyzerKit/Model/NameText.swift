import Foundation

/// Course and player names are text people read on a phone and a watch, never commands to a
/// terminal or a renderer: one rule for every way a name comes in (the command line, course
/// files, the cloud), and one form names are compared in to catch look-alikes.
public enum NameText {
    public static let maxCharacters = 64

    /// The names of one round as a narrow place shows them (the phone's pill, a watch row with no
    /// room for the whole name): first names, as the spec writes the pill ("1. Jake -2"); two
    /// sharing a first name get their last initial ("Sam K.", "Sam L."); the whole name where that
    /// is not enough either. In the order given.
    public static func shortNames(_ names: [String]) -> [String] {
        func words(_ name: String) -> [Substring] { name.split(separator: " ") }
        func first(_ name: String) -> String { words(name).first.map(String.init) ?? name }
        func initialed(_ name: String) -> String {
            let parts = words(name)
            guard parts.count > 1, let initial = parts.last?.first else { return name }
            return "\(parts[0]) \(initial)."
        }
        func unique(_ form: (String) -> String, _ name: String) -> Bool { names.filter { form($0) == form(name) }.count == 1 }
        return names.map { unique(first, $0) ? first($0) : unique(initialed, $0) ? initialed($0) : $0 }
    }

    /// Which of `names` a watch's wearer (`--wearer NAME`, the hello's `wearer`) is: the name
    /// itself in any case, else the one player whose first name it is ("Holyn" for Holyn Handley;
    /// nobody when two share it). The watch and the phone read it alike, so the face and the
    /// complications the phone sends name the same player.
    public static func wearerIndex(_ wearer: String, in names: [String]) -> Int? {
        let wanted = wearer.trimmingCharacters(in: .whitespaces).lowercased()
        if let exact = names.firstIndex(where: { $0.lowercased() == wanted }) { return exact }
        let byFirstName = names.indices.filter { names[$0].split(separator: " ").first?.lowercased() == wanted }
        return byFirstName.count == 1 ? byFirstName[0] : nil
    }

    /// Why `name` (already trimmed) cannot be a course or player name, or nil.
    public static func problem(_ name: String) -> String? {
        guard name.contains(where: { $0.isLetter || $0.isNumber }) else { return "a name needs at least one letter or digit" }
        guard name.count <= maxCharacters else { return "a name is at most \(maxCharacters) characters (\(name.count) given)" }
        for scalar in name.unicodeScalars {
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            switch scalar.properties.generalCategory {
            case .control:
                return "a name may not hold control characters (tabs, line breaks, terminal escapes; \(code))"
            case .format:
                return "a name may not hold invisible formatting characters (\(code): direction overrides, zero-width spaces and the like)"
            case .lineSeparator, .paragraphSeparator:
                return "a name may not hold line breaks (\(code))"
            case .spaceSeparator where scalar != " ":
                return "a name may hold only plain spaces (\(code) looks like one but is not)"
            default:
                if isHidden(scalar) { return "a name may not hold invisible or private characters (\(code))" }
            }
        }
        return nil
    }

    /// Whether `text` holds a character that draws nothing or rearranges what follows (`isHidden`).
    public static func hasHiddenCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isHidden)
    }

    /// Drawn as nothing, or as a blank that is not a space: Unicode's default-ignorable code
    /// points (format characters, variation selectors, the combining grapheme joiner, Hangul
    /// fillers), control and separator characters, spaces other than U+0020, the blank braille
    /// pattern, and private-use or unassigned code points (no two devices draw them alike).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties, category = properties.generalCategory
        return properties.isDefaultIgnorableCodePoint
            || [.control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate].contains(category)
            || (category == .spaceSeparator && scalar != " ") || scalar.value == 0x2800
    }

    /// `name` safe to print in a message: what `problem` refuses written as `\u{…}`, so a refused
    /// name never reaches a terminal as the escape sequence it may be.
    public static func shown(_ name: String) -> String {
        name.unicodeScalars.map { isHidden($0) ? "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" : String($0) }.joined()
    }

    /// The form two names are compared in: compatibility forms folded (full-width letters,
    /// ligatures), case and accents ignored, curly apostrophes and typographic dashes as the
    /// keyboard's, runs of spaces as one. Two names with the same skeleton read alike (and a
    /// voice line cannot tell them apart): "Maple Hill" and "ＭＡＰＬＥ  hill" are one name, and
    /// so are "José Núñez" and "Jose Nunez", "Sean O’Brien" and "Sean O'Brien".
    public static func skeleton(_ name: String) -> String {
        let plain = String(folded(name.precomposedStringWithCompatibilityMapping).unicodeScalars.map { scalar -> Character in
            if apostrophes.contains(scalar) { return "'" }
            if dashes.contains(scalar) { return "-" }
            return Character(scalar)
        })
        return plain.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static let apostrophes: Set<Unicode.Scalar> = ["\u{2018}", "\u{2019}", "\u{201B}", "\u{02BC}", "\u{02B9}", "\u{0060}", "\u{00B4}", "\u{2032}"]
    private static let dashes: Set<Unicode.Scalar> = ["\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}"]

    /// The order players with equal scores are listed in (seeds/000, 3.8: alphabetical by name):
    /// case and accents ignored, so "Émile" comes after "Eagle" and "Çelik" before "García".
    /// An ASCII name only needs lowercasing (most names; standings are ranked at every score).
    public static func sortKey(_ name: String) -> String {
        name.utf8.allSatisfy { $0 < 0x80 } ? name.lowercased() : folded(name)
    }

    /// `text` lowercased with its accents taken off ("Émile" → "emile", "Łukasz" → "lukasz"): how
    /// names compare when they are sorted, matched to a voice line, or checked for look-alikes.
    public static func folded(_ text: String) -> String {
        let plain = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        guard plain.unicodeScalars.contains(where: { unaccented[$0] != nil }) else { return plain }
        return String(String.UnicodeScalarView(plain.unicodeScalars.flatMap { unaccented[$0]?.unicodeScalars.map { $0 } ?? [$0] }))
    }

    /// Letters whose stroke or bar Unicode does not take off as an accent (they do not decompose),
    /// and the joined and old letters a voice line spells out: "Søren" reads as "Soren", "Þór" as
    /// "Thor".
    private static let unaccented: [Unicode.Scalar: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t", "ƀ": "b", "ɨ": "i", "ƶ": "z", "ı": "i",
        "æ": "ae", "œ": "oe", "þ": "th",
    ]
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
