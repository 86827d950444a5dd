import Foundation
import HyzerKit

/// Matches a heard or typed name to a round's players (seeds/001, "Voice-specific consistency"):
/// accept above 80 % confidence, ask "did you mean …?" from 50 % to 80 %, refuse below 50 %.
/// Confidence is 1 − edit distance / length against each player's full name, first and last
/// name, and the common short and long forms of each (`Nicknames`: Mike for Michael and back).
public struct FuzzyNameMatcher: Sendable {
    public static let acceptAbove = 0.8
    public static let suggestFrom = 0.5

    public enum Match: Equatable, Sendable {
        case clear(Player)
        case near(Player, confidence: Double)
        case ambiguous([Player])
        case none
    }

    private let candidates: [(player: Player, keys: [String])]

    public init(players: [Player]) {
        candidates = players.map { player in
            let words = Self.normalize(player.name).split(separator: " ").map(String.init)
            var keys = [Self.normalize(player.name)]
            if words.count > 1 { keys += [words[0], words[words.count - 1]] }
            keys += words.flatMap { Nicknames.forms(of: $0) }
            return (player, keys.filter { !$0.isEmpty })
        }
    }

    public func match(_ heard: String) -> Match {
        let name = Self.normalize(heard)
        guard !name.isEmpty else { return .none }
        let scored = candidates
            .map { candidate in (candidate.player, candidate.keys.map { Self.confidence(name, $0) }.max() ?? 0) }
            .sorted { $0.1 > $1.1 }
        guard let (best, confidence) = scored.first else { return .none }
        let tied = scored.filter { $0.1 == confidence }.map(\.0)
        if confidence > Self.acceptAbove {
            return tied.count > 1 ? .ambiguous(tied) : .clear(best)
        }
        if confidence >= Self.suggestFrom {
            return tied.count > 1 ? .ambiguous(tied) : .near(best, confidence: confidence)
        }
        return .none
    }

    /// Lowercased, accents folded, punctuation dropped, spaces collapsed.
    static func normalize(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        let kept = folded.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : " " }
        return String(kept).split(separator: " ").joined(separator: " ")
    }

    static func confidence(_ a: String, _ b: String) -> Double {
        let longest = max(a.count, b.count)
        guard longest > 0 else { return 0 }
        return 1 - Double(editDistance(Array(a), Array(b))) / Double(longest)
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// Short and long forms of common first names, both ways: a player named Michael is heard as
/// "Mike", one named Mike may be called "Michael" (seeds/001: "Mike matches Michael if that's
/// the display name").
enum Nicknames {
    static let groups: [[String]] = [
        ["michael", "mike", "mikey", "mick"], ["jacob", "jake"], ["samantha", "sam", "sammy"], ["samuel", "sam"],
        ["william", "will", "bill", "billy", "liam"], ["robert", "rob", "bob", "bobby"], ["richard", "rich", "rick", "dick"],
        ["james", "jim", "jimmy", "jamie"], ["joseph", "joe", "joey"], ["thomas", "tom", "tommy"], ["daniel", "dan", "danny"],
        ["matthew", "matt"], ["christopher", "chris"], ["nicholas", "nick"], ["anthony", "tony"], ["andrew", "andy", "drew"],
        ["benjamin", "ben"], ["jonathan", "jon"], ["timothy", "tim"], ["steven", "steve"], ["stephen", "steve"],
        ["edward", "ed", "eddie"], ["alexander", "alex"], ["alexandra", "alex", "lexi"], ["katherine", "kate", "katie", "kathy"],
        ["elizabeth", "liz", "beth", "lizzie"], ["jennifer", "jen", "jenny"], ["rebecca", "becca", "becky"],
        ["victoria", "vicky", "tori"], ["margaret", "maggie", "meg"], ["patricia", "pat", "patty"], ["patrick", "pat"],
        ["gregory", "greg"], ["zachary", "zach"], ["nathaniel", "nate"], ["nathan", "nate"], ["kenneth", "ken", "kenny"],
        ["ronald", "ron"], ["donald", "don"], ["charles", "charlie", "chuck"], ["susan", "sue", "suzy"],
    ]

    private static let index: [String: Set<String>] = {
        var index: [String: Set<String>] = [:]
        for group in groups { for name in group { index[name, default: []].formUnion(group) } }
        return index
    }()

    /// The other forms of `name` (lowercased), not including itself.
    static func forms(of name: String) -> [String] {
        (index[name] ?? []).subtracting([name]).sorted()
    }
}
