import Foundation
import HyzerHarness
import Testing
@testable import HyzerKit

/// The phone's rule for spending the watch's 50 complication transfers a day (docs/HANDOFF.md).
@Suite struct ComplicationPolicyTests {
    static let rounds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Assets/rounds")

    static func recorded(_ name: String) throws -> RecordedRound {
        let url = rounds.appendingPathComponent(name)
        return try RecordedRound.read(Data(contentsOf: url), from: url.path)
    }

    @Test("The policy keeps a real 18-hole PDGA round within 50 transfers for every wearer and the leader's watch; the naive app does not",
          arguments: ["waco-2024-fpo-r1.json", "austin-2024-fpo-r1.json"])
    func realRoundsFitTheBudget(file: String) async throws {
        try await offThePool {
            let round = try Self.recorded(file)
            #expect(round.pars.count == 18 && round.players.count >= 6)
            var most = 0
            for wearer in [nil] + round.players.map(\.name) {
                let spent = try round.complicationTransfers(.worthwhile, wearer: wearer)
                most = max(most, spent.count)
                #expect(spent.count <= 2 * round.pars.count + 2, "\(wearer ?? "leader"): \(spent.count)")
                #expect(spent.last == .roundFinished)
                #expect(try round.complicationTransfers(.everyChange, wearer: wearer).count > 50)
            }
            #expect(most <= 50)
            print("\(file): the policy spends at most \(most) of 50 on any watch")
        }
    }

    @Test("On random rounds: at most two transfers a hole, the last hole and the finish; the face is never on an old hole and ends on the final place")
    func randomRounds() async throws {
        try await offThePool {
            var random = try SeededRandom.fromEnvironment(for: "randomRounds")
            let replay = random.replay(filter: "randomRounds")
            for _ in 0..<200 {
                let holes = Int.random(in: 1...18, using: &random), players = Int.random(in: 1...6, using: &random)
                let course = try Course(name: "Random", holes: (1...holes).map { Hole(number: $0, par: Int.random(in: 3...5, using: &random)) })
                let roster = (0..<players).map { Player.guest(name: "P\($0)") }
                let round = Round(course: course, players: roster, status: .active, createdAt: Date(timeIntervalSince1970: 0))
                let wearer = Bool.random(using: &random) ? roster.randomElement(using: &random)?.id : nil
                var policy = ComplicationPolicy()
                var events: [ScoreEvent] = [], spent: [ComplicationPolicy.Reason] = [], shown: ComplicationContent?
                for hole in 1...holes {
                    for player in roster.shuffled(using: &random) {
                        events.append(try ScoreEvent(roundID: round.id, playerID: player.id, hole: hole, strokes: Int.random(in: 2...7, using: &random),
                                                     reportedByPlayerID: player.id, deviceID: "phone", source: .tap,
                                                     createdAt: Date(timeIntervalSince1970: Double(events.count))))
                        let content = ComplicationContent(round: RoundSnapshot(round: round, events: events), wearer: wearer)
                        if let sent = policy.consider(content) {
                            spent.append(sent.reason)
                            shown = sent.content
                        }
                        // The face is never on an old hole: every hole change is sent.
                        if shown?.currentHole != content.currentHole {
                            Issue.record("the face shows \(String(describing: shown)) while the round is on hole \(content.currentHole): \(replay)")
                            return
                        }
                    }
                }
                let last = shown
                if let sent = policy.consider(.noRound) {
                    spent.append(sent.reason)
                    shown = sent.content
                }
                var final = ComplicationContent(round: RoundSnapshot(round: round, events: events), wearer: wearer)
                final.finished = true
                guard spent.count <= 2 * holes + 2, spent.last == .roundFinished, shown == final else {
                    Issue.record("\(spent.count) transfers for \(holes) holes, last \(String(describing: spent.last)), face \(String(describing: shown)) after \(String(describing: last)): \(replay)")
                    return
                }
                // The final place stays until another round starts.
                #expect(policy.consider(.noRound) == nil)
            }
        }
    }

    @Test("A change that shows nothing new is not sent, and a second place change on one hole waits for the hole to change")
    func batches() {
        var policy = ComplicationPolicy()
        func content(hole: Int, position: Int?, toPar: Int = 0, played: Int = 0) -> ComplicationContent {
            ComplicationContent(playerID: "guest:Ann", name: "Ann", position: position, tied: false, scoreRelativeToPar: toPar,
                                holesPlayed: played, holeCount: 18, currentHole: hole, finished: false)
        }
        #expect(policy.consider(content(hole: 1, position: nil))?.reason == .first)
        #expect(policy.consider(content(hole: 1, position: nil)) == nil)
        #expect(policy.consider(content(hole: 1, position: 2, toPar: 1, played: 1))?.reason == .positionChanged)
        #expect(policy.consider(content(hole: 1, position: 1, toPar: -1, played: 1)) == nil)  // a second move on hole 1 waits
        #expect(policy.consider(content(hole: 2, position: 1, toPar: -1, played: 1))?.reason == .holeChanged)
        #expect(policy.consider(content(hole: 2, position: 1, toPar: 0, played: 2)) == nil)  // the score moved nobody
        let final = policy.consider(.noRound)
        #expect(final?.reason == .roundFinished && final?.content.finished == true && final?.content.scoreRelativeToPar == 0)
        var off = ComplicationPolicy(mode: .off)
        #expect(off.consider(content(hole: 1, position: 1)) == nil)
    }

    @Test("A round finished before anyone scored says Final on every family, not holes still to play")
    func finishedWithNoHoles() {
        let content = ComplicationContent(playerID: "guest:Ann", name: "Ann", position: nil, tied: false, scoreRelativeToPar: 0,
                                          holesPlayed: 0, holeCount: 18, currentHole: 1, finished: true)
        #expect(content.inline == "Final · Ann · no holes")
        #expect(content.rectangular == ["Ann", "Final · no holes played"])
        #expect(content.rectangularForms.last == ["Final · no holes played", "Final"])
        #expect(content.spoken == "Ann, final, no holes played")
        var playing = content
        playing.finished = false
        #expect(playing.rectangular == ["Ann", "18 holes to play"] && playing.inline == "Ann · no holes yet")
    }

    @Test("A recorded round that cannot be played says what is wrong and what is allowed")
    func recordedRoundProblems() {
        let base = #"{"course": "C", "pars": [3, 3], "players": [{"name": "Ann", "strokes": [3, 4]}]}"#
        #expect(throws: Never.self) { try RecordedRound.read(Data(base.utf8), from: "r.json") }
        let cases: [(String, String)] = [
            (#"{"course": "C", "pars": [3, 3], "players": [{"name": "Ann", "strokes": [3]}]}"#, "Ann has 1 score for 2 holes; strokes lists one score a hole, 2 in all"),
            (#"{"course": "C", "pars": [3, 9], "players": [{"name": "Ann", "strokes": [3, 4]}]}"#, "hole 2 has par 9; par must be between 2 and 6"),
            (#"{"course": "C", "pars": [3, 3], "players": [{"name": "Ann", "strokes": [3, 11]}]}"#, "Ann has 11 strokes on hole 2; strokes are 1 to 10"),
            (#"{"course": "C", "pars": [3, 3], "players": []}"#, "players is empty"),
            (#"{"pars": [3, 3], "players": []}"#, "course"),
        ]
        for (json, message) in cases {
            #expect(throws: RecordedRoundError.self) { try RecordedRound.read(Data(json.utf8), from: "r.json") }
            do { _ = try RecordedRound.read(Data(json.utf8), from: "r.json") } catch {
                #expect(error.description.hasPrefix("r.json: not a recorded round: ") && error.description.contains(message), "\(error)")
            }
        }
    }
}
