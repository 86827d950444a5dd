import Foundation

/// What a spoken transcript ("Mike 3, Jake four, Sarah birdie") says, item by item, in the order
/// it was said: each a name as heard, a score as heard, and what they resolved to.
public struct VoiceParseResult: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public enum Resolution: Equatable, Sendable {
            /// The name is this player (over 80 %, and well ahead of any other).
            case player(Player, NameEvidence)
            /// Probably this player (50 to 80 %): a person confirms.
            case suggestion(Player, NameEvidence)
            /// Fits these players about equally well.
            case ambiguous([Player], NameEvidence)
            /// Nobody in the round.
            case unknown
            /// No name was said for this score.
            case noName
        }

        /// The name as heard, fillers and possessive taken off ("Jake" for "um Jake's").
        public let heard: String
        /// The score as heard ("4", "four", "for", "birdie", "double bogey"); empty when none was.
        public let said: String
        /// The strokes it means on this hole; nil when no score was heard or it cannot be one.
        public let strokes: Int?
        public let resolution: Resolution
        /// Why this item cannot be recorded as it stands; nil when it can.
        public let problem: String?

        public var player: Player? { if case .player(let player, _) = resolution { player } else { nil } }

        /// The player a person would be asked about ("did you mean …?"), if exactly one.
        public var suggested: Player? { if case .suggestion(let player, _) = resolution { player } else { nil } }

        /// "Jake's 4" as said, for messages.
        public var fragment: String { [heard, said].filter { !$0.isEmpty }.joined(separator: " ") }
    }

    /// A name matched clearly and a score in range: safe to record.
    public struct Entry: Equatable, Sendable {
        public let heard: String
        public let said: String
        public let player: Player
        public let strokes: Int
        public let evidence: NameEvidence
    }

    /// A name close to a player but not close enough to record without asking.
    public struct Suggestion: Equatable, Sendable {
        public let heard: String
        public let said: String
        public let player: Player
        public let strokes: Int
        public let evidence: NameEvidence
        public var confidence: Double { evidence.confidence }
    }

    /// A piece of the transcript that cannot be recorded, and why.
    public struct Problem: Equatable, Sendable {
        public let fragment: String
        public let reason: String
    }

    public var items: [Item] = []

    public init(items: [Item] = []) { self.items = items }

    public var entries: [Entry] {
        items.compactMap { item in
            guard item.problem == nil, case .player(let player, let evidence) = item.resolution, let strokes = item.strokes else { return nil }
            return Entry(heard: item.heard, said: item.said, player: player, strokes: strokes, evidence: evidence)
        }
    }

    public var suggestions: [Suggestion] {
        items.compactMap { item in
            guard case .suggestion(let player, let evidence) = item.resolution, let strokes = item.strokes else { return nil }
            return Suggestion(heard: item.heard, said: item.said, player: player, strokes: strokes, evidence: evidence)
        }
    }

    /// Everything that is neither recordable nor a "did you mean" with a score.
    public var problems: [Problem] {
        items.compactMap { item in
            if case .suggestion = item.resolution, item.strokes != nil { return nil }
            return item.problem.map { Problem(fragment: item.fragment, reason: $0) }
        }
    }

    public var isComplete: Bool { !items.isEmpty && items.allSatisfy { $0.problem == nil } }
}

/// Turns a transcript as a speech recognizer writes it into name + score items (seeds/002, "Voice
/// Parser": tokenize → classify → assemble).
///
/// - Scores: digits, number words and what recognizers write for them ("won", "to", "too",
///   "for", "fore", "ate", "tree"); golf words relative to the hole's par ("ace", "eagle",
///   "birdie", "par", "even" / "E", "bogey", "double" / "double bogey", "triple", "one under", "two over").
///   A sound-alike word ("to", "for") is a score only after a name and not before another score:
///   "Jake for 4" is Jake 4. Strokes outside 1…10 are refused with the reason.
/// - Names: matched by `FuzzyNameMatcher`. Filler words ("um", "okay", "so", "got a", "had a",
///   "with a", "and") and possessives are not part of a name. "Mike and Jake 3" gives both 3.
/// - Corrections as people say them: "Jake 4, sorry, Jake 5" and "Jake 4, make that 5" keep 5.
///   A player named twice with different scores and no correction is refused.
public enum VoiceTranscriptParser {
    static let numberWords: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
        "forty": 40, "fifty": 50, "hundred": 100,
    ]
    /// What speech recognition writes for a spoken number: a score only after a name.
    static let soundAlikeNumbers: [String: Int] = [
        "won": 1, "to": 2, "too": 2, "tu": 2, "tree": 3, "for": 4, "fore": 4, "ate": 8,
    ]
    /// Golf words, as strokes relative to par (an ace is 1 whatever the par).
    static let golfWords: [String: Int] = [
        "albatross": -3, "condor": -4, "eagle": -2, "eagled": -2, "eagles": -2, "birdie": -1, "birdy": -1, "birdied": -1,
        "birdies": -1, "berdie": -1, "par": 0, "parred": 0, "pars": 0, "bogey": 1, "bogie": 1, "bogy": 1, "bogeyed": 1,
        "bogeys": 1, "boogie": 1,
        "double": 2, "triple": 3, "quadruple": 4, "quad": 4,
    ]
    static let aceWords: Set<String> = ["ace", "aced", "aces", "ace's"]
    /// Words around names that carry nothing ("um Jake got a 4").
    static let fillers: Set<String> = [
        "um", "umm", "uh", "uhh", "uhm", "er", "erm", "ah", "hmm", "mm", "okay", "ok", "alright", "so", "well", "like",
        "then", "also", "and", "plus", "got", "gets", "get", "getting", "a", "an", "the", "had", "has", "have",
        "shot", "shoots", "scored", "scores", "score", "with", "is", "was", "made", "makes", "took", "takes", "on", "hole",
        "put", "down", "gave", "give", "just", "carded", "cards", "card", "for", "to", "too", "of", "that's", "thats", "it's",
        "its", "both", "yeah", "yes", "right", "hey", "oh", "let's", "lets", "see",
    ]
    /// Words that take back what was just said ("sorry", "no", "make that").
    static let correctionWords: Set<String> = ["sorry", "no", "nope", "wait", "actually", "correction", "oops"]
    static let correctionPhrases: [[String]] = [["i", "mean"], ["make", "that"], ["scratch", "that"], ["change", "that", "to"], ["change", "that"]]

    /// `par` is the par of the hole being scored (for golf words; nil when unknown).
    public static func parse(_ transcript: String, players: [Player], par: Int?) -> VoiceParseResult {
        parse(transcript, matcher: FuzzyNameMatcher(players: players), par: par)
    }

    public static func parse(_ transcript: String, matcher: FuzzyNameMatcher, par: Int?) -> VoiceParseResult {
        var parser = Assembler(matcher: matcher, par: par, tokens: tokenize(transcript))
        parser.run()
        return VoiceParseResult(items: parser.items)
    }

    enum Token: Equatable { case word(String), separator }

    /// A score found at a position: what was said, how many tokens it took, what it means.
    struct ScoreWords {
        let said: String
        let consumed: Int
        let strokes: Int?
        let problem: String?
    }

    struct Assembler {
        let matcher: FuzzyNameMatcher
        let par: Int?
        let tokens: [Token]
        var items: [VoiceParseResult.Item] = []
        /// Name words heard since the last score; "&" splits "Mike and Jake".
        var nameWords: [String] = []
        /// Items made by the last score (a correction with no name re-scores them).
        var lastItems: [Int] = []
        var correcting = false

        func word(at index: Int) -> String? {
            guard index < tokens.count, case .word(let word) = tokens[index] else { return nil }
            return word.lowercased().replacingOccurrences(of: "’", with: "'")
        }

        mutating func run() {
            var index = 0
            while index < tokens.count {
                guard let word = word(at: index) else {
                    // "Nate, 3.": a pause between a name and its score does not end the name.
                    var next = index + 1
                    while next < tokens.count, word(at: next) == nil { next += 1 }
                    if !nameWords.isEmpty, next < tokens.count, score(at: next, afterName: true) != nil {
                        index = next
                        continue
                    }
                    finishWithoutScore()
                    index += 1
                    continue
                }
                if let consumed = correction(at: index) {
                    finishWithoutScore()
                    correcting = true
                    index += consumed
                    continue
                }
                let named = !nameWords.isEmpty || (correcting && !lastItems.isEmpty)
                if let score = score(at: index, afterName: named) {
                    // "Jake and Mike 3 and 4": as many scores as names, joined by "and", go in order.
                    let groups = nameGroups()
                    if groups.count > 1, let (scores, end) = scoreList(from: index, count: groups.count) {
                        nameWords = []
                        for (group, each) in zip(groups, scores) {
                            nameWords = group
                            finish(each)
                        }
                        index = end
                        continue
                    }
                    finish(score)
                    index += score.consumed
                    continue
                }
                if ["putt", "putts", "putted", "putting"].contains(word), index > 0, let before = self.word(at: index - 1),
                   Int(before) != nil || VoiceTranscriptParser.numberWords[before] != nil || VoiceTranscriptParser.soundAlikeNumbers[before] != nil {
                    // "three putt": the number before it was not a name word either.
                    if case .word(let original) = tokens[index - 1], nameWords.last == original { nameWords.removeLast() }
                    index += 1
                    continue
                }
                if VoiceTranscriptParser.fillers.contains(word) || VoiceTranscriptParser.soundAlikeNumbers[word] != nil {
                    if (word == "and" || word == "plus") && !nameWords.isEmpty && nameWords.last != "&" { nameWords.append("&") }
                } else if word == "&" {
                    if !nameWords.isEmpty { nameWords.append("&") }
                } else if case .word(let original) = tokens[index] {
                    nameWords.append(original)
                }
                index += 1
            }
            finishWithoutScore()
        }

        /// `count` scores from `index` joined by "and" ("3 and 4"), and where they end; nil otherwise.
        func scoreList(from index: Int, count: Int) -> ([ScoreWords], Int)? {
            var scores: [ScoreWords] = [], at = index
            while scores.count < count {
                guard let score = score(at: at, afterName: true) else { return nil }
                scores.append(score)
                at += score.consumed
                if scores.count < count {
                    guard let joiner = word(at: at), joiner == "and" || joiner == "&" else { return nil }
                    at += 1
                }
            }
            return (scores, at)
        }

        /// How many tokens a correction marker at `index` takes, if there is one.
        func correction(at index: Int) -> Int? {
            guard let word = word(at: index) else { return nil }
            // "no" before a name is a correction; "No 4" after a name is too.
            if VoiceTranscriptParser.correctionWords.contains(word) { return 1 }
            for phrase in VoiceTranscriptParser.correctionPhrases
            where phrase.indices.allSatisfy({ self.word(at: index + $0) == phrase[$0] }) { return phrase.count }
            return nil
        }

        /// The score starting at `index`, if one does.
        func score(at index: Int, afterName: Bool) -> ScoreWords? {
            guard let word = word(at: index) else { return nil }
            let next = self.word(at: index + 1)
            if word.contains("."), Double(word) != nil {
                return ScoreWords(said: word, consumed: 1, strokes: nil, problem: "\(word) is not a whole number of strokes")
            }
            // "-1", "+2", "minus one", "plus two": strokes against the hole's par.
            if (word.hasPrefix("-") || word.hasPrefix("+")), let value = Int(word) {
                return golf(value, said: word, consumed: 1)
            }
            if afterName, word == "minus" || word == "plus", let next, let value = Int(next) ?? VoiceTranscriptParser.numberWords[next] {
                return golf(word == "minus" ? -value : value, said: "\(word) \(next)", consumed: 2)
            }
            // "three putt" describes the hole; it is not the score.
            if let next, ["putt", "putts", "putted", "putting"].contains(next),
               Int(word) != nil || VoiceTranscriptParser.numberWords[word] != nil || VoiceTranscriptParser.soundAlikeNumbers[word] != nil {
                return nil
            }
            if let value = Int(word) ?? VoiceTranscriptParser.numberWords[word] {
                return relative(value, said: word, at: index) ?? strokes(value, said: word, consumed: 1)
            }
            // "for a 5": "for" is not 4 when "a" and a score follow.
            let aScoreFollows = (next == "a" || next == "an") && self.word(at: index + 2).map { isScoreWord($0, at: index + 2) } == true
            if let value = VoiceTranscriptParser.soundAlikeNumbers[word], afterName, !aScoreFollows,
               next.map({ !isScoreWord($0, at: index + 1) }) ?? true {
                return relative(value, said: word, at: index) ?? strokes(value, said: word, consumed: 1)
            }
            // Golf words are scores after a name: "Eagle 3" is a player called Eagle.
            guard afterName else { return nil }
            if VoiceTranscriptParser.aceWords.contains(word) { return strokes(1, said: word, consumed: 1) }
            if word == "hole", next == "in", self.word(at: index + 2) == "one" { return strokes(1, said: "hole in one", consumed: 3) }
            if word == "even", next == "par" { return golf(0, said: "even par", consumed: 2) }
            // "even" alone, and "E" as the standings print par.
            if word == "even" || word == "e" { return golf(0, said: word == "e" ? "E" : "even", consumed: 1) }
            if var offset = VoiceTranscriptParser.golfWords[word] {
                var said = word, consumed = 1
                if ["double", "triple", "quadruple", "quad"].contains(word), let next {
                    if ["bogey", "bogie", "bogy", "bogeys"].contains(next) { said += " \(next)"; consumed = 2 }
                    else if next == "eagle" { said += " eagle"; consumed = 2; offset = -3 }
                }
                return golf(offset, said: said, consumed: consumed)
            }
            return nil
        }

        func isScoreWord(_ word: String, at index: Int) -> Bool {
            Int(word) != nil || VoiceTranscriptParser.numberWords[word] != nil || VoiceTranscriptParser.golfWords[word] != nil
                || VoiceTranscriptParser.aceWords.contains(word)
        }

        /// "one under", "two over (par)".
        func relative(_ value: Int, said: String, at index: Int) -> ScoreWords? {
            guard let direction = word(at: index + 1), direction == "under" || direction == "over" else { return nil }
            let withPar = word(at: index + 2) == "par"
            return golf(direction == "under" ? -value : value, said: "\(said) \(direction)\(withPar ? " par" : "")", consumed: withPar ? 3 : 2)
        }

        func golf(_ offset: Int, said: String, consumed: Int) -> ScoreWords {
            guard let par else {
                return ScoreWords(said: said, consumed: consumed, strokes: nil,
                                  problem: "\"\(said)\" needs the hole's par, which is not known here; say the strokes as a number")
            }
            let strokes = par + offset
            guard Strokes.allowed.contains(strokes) else {
                return ScoreWords(said: said, consumed: consumed, strokes: nil,
                                  problem: "\"\(said)\" on a par \(par) would be \(strokes) strokes, and strokes are 1 to 10")
            }
            return ScoreWords(said: said, consumed: consumed, strokes: strokes, problem: nil)
        }

        func strokes(_ value: Int, said: String, consumed: Int) -> ScoreWords {
            guard Strokes.allowed.contains(value) else {
                // The one message every input path gives (DOMAIN.md), mid-sentence here.
                let message = ScoreError.strokesOutOfRange(value).description
                return ScoreWords(said: said, consumed: consumed, strokes: nil, problem: message.prefix(1).lowercased() + message.dropFirst().dropLast())
            }
            return ScoreWords(said: said, consumed: consumed, strokes: value, problem: nil)
        }

        /// Names heard with no score before a pause: each is an item with no score.
        mutating func finishWithoutScore() {
            let groups = nameGroups()
            nameWords = []
            for group in groups {
                let heard = group.joined(separator: " ")
                let resolution = resolve(heard)
                let problem: String = switch resolution {
                case .unknown: "\"\(heard)\" is not a player in this round, and no score was heard"
                case .ambiguous(let players, _): "no score heard for \"\(heard)\" (which could be \(ListText.joined(players.map(\.name), conjunction: "or")))"
                case .suggestion(let player, _): "no score heard for \"\(heard)\" (did you mean \(player.name)?)"
                case .player, .noName: "no score heard for \"\(heard)\""
                }
                append(VoiceParseResult.Item(heard: heard, said: "", strokes: nil, resolution: resolution, problem: problem))
            }
        }

        func nameGroups() -> [[String]] {
            nameWords.split(separator: "&").map(Array.init).filter { !$0.isEmpty }
        }

        mutating func finish(_ score: ScoreWords) {
            let groups = nameGroups()
            nameWords = []
            defer { correcting = false }
            if groups.isEmpty {
                if correcting, !lastItems.isEmpty {
                    // "Jake 4, make that 5": the last score said again.
                    for index in lastItems {
                        let old = items[index]
                        items[index] = VoiceParseResult.Item(heard: old.heard, said: score.said, strokes: score.strokes,
                                                             resolution: old.resolution, problem: problem(old.resolution, old.heard, score))
                    }
                    return
                }
                items.append(VoiceParseResult.Item(heard: "", said: score.said, strokes: nil, resolution: .noName,
                                                   problem: "heard a score (\(score.said)) with no name before it"))
                lastItems = []
                return
            }
            // "Jake 4, sorry, Mike 4": the correction names someone else with a score, so the last
            // score was said for the wrong player and this one replaces it.
            if correcting, !lastItems.isEmpty, score.strokes != nil || score.problem != nil {
                let named = groups.compactMap { group -> PlayerID? in
                    if case .player(let player, _) = resolve(group.joined(separator: " ")) { return player.id } else { return nil }
                }
                if named.count == groups.count, !items.contains(where: { item in named.contains { $0 == item.player?.id } }) {
                    for index in lastItems.sorted(by: >) { items.remove(at: index) }
                }
            }
            lastItems = []
            for group in groups {
                let heard = group.joined(separator: " ")
                let resolution = resolve(heard)
                append(VoiceParseResult.Item(heard: heard, said: score.said, strokes: score.strokes, resolution: resolution,
                                             problem: problem(resolution, heard, score)))
                lastItems.append(items.count - 1)
            }
        }

        func resolve(_ heard: String) -> VoiceParseResult.Item.Resolution {
            switch matcher.match(heard) {
            case .clear(let player, let evidence): .player(player, evidence)
            case .near(let player, let evidence): .suggestion(player, evidence)
            case .ambiguous(let players, let evidence): .ambiguous(players, evidence)
            case .none: .unknown
            }
        }

        func problem(_ resolution: VoiceParseResult.Item.Resolution, _ heard: String, _ score: ScoreWords) -> String? {
            switch resolution {
            case .player(let player, _):
                return score.problem.map { "heard \"\(NameText.shown("\(heard) \(score.said)"))\" for \(player.name): \($0)" }
            case .suggestion(let player, let evidence):
                return "did you mean \(player.name)? (\"\(heard)\": \(evidence.description), \(Int((evidence.confidence * 100).rounded())) % match)"
            case .ambiguous(let players, _):
                return "\"\(heard)\" could be \(ListText.joined(players.map(\.name), conjunction: "or")): say the full name, or a last name or initial with it, or score by name (hyzer-hub score NAME \(score.strokes.map(String.init) ?? "STROKES"))"
            case .unknown: return "\"\(heard)\" is not a player in this round"
            case .noName: return "heard a score (\(score.said)) with no name before it"
            }
        }

        /// Adds an item, settling a player named twice: after a correction, or with the same
        /// score, the later one stands; otherwise neither is recorded.
        mutating func append(_ item: VoiceParseResult.Item) {
            if let player = item.player, let earlier = items.firstIndex(where: { $0.player?.id == player.id }) {
                let old = items[earlier]
                let saidNothing = item.strokes == nil && item.said.isEmpty
                let oldSaidNothing = old.strokes == nil && old.said.isEmpty
                if correcting || (old.strokes == item.strokes && item.strokes != nil) || oldSaidNothing || saidNothing {
                    if saidNothing && !oldSaidNothing { return }  // "Jake 4, Jake" adds nothing
                    items.remove(at: earlier)
                    lastItems = lastItems.compactMap { $0 == earlier ? nil : $0 > earlier ? $0 - 1 : $0 }
                } else {
                    // One item for the player, held back: which score was meant is not known.
                    let reason = "\(player.name) was named twice (\(old.said) and \(item.said)); say it again with one score, or say \"sorry\" before the right one"
                    items.remove(at: earlier)
                    lastItems = lastItems.compactMap { $0 == earlier ? nil : $0 > earlier ? $0 - 1 : $0 }
                    items.append(VoiceParseResult.Item(heard: item.heard, said: item.said, strokes: item.strokes, resolution: item.resolution, problem: reason))
                    return
                }
            }
            items.append(item)
        }
    }

    /// Words and pauses (",", ";", ".", "!", "?", a new line). "Mike3" is "Mike 3"; "H.H." is the
    /// initials H H; hyphens and colons are spaces.
    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        func flush() {
            if !current.isEmpty { tokens.append(.word(current)) }
            current = ""
        }
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character == ".", !current.isEmpty, current.allSatisfy(\.isNumber), next?.isNumber == true {
                current.append(character)  // "3.5": one (refused) number, not 3 and 5
            } else if (character == "-" || character == "+"), current.isEmpty, next?.isNumber == true {
                current.append(character)  // "-1", "+2": strokes relative to par
            } else if character == "." && current.count == 1 && current.first?.isLetter == true {
                flush()  // an initial
            } else if ",;.!?\n".contains(character) {
                flush()
                tokens.append(.separator)
            } else if character.isWhitespace || character == "-" || character == ":" || character == "\"" || character == "(" || character == ")" {
                flush()
            } else if character.isNumber != (current.last?.isNumber ?? character.isNumber), !current.isEmpty,
                      !(character == "'" || current.last == "'"), !(current.count == 1 && "+-".contains(current)),
                      !(current.last == "." && character.isNumber) {
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
