/// How a name sounds, as a short consonant key: "Sarah" and "Sara" are both `SR`, "Holyn" and
/// "Holin" `HLN`, "Michael" and "Micheal" `MXL`, "Stephen" and "Steven" `STFN`.
///
/// A Metaphone-style reduction for English given names: silent letters dropped, letters that
/// sound alike folded together (ph → F, v → F, ck → K, soft c → S, soft g → J), vowels kept only
/// at the start (as `A`, so "Evan" and "Ivan" share a key but "Ethan" and "Nathan" do not), y and w
/// counted as vowels except before a vowel at the start, doubled sounds written once. A
/// recognizer that heard a name right but spelled it its own way produces the same key.
public enum NameSound {
    /// The key of one word or several (each word's key, space-separated).
    public static func key(_ text: String) -> String {
        text.split(separator: " ").map { word(Array($0.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic && $0.isASCII }.map(Character.init))) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The cost of turning key `a` into key `b`: 1 per inserted, deleted or changed sound, 0.5
    /// for a change between sounds a recognizer confuses (S/X as in Sean/Shawn, K/X, T/θ, F/θ,
    /// B/P, J/X).
    public static func distance(_ a: String, _ b: String) -> Double {
        EditDistance.between(Array(a), Array(b)) { x, y in x == y ? 0 : alike(x, y) ? 0.5 : 1 }
    }

    private static let alikePairs: Set<String> = ["SX", "XS", "KX", "XK", "T0", "0T", "F0", "0F", "BP", "PB", "JX", "XJ"]

    static func alike(_ a: Character, _ b: Character) -> Bool { alikePairs.contains(String([a, b])) }

    private static let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y"]

    /// The key of one lowercased ASCII word.
    static func word(_ letters: [Character]) -> String {
        var w = letters
        guard !w.isEmpty else { return "" }
        // Silent first letters and initial spellings of one sound.
        let start = String(w.prefix(2))
        if ["kn", "gn", "pn", "wr", "ps"].contains(start) { w.removeFirst() }
        if w.first == "x" { w[0] = "s" }
        if start == "wh" { w.remove(at: 1) }
        func at(_ i: Int) -> Character? { i >= 0 && i < w.count ? w[i] : nil }
        func isVowel(_ i: Int) -> Bool { at(i).map { vowels.contains($0) } ?? false }

        var out: [Character] = []
        // The sound just written, nil after a vowel: "Anna" is AN, "Bob" is BB.
        var last: Character?
        func emit(_ sound: Character) {
            if last != sound { out.append(sound) }
            last = sound
        }

        var i = 0
        while i < w.count {
            let c = w[i], next = at(i + 1), after = at(i + 2)
            // A doubled letter is one sound, except cc ("Occam" is fine either way).
            if i > 0, c == w[i - 1], c != "c" { i += 1; continue }
            switch c {
            case "a", "e", "i", "o", "u":
                if i == 0 { emit("A") }
                last = nil
            case "y", "w":
                if i == 0 && isVowel(1) { emit(c == "y" ? "Y" : "W") } else if i == 0 { emit("A") }
                last = nil
            case "b":
                if !(i == w.count - 1 && at(i - 1) == "m") { emit("B") }  // "Lamb"
            case "c":
                if next == "h" {
                    // "Christopher", "Chloe": K; "Chad", "Michael": X.
                    emit(after == "r" || after == "l" || (i == 0 && after.map { !vowels.contains($0) } ?? false) ? "K" : "X")
                    i += 1
                } else if next == "i" && after == "a" {
                    emit("X")
                } else if next == "i" || next == "e" || next == "y" {
                    emit("S")
                } else if next == "k" || next == "q" {
                    emit("K")
                    i += 1
                } else {
                    emit("K")
                }
            case "d":
                if next == "g", let after, "eiy".contains(after) { emit("J"); i += 1 } else { emit("T") }
            case "g":
                if next == "h" {
                    // "Hugh", "Leigh": silent; "Ghent": K.
                    if i == 0 { emit("K") }
                    i += 1
                } else if next == "n" && (after == nil || (after == "e" && at(i + 3) == nil)) {
                    // "Sign", "Signe": silent.
                } else if let next, "eiy".contains(next) {
                    emit("J")
                } else {
                    emit("K")
                }
            case "h":
                // Sounded before a vowel when not part of ch, sh, ph, th, gh.
                if isVowel(i + 1), !(at(i - 1).map { "cspgt".contains($0) } ?? false) { emit("H") }
            case "k":
                if at(i - 1) != "c" { emit("K") }
            case "p":
                if next == "h" { emit("F"); i += 1 } else { emit("P") }
            case "q":
                emit("K")
            case "s":
                if next == "h" { emit("X"); i += 1 } else if next == "c" && after == "h" { emit("S"); emit("K"); i += 2 }
                else if next == "i" && (after == "o" || after == "a") { emit("X") } else { emit("S") }
            case "t":
                if next == "h" { emit("0"); i += 1 } else if next == "i" && (after == "o" || after == "a") { emit("X") }
                else if next == "c" && after == "h" { /* "Mitch": the ch says it */ } else { emit("T") }
            case "v":
                emit("F")
            case "x":
                emit("K"); emit("S")
            case "z":
                emit("S")
            case "j", "l", "m", "n", "r", "f":
                emit(Character(c.uppercased()))
            default:
                break
            }
            i += 1
        }
        return String(out)
    }
}
