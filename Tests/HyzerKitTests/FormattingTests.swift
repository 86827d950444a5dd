import Testing
@testable import HyzerKit

@Suite("Formatting")
struct FormattingTests {
    @Test("Relative scores read E for even, with a sign otherwise")
    func relative() {
        #expect(ScoreFormat.relativeToPar(0) == "E")
        #expect(ScoreFormat.relativeToPar(3) == "+3")
        #expect(ScoreFormat.relativeToPar(-2) == "-2")
    }

    @Test("Positions read 1, T2 for a tie, nothing without a position")
    func positions() {
        #expect(ScoreFormat.position(1, tied: false) == "1")
        #expect(ScoreFormat.position(2, tied: true) == "T2")
        #expect(ScoreFormat.position(nil, tied: false) == "")
    }

    @Test("Hole progress reads Hole 7 of 18")
    func holeProgress() {
        #expect(ScoreFormat.holeProgress(current: 7, of: 18) == "Hole 7 of 18")
    }

    @Test("Relative age", arguments: [
        (0.4, "just now"), (-30, "just now"), (12, "12s ago"), (59.9, "59s ago"), (60, "1m ago"),
        (120, "2m ago"), (3_599, "59m ago"), (3_600, "1h ago"), (90_000, "1d ago"),
    ])
    func relativeAge(seconds: Double, expected: String) {
        #expect(ScoreFormat.relativeAge(seconds: seconds) == expected)
    }

    @Test("Spoken forms for announcements")
    func spoken() {
        #expect(ScoreFormat.spokenRelativeToPar(-2) == "minus two")
        #expect(ScoreFormat.spokenRelativeToPar(0) == "even")
        #expect(ScoreFormat.spokenRelativeToPar(3) == "plus three")
        #expect(ScoreFormat.spokenOrdinal(1) == "first")
    }
}
