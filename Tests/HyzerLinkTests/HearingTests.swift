@testable import HyzerLink
import Testing

/// The reachability rule in beats (PROTOCOL.md, "Reachability and reconnection").
@Suite("Hearing")
struct HearingTests {
    /// Plays `script` on a new `Hearing` (b: one of this end's beats, h: something heard from the
    /// other end, a: a beat at which the hub's score queue answered while it read nothing) and
    /// returns each beat's outcome: "." still reachable, "X" unreachable.
    static func play(_ script: String) -> String {
        var hearing = Hearing(), outcomes = ""
        for step in script {
            if step == "h" { hearing.heard(); continue }
            outcomes += hearing.beat(alsoHeard: step == "a") ? "X" : "."
        }
        return outcomes
    }

    @Test("Three of one's own beats in a row with nothing heard make the other end unreachable; anything heard, or counted as heard, starts again")
    func threeBeatsInARow() {
        #expect(Self.play("bbbb") == "...X")  // pairing counts as heard: the first beat is no miss
        #expect(Self.play("bbhbbabbb") == ".......X")
        #expect(Self.play("bbhbbhbb") == "......")
        // Heard many times between two beats is one beat heard, not credit for the next ones.
        #expect(Self.play("hhhhhhhhbbbb") == "...X")
    }
}
