import Foundation

/// The words and figures people read: "E", "+3", "-2", "T2", "Hole 7 of 18", "2m ago".
public enum ScoreFormat {
    /// "E" for even, "+3" over, "-2" under.
    public static func relativeToPar(_ value: Int) -> String {
        value == 0 ? "E" : value > 0 ? "+\(value)" : "\(value)"
    }

    /// "1", "T2" for a shared position, "" for a player with no holes yet.
    public static func position(_ position: Int?, tied: Bool) -> String {
        guard let position else { return "" }
        return tied ? "T\(position)" : "\(position)"
    }

    public static func position(of standing: Standing) -> String {
        position(standing.position, tied: standing.tied)
    }

    /// "2nd", or "T2" when shared: a place said in a line of text (the watch face, the round's end).
    public static func place(_ position: Int, tied: Bool) -> String { tied ? "T\(position)" : ordinal(position) }

    /// "1st", "2nd", "3rd", "4th", "11th", "22nd".
    public static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }

    /// "Hole 7 of 18".
    public static func holeProgress(current: Int, of holeCount: Int) -> String {
        "Hole \(current) of \(holeCount)"
    }

    /// "just now" (under 10 s: "1s ago" beside "just now" read as two different things),
    /// "12s ago", "2m ago", "1h ago", "3d ago"; a negative age (clock skew) reads "just now".
    public static func relativeAge(seconds: Double) -> String {
        guard seconds >= 10 else { return "just now" }
        let whole = Int(seconds.rounded(.down))
        switch whole {
        case ..<60: return "\(whole)s ago"
        case ..<3600: return "\(whole / 60)m ago"
        case ..<86_400: return "\(whole / 3600)h ago"
        default: return "\(whole / 86_400)d ago"
        }
    }

    /// "31 seconds ago", "2 minutes ago", "1 hour ago": an age read aloud.
    public static func spokenAge(seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded(.down))
        func unit(_ n: Int, _ name: String) -> String { "\(ListText.count(n, name)) ago" }
        switch whole {
        case ..<1: return "just now"
        case ..<60: return unit(whole, "second")
        case ..<3600: return unit(whole / 60, "minute")
        case ..<86_400: return unit(whole / 3600, "hour")
        default: return unit(whole / 86_400, "day")
        }
    }

    public static func relativeAge(from then: Date, to now: Date) -> String {
        relativeAge(seconds: now.timeIntervalSince(then))
    }

    /// "minus two", "even", "plus three": for spoken announcements.
    public static func spokenRelativeToPar(_ value: Int) -> String {
        value == 0 ? "even" : value > 0 ? "plus \(spokenNumber(value))" : "minus \(spokenNumber(-value))"
    }

    /// Number words up to twenty, digits beyond.
    public static func spokenNumber(_ value: Int) -> String {
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                     "nineteen", "twenty"]
        return words.indices.contains(value) ? words[value] : "\(value)"
    }

    /// "first", "second", … "eleventh", "twenty-first", "hundred and second": spoken positions.
    public static func spokenOrdinal(_ value: Int) -> String {
        let small = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                     "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
                     "nineteenth"]
        let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        let tensOrdinal = ["", "", "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"]
        switch value {
        case ..<0: return "\(value)th"
        case 0..<20: return small[value]
        case 20..<100:
            let (t, u) = value.quotientAndRemainder(dividingBy: 10)
            return u == 0 ? tensOrdinal[t] : "\(tens[t])-\(small[u])"
        case 100..<1000:
            let (h, rest) = value.quotientAndRemainder(dividingBy: 100)
            let hundred = h == 1 ? "hundred" : "\(spokenNumber(h)) hundred"
            return rest == 0 ? hundred + "th" : "\(hundred) and \(spokenOrdinal(rest))"
        default: return "\(value)th"
        }
    }

    /// "one under par", "par", "two over par": one hole's score against its par, spoken.
    public static func spokenHoleRelative(_ value: Int) -> String {
        value == 0 ? "par" : value < 0 ? "\(spokenNumber(-value)) under par" : "\(spokenNumber(value)) over par"
    }
}
