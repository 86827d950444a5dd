import Testing
import HyzerKit

@Suite("Voice transcripts")
struct VoiceParserTests {
    static let mike = Player(id: "m", name: "Mike")
    static let jake = Player(id: "j", name: "Jake")
    static let sarah = Player(id: "s", name: "Sarah")
    static let holyn = Player(id: "guest:Holyn Handley", name: "Holyn Handley")
    static let players = [mike, jake, sarah, holyn]

    static func parse(_ text: String, par: Int? = 3) -> VoiceParseResult { VoiceTranscriptParser.parse(text, players: players, par: par) }
    static func recorded(_ text: String) -> [String] { parse(text).entries.map { "\($0.player.name) \($0.strokes)" } }

    @Test("Common short and long forms match both ways: Mike is Michael, Jacob is Jake")
    func nicknames() {
        let michael = Player(id: "mi", name: "Michael Smith")
        let matcher = FuzzyNameMatcher(players: [michael, Self.jake])
        guard case .clear(let player, let evidence) = matcher.match("Mike") else { Issue.record("Mike did not match"); return }
        #expect(player == michael)
        #expect(evidence.kind == .nickname)
        #expect(evidence.description == "a short or long form of Michael")
        guard case .clear(let jake, _) = matcher.match("Jacob") else { Issue.record("Jacob did not match"); return }
        #expect(jake == Self.jake)
        #expect(matcher.match("Bob") == .none)
    }

    @Test("A hyphenated or apostrophe word of a name is a name whole: Mary-Kate, O'Connor, Jean-Luc, as typed or run together")
    func hyphenatedNames() {
        let maryKate = Player(id: "mk", name: "Mary-Kate Olsen"), oConnor = Player(id: "oc", name: "Sean O'Connor")
        let jeanLuc = Player(id: "jl", name: "Jean-Luc Côté"), mary = Player(id: "ma", name: "Mary Smith")
        let matcher = FuzzyNameMatcher(players: [maryKate, oConnor, jeanLuc, mary])
        for (heard, expected) in [("Mary-Kate", maryKate), ("mary kate", maryKate), ("O'Connor", oConnor), ("OConnor", oConnor),
                                  ("O’Connor", oConnor), ("Jean-Luc", jeanLuc), ("Kate", maryKate), ("Cote", jeanLuc)] {
            guard case .clear(let player, let evidence) = matcher.match(heard) else {
                Issue.record("\(heard): \(matcher.match(heard))")
                continue
            }
            #expect(player == expected, "\(heard)")
            #expect(evidence.kind == .name, "\(heard)")
        }
        guard case .clear(_, let evidence) = matcher.match("Kate") else { return }
        #expect(evidence.form == "Mary-Kate", "the form is the word as written")
        #expect(Self.recordedWith([maryKate, oConnor], "Mary-Kate par, O'Connor 4") == ["Mary-Kate Olsen 3", "Sean O'Connor 4"])
    }

    @Test("\"even\" and \"E\" after a name are par, as the standings print it")
    func evenIsPar() {
        #expect(Self.recorded("Mike even, Jake E, Sarah even par") == ["Mike 3", "Jake 3", "Sarah 3"])
        #expect(Self.parse("Mike even", par: 4).entries.map(\.strokes) == [4])
    }

    static func recordedWith(_ players: [Player], _ text: String) -> [String] {
        VoiceTranscriptParser.parse(text, players: players, par: 3).entries.map { "\($0.player.name) \($0.strokes)" }
    }

    @Test("A name spelled another way but said the same is that player, and says so")
    func soundsLike() {
        let result = Self.parse("Sara 2, Holin 4")
        #expect(Self.recorded("Sara 2, Holin 4") == ["Sarah 2", "Holyn Handley 4"])
        #expect(result.entries.map(\.evidence.description) == ["sounds like Sarah", "sounds like Holyn"])
        #expect(result.isComplete)
    }

    @Test("Golf words count from the hole's par; without a par they are refused with the reason")
    func golfWords() {
        #expect(VoiceTranscriptParser.parse("Mike birdie, Jake double bogey, Sarah ace", players: Self.players, par: 4).entries
            .map { "\($0.player.name) \($0.strokes) \($0.said)" } == ["Mike 3 birdie", "Jake 6 double bogey", "Sarah 1 ace"])
        #expect(Self.parse("Mike bogey", par: nil).problems.map(\.reason)
            == ["heard \"Mike bogey\" for Mike: \"bogey\" needs the hole's par, which is not known here; say the strokes as a number"])
        #expect(Self.parse("Mike albatross", par: 3).problems.map(\.reason)
            == ["heard \"Mike albatross\" for Mike: \"albatross\" on a par 3 would be 0 strokes, and strokes are 1 to 10"])
    }

    @Test("A near name (50 to 80 %) is answered with did you mean, not recorded")
    func nearName() {
        let result = Self.parse("Jay 4")
        #expect(result.entries == [])
        #expect(result.suggestions.map(\.player) == [Self.jake])
        #expect(result.suggestions.map(\.strokes) == [4])
        #expect(result.suggestions[0].confidence >= 0.5 && result.suggestions[0].confidence <= 0.8)
    }

    @Test("A poor name (under 50 %) is refused")
    func poorName() {
        let result = Self.parse("Bartholomew 3")
        #expect(result.entries == [])
        #expect(result.suggestions == [])
        #expect(result.problems.map(\.reason) == ["\"Bartholomew\" is not a player in this round"])
    }

    @Test("Scores outside 1...10 are refused with the allowed range, thirty included")
    func outOfRange() {
        #expect(Self.parse("Mike thirty").problems.map(\.reason) == ["heard \"Mike thirty\" for Mike: strokes must be between 1 and 10; got 30"])
        #expect(Self.parse("Mike 0").problems.map(\.reason) == ["heard \"Mike 0\" for Mike: strokes must be between 1 and 10; got 0"])
        // Named twice, once out of range: held back and said, never dropped.
        #expect(Self.parse("Mike 3, Mike 14").problems.map(\.reason)
            == ["Mike was named twice (3 and 14); say it again with one score, or say \"sorry\" before the right one"])
        #expect(Self.parse("Jake 3.5").problems.map(\.reason) == ["heard \"Jake 3.5\" for Jake: 3.5 is not a whole number of strokes"])
        #expect(Self.parse("Jake 11, Mike 3").entries.map(\.player.name) == ["Mike"])
    }

    @Test("A name with no number, or a number with no name, is reported")
    func missingParts() {
        #expect(Self.parse("Mike, Jake 3").problems.map(\.reason) == ["no score heard for \"Mike\""])
        #expect(Self.parse("3, Jake 3").problems.map(\.reason) == ["heard a score (3) with no name before it"])
        #expect(Self.recorded("Mike, Jake 3") == ["Jake 3"])
    }

    @Test("A player named twice with two scores is held back; a correction word or the same score settles it")
    func namedTwice() {
        let result = Self.parse("Jake 3, Mike 4, Jake 5")
        #expect(Self.recorded("Jake 3, Mike 4, Jake 5") == ["Mike 4"])
        #expect(result.problems.map(\.reason) == ["Jake was named twice (3 and 5); say it again with one score, or say \"sorry\" before the right one"])
        #expect(Self.recorded("Jake 3, Mike 4, sorry, Jake 5") == ["Mike 4", "Jake 5"])
        #expect(Self.recorded("Jake 3, make that 5") == ["Jake 5"])
        #expect(Self.recorded("Jake 3, Jake 3") == ["Jake 3"])
    }

    @Test("Nothing recognisable gives no entries")
    func nothing() {
        let result = Self.parse("uh, um")
        #expect(result.items == [])
        #expect(!result.isComplete)
    }

    @Test("Two players sharing a first name make that first name ambiguous, naming both")
    func ambiguousFirstName() {
        let players = [Player(id: "1", name: "Mike Smith"), Player(id: "2", name: "Mike Jones")]
        let result = VoiceTranscriptParser.parse("Mike 3, Mike Jones 4", players: players, par: 3)
        #expect(result.entries.map(\.player.name) == ["Mike Jones"])
        #expect(result.problems.map(\.reason)
            == ["\"Mike\" could be Mike Smith or Mike Jones: say the full name, or a last name or initial with it, or score by name (hyzer-hub score NAME 3)"])
    }

    @Test("Name keys: spellings a recognizer produces for one name share a key")
    func nameSound() {
        #expect(NameSound.key("Sarah") == NameSound.key("Sara"))
        #expect(NameSound.key("Holyn") == NameSound.key("Holin"))
        #expect(NameSound.key("Michael") == NameSound.key("Micheal"))
        #expect(NameSound.key("Stephen") == NameSound.key("Steven"))
        #expect(NameSound.key("Catherine") == NameSound.key("Kathryn"))
        #expect(NameSound.key("Geoff") == NameSound.key("Jeff"))
        #expect(NameSound.key("Ethan") != NameSound.key("Nathan"))
        #expect(NameSound.key("Bob") != NameSound.key("Bo"))
    }
}
