import Testing
@testable import HubCore
import HyzerKit

@Suite("Voice transcripts")
struct VoiceTranscriptParserTests {
    static let mike = Player(id: "m", name: "Mike")
    static let jake = Player(id: "j", name: "Jake")
    static let sarah = Player(id: "s", name: "Sarah")
    static let holyn = Player(id: "guest:Holyn Handley", name: "Holyn Handley")
    static let matcher = FuzzyNameMatcher(players: [mike, jake, sarah, holyn])

    static func parse(_ text: String) -> VoiceParseResult { VoiceTranscriptParser.parse(text, matcher: matcher) }
    static func recorded(_ text: String) -> [String] { parse(text).entries.map { "\($0.player.name) \($0.strokes)" } }

    @Test("Recognised transcripts", arguments: [
        ("Mike 3, Jake 4, Sarah 2", ["Mike 3", "Jake 4", "Sarah 2"]),
        ("Mike three, Jake four, Sarah two", ["Mike 3", "Jake 4", "Sarah 2"]),
        ("mike 3 jake 4 sarah 2", ["Mike 3", "Jake 4", "Sarah 2"]),
        ("Mike 10", ["Mike 10"]),
        ("Jake got a 4 and Sarah had 5", ["Jake 4", "Sarah 5"]),
        ("Holyn Handley 3", ["Holyn Handley 3"]),
        ("Holyn two", ["Holyn Handley 2"]),
        ("Michael 6", ["Mike 6"]),
        ("Mike3, Jake4", ["Mike 3", "Jake 4"]),
        ("MIKE ONE; JAKE ten.", ["Mike 1", "Jake 10"]),
        ("Jaké 4", ["Jake 4"]),
        ("Sarah for", ["Sarah 4"]),
    ])
    func recognised(transcript: String, expected: [String]) {
        let result = Self.parse(transcript)
        #expect(Self.recorded(transcript) == expected)
        #expect(result.problems == [])
        #expect(result.suggestions == [])
        #expect(result.isComplete)
    }

    @Test("Common short and long forms match both ways: Mike is Michael, Jacob is Jake")
    func nicknames() {
        let michael = Player(id: "mi", name: "Michael Smith")
        let matcher = FuzzyNameMatcher(players: [michael, Self.jake])
        #expect(matcher.match("Mike") == .clear(michael))
        #expect(matcher.match("Jacob") == .clear(Self.jake))
        #expect(matcher.match("Bob") == .none)
    }

    @Test("A partial transcript keeps what is clear and reports the rest")
    func partial() {
        let result = Self.parse("Mike 3, Bob 4, Sarah 2")
        #expect(Self.recorded("Mike 3, Bob 4, Sarah 2") == ["Mike 3", "Sarah 2"])
        #expect(result.problems == [.init(fragment: "Bob 4", reason: "\"Bob\" is not a player in this round")])
        #expect(!result.isComplete)
    }

    @Test("A near name (50 to 80 %) is answered with did you mean, not recorded")
    func nearName() {
        let result = Self.parse("Jak 4")
        #expect(result.entries == [])
        #expect(result.suggestions.map(\.player) == [Self.jake])
        #expect(result.suggestions.map(\.strokes) == [4])
        #expect(result.suggestions[0].confidence == 0.75)
    }

    @Test("Sara is 80 %: exactly at the edge, so asked about rather than recorded")
    func edgeOfAcceptance() {
        let result = Self.parse("Sara 2")
        #expect(result.entries == [])
        #expect(result.suggestions.map(\.player.name) == ["Sarah"])
        #expect(result.suggestions.map(\.confidence) == [0.8])
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
        #expect(Self.parse("Mike thirty").problems.map(\.reason) == ["Strokes must be between 1 and 10; got 30."])
        #expect(Self.parse("Mike 0").problems.map(\.reason) == ["Strokes must be between 1 and 10; got 0."])
        #expect(Self.parse("Jake 11, Mike 3").entries.map(\.player.name) == ["Mike"])
    }

    @Test("A name with no number, or a number with no name, is reported")
    func missingParts() {
        #expect(Self.parse("Mike, Jake 3").problems.map(\.reason) == ["no score heard for \"Mike\""])
        #expect(Self.parse("3, Jake 3").problems.map(\.reason) == ["heard a score (3) with no name before it"])
        #expect(Self.recorded("Mike, Jake 3") == ["Jake 3"])
    }

    @Test("A player named twice is recorded for neither score")
    func namedTwice() {
        let result = Self.parse("Jake 3, Mike 4, Jake 5")
        #expect(Self.recorded("Jake 3, Mike 4, Jake 5") == ["Mike 4"])
        #expect(result.problems.map(\.reason) == ["Jake was named twice (3 and 5); say it again with one score"])
    }

    @Test("Nothing recognisable gives no entries")
    func nothing() {
        let result = Self.parse("uh, um")
        #expect(result.entries == [])
        #expect(!result.isComplete)
    }

    @Test("Two players sharing a first name make that first name ambiguous")
    func ambiguousFirstName() {
        let matcher = FuzzyNameMatcher(players: [Player(id: "1", name: "Mike Smith"), Player(id: "2", name: "Mike Jones")])
        let result = VoiceTranscriptParser.parse("Mike 3, Mike Jones 4", matcher: matcher)
        #expect(result.entries.map(\.player.name) == ["Mike Jones"])
        #expect(result.problems.map(\.reason) == ["\"Mike\" could be Mike Smith or Mike Jones"])
    }
}
