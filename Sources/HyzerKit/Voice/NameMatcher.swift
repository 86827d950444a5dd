import Foundation

/// Why a heard name was taken for a player: which form of the player's name it matched, how, and
/// how sure that is (0…1, the seeds' confidence: accept above 0.8, ask from 0.5 to 0.8).
public struct NameEvidence: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The name as the player has it, whole or one of its words.
        case name
        /// The first letters of a name of several words ("HH" for Holyn Handley).
        case initials
        /// A common short or long form ("Mike" for Michael).
        case nickname
        /// Spelled differently but said the same ("Sara" for Sarah).
        case sound = "sounds like"
        /// Only the letters are close ("Jak" for Jake).
        case spelling
    }

    public let kind: Kind
    /// The form of the player's name that matched: "Michael", "Sarah", "HH".
    public let form: String
    public let confidence: Double

    public init(kind: Kind, form: String, confidence: Double) {
        self.kind = kind
        self.form = form
        self.confidence = confidence
    }

    /// "a short or long form of Michael", "sounds like Sarah", "spelled like Jake".
    public var description: String {
        switch kind {
        case .name: "the name \(form)"
        case .initials: "initials of \(form)"
        case .nickname: "a short or long form of \(form)"
        case .sound: "sounds like \(form)"
        case .spelling: "spelled like \(form)"
        }
    }
}

/// Matches a heard name to a round's players the way speech is heard, not typed (seeds/001,
/// "Voice-specific consistency"): by the name and its words, initials, common short and long
/// forms (Mike ↔ Michael), how it sounds (`NameSound`: Sara = Sarah, Holin = Holyn), and only then
/// by spelling. The seeds' thresholds apply to that confidence: above 80 % it is the player, from
/// 50 % to 80 % a person is asked "did you mean …?", below 50 % it is nobody in the round. Two
/// players the name fits about equally well (within 10 points), or who both sound like it or
/// have it as their name, are never guessed between: the answer names both.
public struct FuzzyNameMatcher: Sendable {
    public static let acceptAbove = 0.8
    public static let suggestFrom = 0.5
    /// How far ahead of the next player the best must be to be taken.
    public static let margin = 0.1

    public enum Match: Equatable, Sendable {
        case clear(Player, NameEvidence)
        case near(Player, NameEvidence)
        case ambiguous([Player], NameEvidence)
        case none
    }

    struct Form: Sendable {
        let text: String
        let display: String
        let kind: NameEvidence.Kind
        let sound: String
    }

    private let candidates: [(player: Player, forms: [Form])]

    public init(players: [Player]) {
        candidates = players.map { player in
            let display = player.name.split(separator: " ").map(String.init)
            // Each word of the name as matched, with the word as written it comes from ("kate"
            // from "Mary-Kate").
            let words = display.flatMap { shown in Self.normalize(shown).split(separator: " ").map { (text: String($0), shown: shown) } }
            var forms: [Form] = []
            func add(_ text: String, _ display: String, _ kind: NameEvidence.Kind) {
                guard !text.isEmpty, !forms.contains(where: { $0.text == text }) else { return }
                forms.append(Form(text: text, display: display, kind: kind, sound: NameSound.key(text)))
            }
            add(words.map(\.text).joined(separator: " "), player.name, .name)
            for word in words { add(word.text, word.shown, .name) }
            // A word with a hyphen or an apostrophe is also a name whole ("Mary-Kate", "O'Connor"),
            // as typed and run together ("oconnor").
            for shown in display {
                let parts = Self.normalize(shown).split(separator: " ")
                guard parts.count > 1 else { continue }
                add(parts.joined(separator: " "), shown, .name)
                add(parts.joined(), shown, .name)
            }
            if words.count > 1 { add(words.map { String($0.text.prefix(1)) }.joined(), player.name, .initials) }
            for word in words {
                for form in Nicknames.forms(of: word.text) { add(form, word.shown, .nickname) }
            }
            return (player, forms)
        }
    }

    public func match(_ heard: String) -> Match {
        let variants = Self.heardVariants(heard)
        guard !variants.isEmpty else { return .none }
        let scored = candidates.map { candidate -> (Player, NameEvidence) in
            let best = variants.flatMap { variant in candidate.forms.map { Self.evidence(variant.text, penalty: variant.penalty, $0) } }
                .max { $0.confidence < $1.confidence }
            return (candidate.player, best ?? NameEvidence(kind: .spelling, form: candidate.player.name, confidence: 0))
        }.sorted { $0.1.confidence > $1.1.confidence }
        guard let (best, evidence) = scored.first, evidence.confidence >= Self.suggestFrom else { return .none }
        // Speech has no spelling: a player whose name sounds the same, or whose name or short form
        // this is, is as likely as the best, so the answer names both ("Jon" with Jon and John).
        let exact = evidence.kind == .name && evidence.confidence == 1
        let rivals = scored.filter { _, other in
            guard other.confidence >= Self.suggestFrom else { return false }
            let soundsTheSame = other.kind == .sound && other.confidence >= 0.85
            let alsoTheirName = other.kind == .name && other.confidence >= 0.95
            // A player's own name is beaten only by another's name or the same sound; short forms
            // and near spellings do not rival it ("Mike" with Mike and Michael is Mike).
            // Only a true homophone rivals a name said exactly ("Jon" and John; not "Katie" and Cathy).
            if exact {
                let homophone = other.kind == .sound && (other.confidence >= 0.9 || other.confidence >= 0.85 && Self.vowelsCompatible(heard, other.form))
                return alsoTheirName || homophone
            }
            return other.confidence > evidence.confidence - Self.margin || soundsTheSame || alsoTheirName
                || (other.kind == .nickname && other.confidence >= 0.95)
        }
        if rivals.count > 1 { return .ambiguous(rivals.map(\.0), evidence) }
        return evidence.confidence > Self.acceptAbove ? .clear(best, evidence) : .near(best, evidence)
    }

    /// The heard name normalized, and without a possessive or a plural-sounding s ("Jake's",
    /// "Jakes"), which count a little less than the name as heard.
    static func heardVariants(_ heard: String) -> [(text: String, penalty: Double)] {
        var text = heard.replacingOccurrences(of: "’", with: "'")
        for suffix in ["'s", "s'", "'"] where text.lowercased().hasSuffix(suffix) {
            text = String(text.dropLast(suffix == "s'" ? 1 : suffix.count))
            break
        }
        var name = normalize(text)
        // "H H" and "H.H." are initials: "hh".
        let words = name.split(separator: " ")
        if words.count > 1, words.allSatisfy({ $0.count == 1 }) { name = words.joined() }
        guard !name.isEmpty else { return [] }
        var variants = [(name, 0.0)]
        if name.count >= 4, name.hasSuffix("s"), !name.hasSuffix("ss") { variants.append((String(name.dropLast()), 0.03)) }
        return variants
    }

    /// How well `heard` fits one form of a player's name.
    static func evidence(_ heard: String, penalty: Double, _ form: Form) -> NameEvidence {
        func make(_ kind: NameEvidence.Kind, _ confidence: Double) -> NameEvidence {
            NameEvidence(kind: kind, form: form.display, confidence: max(0, confidence - penalty))
        }
        let nickname = form.kind == .nickname
        if heard == form.text { return make(form.kind, nickname ? 0.95 : form.kind == .initials ? 0.9 : 1) }
        let spelling = 1 - EditDistance.between(Array(heard), Array(form.text)) / Double(max(heard.count, form.text.count))
        guard form.kind != .initials else { return make(.spelling, 0) }
        let heardSound = NameSound.key(heard)
        let shortest = min(heardSound.count, form.sound.count)
        if shortest >= 2 {
            // Same consonants, and the vowel said alike, or "Mac" would be Mike and "Jack" Jake.
            // Through a short form it is only a guess: "Jak" is not surely Jake by way of "Jakey".
            if heardSound == form.sound { return make(.sound, vowelsCompatible(heard, form.text) && !nickname ? 0.9 : 0.8) }
            let distance = NameSound.distance(heardSound, form.sound)
            // One change between sounds a recognizer confuses (Sean/Shawn, Zach/Zack).
            // Not for short forms: "Nick" is not Mike by way of "Mick".
            if distance <= 0.5, spelling >= 0.4, !nickname { return make(.sound, 0.85) }
            let sound = 1 - distance / Double(max(heardSound.count, form.sound.count))
            if sound * 0.9 > spelling { return make(.sound, sound * 0.9 * (nickname ? 0.95 : 1)) }
        }
        return make(.spelling, spelling * (nickname ? 0.95 : 1))
    }

    /// Whether two names with the same consonants also say their first vowel alike: a vowel in
    /// common, and both long or both short. Sara/Sarah, Kline/Klein, Pearce/Pierce, McBeth/Macbeth
    /// do; Mac/Mike, Jack/Jake, Jahn/John do not.
    static func vowelsCompatible(_ a: String, _ b: String) -> Bool {
        guard let x = firstVowel(a), let y = firstVowel(b) else { return true }
        return !x.letters.isDisjoint(with: y.letters) && x.long == y.long
    }

    /// The first word's first vowel sound: its letters (y as i) and whether it is long (two vowel
    /// letters, as in "ei", "ea", "ai", or a silent e after one consonant, as in "Jake").
    static func firstVowel(_ text: String) -> (letters: Set<Character>, long: Bool)? {
        var word = Array(text.split(separator: " ").first ?? "")
        if word.count > 2, word[0] == "m", word[1] == "c" { word.insert("a", at: 1) }  // "Mc" says "Mac"
        func isVowel(_ i: Int) -> Bool { "aeiou".contains(word[i]) || (word[i] == "y" && i > 0) }
        guard let start = word.indices.first(where: isVowel) else { return nil }
        var end = start
        // "aw", "ew", "ow" are vowels too (Shawn says what Sean says).
        while end + 1 < word.count, isVowel(end + 1) || (word[end + 1] == "w" && end == start) { end += 1 }
        let letters = Set(word[start...end].map { $0 == "y" ? "i" : $0 })
        let silentE = end + 3 == word.count && !isVowel(end + 1) && word[end + 2] == "e"
        return (letters, end > start || silentE)
    }

    /// Lowercased, accents folded, punctuation dropped, spaces collapsed.
    public static func normalize(_ text: String) -> String {
        let kept = NameText.folded(text).unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : " " }
        return String(kept).split(separator: " ").joined(separator: " ")
    }

}

/// Short and long forms of common first names, both ways: a player named Michael is heard as
/// "Mike", one named Mike may be called "Michael" (seeds/001: "Mike matches Michael if that's
/// the display name").
enum Nicknames {
    static let groups: [[String]] = [
        ["michael", "mike", "mikey", "mick", "micky", "mickey"], ["jacob", "jake", "jakob", "jakey"], ["samantha", "sam", "sammy"], ["samuel", "sam", "sammy"],
        ["william", "will", "bill", "billy", "liam", "willy"], ["robert", "rob", "bob", "bobby", "robbie", "bert"], ["richard", "rich", "rick", "ricky", "dick"],
        ["james", "jim", "jimmy", "jamie"], ["joseph", "joe", "joey"], ["thomas", "tom", "tommy"], ["daniel", "dan", "danny"],
        ["matthew", "matt", "matty"], ["christopher", "chris", "topher"], ["christina", "chris", "tina"], ["christine", "chris"],
        ["nicholas", "nick", "nicky"], ["anthony", "tony"], ["andrew", "andy", "drew"],
        ["benjamin", "ben", "benny"], ["jonathan", "jon", "jonny"], ["john", "johnny", "jack"], ["timothy", "tim", "timmy"],
        ["steven", "steve"], ["stephen", "steve"], ["stephanie", "steph"],
        ["edward", "ed", "eddie", "ted", "ned"], ["theodore", "theo", "ted", "teddy"], ["alexander", "alex", "xander"],
        ["alexandra", "alex", "lexi"], ["katherine", "kate", "katie", "kathy", "kat"], ["catherine", "cathy", "cat", "kate"],
        ["elizabeth", "liz", "beth", "lizzie", "eliza"], ["jennifer", "jen", "jenny"], ["rebecca", "becca", "becky"],
        ["victoria", "vicky", "tori"], ["margaret", "maggie", "meg", "peggy"], ["patricia", "pat", "patty", "trish"], ["patrick", "pat", "paddy"],
        ["gregory", "greg"], ["zachary", "zach", "zack"], ["nathaniel", "nate", "nat"], ["nathan", "nate"], ["kenneth", "ken", "kenny"],
        ["ronald", "ron", "ronnie"], ["donald", "don", "donnie"], ["charles", "charlie", "chuck"], ["susan", "sue", "suzy"],
        ["david", "dave", "davey"], ["jeffrey", "jeff"], ["geoffrey", "geoff", "jeff"], ["joshua", "josh"], ["jessica", "jess", "jessie"],
        ["abigail", "abby"], ["amanda", "mandy"], ["nicole", "nikki"], ["lawrence", "larry"], ["raymond", "ray"], ["gabriel", "gabe"],
        ["maxwell", "max"], ["maximilian", "max"], ["vincent", "vince"], ["walter", "walt"], ["albert", "al", "bert"], ["alan", "al"],
        ["frederick", "fred", "freddie"], ["henry", "hank", "harry"], ["harold", "harry"], ["gerald", "jerry"], ["jeremy", "jerry"],
        ["kimberly", "kim"], ["melissa", "mel", "missy"], ["melanie", "mel"], ["natalie", "nat"], ["peter", "pete"], ["phillip", "phil"],
        ["philip", "phil"], ["russell", "russ"], ["sandra", "sandy"], ["stanley", "stan"], ["terrence", "terry"], ["oliver", "ollie"],
        ["deborah", "deb", "debbie"], ["cynthia", "cindy"], ["douglas", "doug"], ["frances", "fran"], ["francis", "frank"],
        ["franklin", "frank"], ["leonard", "leo", "len", "lenny"], ["louis", "lou"], ["mitchell", "mitch"], ["samson", "sam"],
        ["tobias", "toby"], ["isabella", "bella", "izzy"], ["isabel", "izzy"], ["madeline", "maddie"], ["madison", "maddie"],
        ["allison", "allie"], ["bartholomew", "bart"], ["alexandria", "alex", "lexi"], ["gabrielle", "gabby"], ["emily", "em"], ["emma", "em"],
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
