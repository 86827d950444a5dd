import Foundation
import HyzerHarness
import HyzerKit
import PropertyBased
import Testing

/// The scoring rule (docs/SYNC.md, "Which score counts") over random logs of one {player, hole}:
/// the ledger's incremental code equals the reference `ScoreRule.inPlay`, and the invariants the
/// docs promise hold after every event. A failure prints the shrunk log and the seed that
/// reproduces it (`.fixedSeed`).
@Suite("Scoring rule properties")
struct ScoreRuleTests {
    static let devices = ["phone", "watch-jake", "watch-sarah", "phone-b"]
    static let round = UUID(uuidString: "6F1C0000-0000-0000-0000-000000000001")!

    /// A log built from steps (the shrinker works on the steps). Each step is a device entering
    /// strokes through the rule every input path follows (`ScoreWrite.plan`, as a report or a
    /// correction), a resolution of an open discrepancy, or, with `links`, an event naming any
    /// earlier one (what a stale or hostile device may send, and what logs no hub stores hold).
    struct RuleLog: CustomTestStringConvertible, Sendable {
        let steps: [Int]
        let links: Bool
        let events: [ScoreEvent]
        /// Each device's latest word since the last resolution: what the docs say is in play.
        let words: [[String: Int]]

        init(steps: [Int], links: Bool) {
            self.steps = steps
            self.links = links
            var events: [ScoreEvent] = [], words: [[String: Int]] = [], word: [String: Int] = [:]
            for (index, step) in steps.enumerated() {
                var device = ScoreRuleTests.devices[step % 4]
                let strokes = 2 + (step / 4) % 4
                let state = ScoreRule.state(ofHistory: events)
                var supersedes: UUID?, source = ScoreSource.crown
                switch (step / 16) % 8 {
                case 0...2, 3...5:
                    let intent: ScoreWrite.Intent = (step / 16) % 8 < 3 ? .report : .correction
                    guard case .record(let target) = ScoreWrite.plan(strokes: strokes, intent: intent, deviceID: device, state: state) else { continue }
                    supersedes = target
                case 6:
                    guard state.isDisputed, let counted = state.counted else { continue }
                    (supersedes, source, device) = (counted.id, .resolution, "phone")
                    word = [:]
                default:
                    guard links, !events.isEmpty else { continue }
                    supersedes = events[(step / 128) % events.count].id
                }
                events.append(try! ScoreEvent(
                    id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index))!, roundID: ScoreRuleTests.round,
                    playerID: "jake", hole: 1, strokes: strokes, supersedesEventID: supersedes, reportedByPlayerID: "jake",
                    deviceID: device, source: source, createdAt: Date(timeIntervalSince1970: 0)))
                word[device] = strokes
                words.append(word)
            }
            self.events = events
            self.words = words
        }

        var testDescription: String {
            "\(events.count) events: " + events.enumerated().map { index, event in
                let link = event.supersedesEventID.map { target in " ↩#\(events.firstIndex { $0.id == target }.map(String.init) ?? "?")" } ?? ""
                return "#\(index) \(event.deviceID) \(event.source == .resolution ? "resolves " : "")\(event.strokes)\(link)"
            }.joined(separator: "; ")
        }
    }

    static let holes = [Hole(number: 1, par: 3)]
    static let players = [Player(id: "jake", name: "Jake")]

    @Test("The ledger's incremental scores in play equal the reference after every event, links anywhere")
    func incrementalEqualsReference() async {
        await offThePool {
            await propertyCheck(count: 2000, input: Gen.int(in: 0...1023).array(of: 1...24).map { RuleLog(steps: $0, links: true) }) { log in
                var ledger = ScoreLedger()
                for (index, event) in log.events.enumerated() {
                    ledger.append(event)
                    let reference = ScoreRule.state(ofHistory: Array(log.events[...index]))
                    let kept = ledger.keyHistory(of: ScoreKey(playerID: "jake", hole: 1))
                    #expect(kept?.inPlay == reference.inPlay, "after #\(index)")
                    #expect(ledger.current.first ?? nil == reference.counted, "after #\(index)")
                    #expect(ledger.discrepancies.first == Discrepancy(reference), "after #\(index)")
                    #expect(ScoreLedger(events: Array(log.events[...index])).discrepancies == ledger.discrepancies, "after #\(index)")
                }
            }
        }
    }

    @Test("Whatever the devices enter, the state says every device's latest word and the standings agree with it")
    func invariantsAfterEveryEvent() async {
        await offThePool {
            await propertyCheck(count: 3000, input: Gen.int(in: 0...1023).array(of: 1...24).map { RuleLog(steps: $0, links: false) }) { log in
                var ledger = ScoreLedger()
                for (index, event) in log.events.enumerated() {
                    ledger.append(event)
                    let state = try #require(ledger.keyHistory(of: ScoreKey(playerID: "jake", hole: 1))).state
                    let words = log.words[index]
                    // The scores in play are each device's latest word since the last resolution, one each.
                    #expect(Dictionary(state.inPlay.map { ($0.deviceID, $0.strokes) }, uniquingKeysWith: { _, _ in -1 }) == words,
                            "in play after #\(index)")
                    // Whenever they disagree a discrepancy is open, listing every distinct claim, the counted one included.
                    let open = ledger.discrepancies.first
                    #expect((open != nil) == (Set(words.values).count > 1), "open after #\(index)")
                    if let open {
                        #expect(Set(open.candidateStrokes) == Set(words.values) && open.candidateStrokes.first == state.counted?.strokes,
                                "claims after #\(index)")
                    }
                    // The standings count the counted score, and it is one of the words.
                    let standing = StandingsEngine.standings(ledger: ledger, holes: Self.holes, players: Self.players, currentHole: 1)[0]
                    #expect(standing.totalStrokes == state.counted?.strokes && standing.currentHoleStrokes == state.counted?.strokes)
                    #expect(standing.discrepancy == (open != nil))
                    #expect(state.counted.map { words.values.contains($0.strokes) } ?? false)
                    // A correction to what already counts, or to what the device already says, records nothing.
                    for device in Self.devices {
                        let counted = try #require(state.counted)
                        let plan = ScoreWrite.plan(strokes: counted.strokes, intent: .correction, deviceID: device, state: state)
                        if words[device] == nil || words[device] == counted.strokes {
                            #expect(plan == .unchanged(ScoreClaim(state.own(by: device) ?? counted)), "\(device) after #\(index)")
                        }
                        if let said = words[device] {
                            #expect(ScoreWrite.plan(strokes: said, intent: .correction, deviceID: device, state: state) == .unchanged(ScoreClaim(try #require(state.own(by: device)))))
                        }
                    }
                    // A resolution settles what it saw: only it is in play right after it.
                    if event.source == .resolution { #expect(state.inPlay == [event]) }
                }
            }
        }
    }

    @Test("The cases of docs/SYNC.md, one by one")
    func documentedCases() throws {
        func event(_ device: String, _ strokes: Int, _ supersedes: ScoreEvent? = nil, resolution: Bool = false) -> ScoreEvent {
            try! ScoreEvent(roundID: Self.round, playerID: "jake", hole: 1, strokes: strokes, supersedesEventID: supersedes?.id,
                            reportedByPlayerID: "jake", deviceID: device, source: resolution ? .resolution : .tap,
                            createdAt: Date(timeIntervalSince1970: 0))
        }
        // Merge, then the first device corrects its copy: the other device's copy stays in play.
        let phone = event("phone", 3), sarah = event("watch-sarah", 3), fix = event("phone", 4, phone)
        var state = ScoreRule.state(ofHistory: [phone, sarah, fix])
        #expect(state.inPlay == [sarah, fix] && state.isDisputed && state.counted == sarah)
        // The organizer resolves to 4; an offline correction ordered after the resolution reopens it.
        let resolved = event("phone", 4, sarah, resolution: true)
        #expect(ScoreRule.state(ofHistory: [phone, sarah, fix, resolved]).inPlay == [resolved])
        let late = event("watch-sarah", 5, sarah)
        state = ScoreRule.state(ofHistory: [phone, sarah, fix, resolved, late])
        #expect(state.inPlay == [resolved, late] && state.isDisputed && state.counted == resolved)
        // Another device naming a score disputes it; it does not withdraw it.
        let mike = event("watch-mike", 5, phone)
        #expect(ScoreRule.state(ofHistory: [phone, mike]).inPlay == [phone, mike])
        // Correcting to what another device says settles the disagreement.
        #expect(!ScoreRule.state(ofHistory: [phone, mike, event("phone", 5, phone)]).isDisputed)
    }
}
