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

    /// "Hole 7 of 18".
    public static func holeProgress(current: Int, of holeCount: Int) -> String {
        "Hole \(current) of \(holeCount)"
    }

    /// "just now", "12s ago", "2m ago", "1h ago", "3d ago"; a negative age (clock skew) reads "just now".
    public static func relativeAge(seconds: Double) -> String {
        guard seconds >= 1 else { return "just now" }
        let whole = Int(seconds.rounded(.down))
        switch whole {
        case ..<60: return "\(whole)s ago"
        case ..<3600: return "\(whole / 60)m ago"
        case ..<86_400: return "\(whole / 3600)h ago"
        default: return "\(whole / 86_400)d ago"
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

    /// "First", "Second", … for spoken positions.
    public static func spokenOrdinal(_ value: Int) -> String {
        let words = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        return words.indices.contains(value) ? words[value] : "number \(value)"
    }
}
