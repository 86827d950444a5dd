import Foundation
import HyzerKit

/// What a spoken transcript ("Mike 3, Jake four, Sarah 2") says, entry by entry.
public struct VoiceParseResult: Equatable, Sendable {
    /// A name matched clearly and a score in range: safe to record.
    public struct Entry: Equatable, Sendable {
        public let heard: String
        public let player: Player
        public let strokes: Int
    }

    /// A name close to a player but not close enough to record without asking.
    public struct Suggestion: Equatable, Sendable {
        public let heard: String
        public let player: Player
        public let strokes: Int
        public let confidence: Double
    }

    /// A piece of the transcript that cannot be recorded, and why.
    public struct Problem: Equatable, Sendable {
        public let fragment: String
        public let reason: String
    }

    public var entries: [Entry] = []
    public var suggestions: [Suggestion] = []
    public var problems: [Problem] = []

    public var isComplete: Bool { suggestions.isEmpty && problems.isEmpty && !entries.isEmpty }
}

/// Turns a transcript into name + score pairs: digits and number words, names matched fuzzily
/// against the round's players. Whatever is clear is returned as entries; the rest is reported.
public enum VoiceTranscriptParser {
    static let numberWords: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
        "forty": 40, "fifty": 50,
        // What speech recognition writes for a spoken number.
        "won": 1, "too": 2, "to": 2, "for": 4, "fore": 4, "ate": 8,
    ]
    /// Words between a name and its number that carry nothing ("Jake got a 4").
    static let fillers: Set<String> = ["got", "a", "an", "had", "shot", "scored", "with", "is", "has", "made", "on"]
    static let connectors: Set<String> = ["and", "then", "also"]

    public static func parse(_ transcript: String, matcher: FuzzyNameMatcher) -> VoiceParseResult {
        var result = VoiceParseResult()
        var nameWords: [String] = []
        var named: [PlayerID: Int] = [:]

        func finishWithoutNumber() {
            let words = nameWords.filter { !fillers.contains($0.lowercased()) }
            if !words.isEmpty {
                let name = words.joined(separator: " ")
                result.problems.append(.init(fragment: name, reason: "no score heard for \"\(name)\""))
            }
            nameWords = []
        }

        func finish(with strokes: Int, spoken: String) {
            let meaningful = nameWords.filter { !fillers.contains($0.lowercased()) }
            let name = (meaningful.isEmpty ? nameWords : meaningful).joined(separator: " ")
            nameWords = []
            guard !name.isEmpty else {
                result.problems.append(.init(fragment: spoken, reason: "heard a score (\(spoken)) with no name before it"))
                return
            }
            let fragment = "\(name) \(spoken)"
            guard Strokes.allowed.contains(strokes) else {
                result.problems.append(.init(fragment: fragment, reason: ScoreError.strokesOutOfRange(strokes).description))
                return
            }
            switch matcher.match(name) {
            case .clear(let player):
                if let earlier = named[player.id] {
                    result.entries.removeAll { $0.player.id == player.id }
                    result.problems.append(.init(
                        fragment: fragment,
                        reason: "\(player.name) was named twice (\(earlier) and \(strokes)); say it again with one score"))
                } else {
                    named[player.id] = strokes
                    result.entries.append(.init(heard: name, player: player, strokes: strokes))
                }
            case .near(let player, let confidence):
                result.suggestions.append(.init(heard: name, player: player, strokes: strokes, confidence: confidence))
            case .ambiguous(let players):
                let names = players.map(\.name).joined(separator: " or ")
                result.problems.append(.init(fragment: fragment, reason: "\"\(name)\" could be \(names)"))
            case .none:
                result.problems.append(.init(fragment: fragment, reason: "\"\(name)\" is not a player in this round"))
            }
        }

        for token in tokenize(transcript) {
            switch token {
            case .separator:
                finishWithoutNumber()
            case .word(let word):
                if let value = Int(word) {
                    finish(with: value, spoken: word)
                } else if let value = numberWords[word.lowercased()], !(nameWords.isEmpty && value == 2 && word.lowercased() == "to") {
                    finish(with: value, spoken: word)
                } else if nameWords.isEmpty && connectors.contains(word.lowercased()) {
                    continue
                } else {
                    nameWords.append(word)
                }
            }
        }
        finishWithoutNumber()
        return result
    }

    enum Token: Equatable { case word(String), separator }

    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        func flush() {
            if !current.isEmpty { tokens.append(.word(current)) }
            current = ""
        }
        for character in text {
            if character == "," || character == ";" || character == "." || character == "!" || character == "?" || character == "\n" {
                flush()
                tokens.append(.separator)
            } else if character.isWhitespace {
                flush()
            } else if character.isNumber != (current.last?.isNumber ?? character.isNumber), !current.isEmpty {
                // "Mike3" is "Mike 3".
                flush()
                current.append(character)
            } else {
                current.append(character)
            }
        }
        flush()
        return tokens
    }
}
