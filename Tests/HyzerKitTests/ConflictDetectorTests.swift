import Foundation
import Testing
@testable import HyzerKit

@Suite("Conflict detection")
struct ConflictDetectorTests {
    let holes = Course.fixture().holes

    @Test("The first score for a player and hole is a new score")
    func firstScore() {
        let event = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3)
        #expect(ConflictDetector.classify(event, against: []) == .newScore)
    }

    @Test("Case 1: same strokes without a supersedes link is a silent merge, not a discrepancy")
    func silentMerge() {
        let phone = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3, deviceID: "phone")
        let watch = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3, reportedBy: .sarah, deviceID: "watch", source: .crown)
        #expect(ConflictDetector.classify(watch, against: [phone]) == .silentMerge)
        #expect(ConflictDetector.openDiscrepancies(in: [phone, watch]) == [])
        let standings = StandingsEngine.standings(events: [phone, watch], holes: holes, players: [.jake])
        #expect(standings[0].totalStrokes == 3)
        #expect(standings[0].holesPlayed == 1)
        #expect(standings[0].discrepancy == false)
    }

    @Test("Case 2: different strokes without a link is a discrepancy; the first to reach the hub counts")
    func differentStrokesNoLink() {
        let jakeSays = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3, reportedBy: .jake, deviceID: "phone")
        let sarahSays = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 4, reportedBy: .sarah, deviceID: "watch")
        #expect(ConflictDetector.classify(sarahSays, against: [jakeSays]) == .discrepancy)

        let open = ConflictDetector.openDiscrepancies(in: [jakeSays, sarahSays])
        #expect(open.count == 1)
        #expect(open[0].key == ScoreKey(playerID: Player.mike.id, hole: 1))
        #expect(open[0].events == [jakeSays, sarahSays])
        #expect(open[0].candidateStrokes == [3, 4])

        let standings = StandingsEngine.standings(events: [jakeSays, sarahSays], holes: holes, players: [.mike])
        #expect(standings[0].discrepancy)
        #expect(standings[0].totalStrokes == 3)
        // Deterministic: the same log always gives the same standings.
        #expect(StandingsEngine.standings(events: [jakeSays, sarahSays], holes: holes, players: [.mike]) == standings)
        // The hub's arrival order decides, not createdAt.
        let reversed = StandingsEngine.standings(events: [sarahSays, jakeSays], holes: holes, players: [.mike])
        #expect(reversed[0].totalStrokes == 4)
        #expect(reversed[0].discrepancy)
    }

    @Test("Case 2 holds whatever the device: one device's two unlinked scores for a hole disagree, a discrepancy, as the seed's mechanical rule says (only a link makes a correction)")
    func caseTwoFromOneDevice() {
        let first = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 5, deviceID: "watch", source: .crown)
        let again = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3, deviceID: "watch", source: .crown)
        #expect(ConflictDetector.classify(again, against: [first]) == .discrepancy)
        #expect(ConflictDetector.openDiscrepancies(in: [first, again]).map(\.candidateStrokes) == [[5, 3]])
        let linked = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3, supersedes: first, deviceID: "watch", source: .crown)
        #expect(ConflictDetector.classify(linked, against: [first]) == .correction)
    }

    @Test("Case 3: superseding an event from the same device is a correction, not a conflict")
    func sameDeviceCorrection() {
        let original = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 5, deviceID: "phone")
        let fix = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3, supersedes: original, deviceID: "phone")
        #expect(ConflictDetector.classify(fix, against: [original]) == .correction)
        #expect(ConflictDetector.openDiscrepancies(in: [original, fix]) == [])
        let standings = StandingsEngine.standings(events: [original, fix], holes: holes, players: [.jake])
        #expect(standings[0].totalStrokes == 3)
        #expect(standings[0].discrepancy == false)
    }

    @Test("Case 4: superseding an event from another device is a discrepancy")
    func crossDeviceSupersession() {
        let phone = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3, deviceID: "phone")
        let watch = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 4, supersedes: phone, reportedBy: .sarah, deviceID: "watch")
        #expect(ConflictDetector.classify(watch, against: [phone]) == .discrepancy)
        let open = ConflictDetector.openDiscrepancies(in: [phone, watch])
        #expect(open.map(\.events) == [[phone, watch]])
        let standings = StandingsEngine.standings(events: [phone, watch], holes: holes, players: [.jake])
        #expect(standings[0].discrepancy)
        // Another device disputes the phone's score but cannot withdraw it: the first in play counts.
        #expect(standings[0].totalStrokes == 3)
    }

    @Test("A device correcting its own disputed score changes its claim; agreeing with the other device settles the discrepancy")
    func correctionInsideDispute() {
        let phone = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3, deviceID: "phone")
        let watch = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 4, supersedes: phone, deviceID: "watch")
        let other = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 5, supersedes: watch, deviceID: "watch")
        #expect(ConflictDetector.classify(other, against: [phone, watch]) == .discrepancy)
        #expect(ConflictDetector.openDiscrepancies(in: [phone, watch, other]).map(\.events) == [[phone, other]], "the watch says 5 now, not 4")
        let again = ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3, supersedes: other, deviceID: "watch")
        #expect(ConflictDetector.classify(again, against: [phone, watch, other]) == .correction)
        #expect(ConflictDetector.openDiscrepancies(in: [phone, watch, other, again]) == [], "both say 3: nothing left to settle")
        #expect(StandingsEngine.standings(events: [phone, watch, other, again], holes: holes, players: [.jake])[0].totalStrokes == 3)
    }

    @Test("A resolution event settles the discrepancy and its strokes become the score")
    func resolutionSettles() {
        let jakeSays = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3, reportedBy: .jake, deviceID: "phone")
        let sarahSays = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 4, reportedBy: .sarah, deviceID: "watch")
        let resolution = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 4, supersedes: jakeSays, reportedBy: .jake,
                                            deviceID: "phone", source: .resolution)
        let log = [jakeSays, sarahSays, resolution]
        #expect(ConflictDetector.classify(resolution, against: [jakeSays, sarahSays]) == .resolution)
        #expect(ConflictDetector.openDiscrepancies(in: log) == [])
        #expect(ScoreRule.inPlay(ofHistory: log) == [resolution])
        let standings = StandingsEngine.standings(events: log, holes: holes, players: [.mike])
        #expect(standings[0].totalStrokes == 4)
        #expect(standings[0].discrepancy == false)
    }

    @Test("A new disagreement after a resolution opens a new discrepancy")
    func disagreementAfterResolution() {
        let a = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3, deviceID: "phone")
        let b = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 4, deviceID: "watch")
        let settle = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3, deviceID: "phone", source: .resolution)
        let c = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 5, deviceID: "watch-2")
        let open = ConflictDetector.openDiscrepancies(in: [a, b, settle, c])
        #expect(open.map(\.events) == [[settle, c]])
    }
}
