import Foundation
import HyzerKit
import HyzerHarness
import Testing

/// A ledger grown one event at a time (what the hub keeps in memory) equals the ledger of the
/// whole log, and so do the standings and the snapshot read from it: over thousands of random
/// logs with corrections, discrepancies between devices, resolutions and ties.
@Suite("Incremental ledger")
struct IncrementalLedgerTests {
    static let players = ["Ann", "Ben", "Cat", "Dan"].map { Player(id: "id-\($0)", name: $0) }
    static let holes = (1...4).map { Hole(number: $0, par: 3 + $0 % 2) }
    static let devices = ["watch-ann", "watch-ben", "phone", "phone-2"]

    /// A log as devices produce it: first scores, the same score again, different scores, a
    /// device correcting itself or another device's score, resolutions; strokes kept in a small
    /// range so that ties and equal reports happen often.
    static func randomLog(using random: inout SeededRandom, round: UUID, players: [Player] = players, holes: [Hole] = holes,
                          events: ClosedRange<Int> = 1...60) throws -> [ScoreEvent] {
        var log: [ScoreEvent] = []
        for _ in 0..<Int.random(in: events, using: &random) {
            let player = players.randomElement(using: &random)!
            let hole = holes.randomElement(using: &random)!.number
            let history = log.filter { $0.playerID == player.id && $0.hole == hole }
            let leaves = ScoreRule.inPlay(ofHistory: history)
            var supersedes: UUID?
            var source = ScoreSource.crown
            var device = devices.randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: break  // a new report, no link
            case 5..<8:        // a correction of a current score (its own device's, or another's)
                if let leaf = leaves.randomElement(using: &random) {
                    supersedes = leaf.id
                    if Bool.random(using: &random) { device = leaf.deviceID }
                }
            default:           // a resolution of whatever is current
                supersedes = leaves.first?.id
                source = .resolution
                device = "phone"
            }
            log.append(try ScoreEvent(roundID: round, playerID: player.id, hole: hole, strokes: Int.random(in: 2...5, using: &random),
                                      supersedesEventID: supersedes, reportedByPlayerID: player.id, deviceID: device,
                                      source: source, createdAt: Date(timeIntervalSince1970: 0)))
        }
        return log
    }

    static func describe(_ ledger: ScoreLedger) -> String {
        let current = zip(ledger.keys, ledger.current).map { "\($0.playerID)#\($0.hole)=\($1?.id.uuidString ?? "-")" }
        let open = ledger.discrepancies.map { "\($0.playerID)#\($0.hole):\($0.events.map(\.id.uuidString))" }
        let perHole = ledger.playersPerHole.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        return current.joined(separator: ",") + " | " + open.joined(separator: ",") + " | \(ledger.eventCount) | " + perHole.joined(separator: ",")
    }

    @Test("After every append, the incremental ledger, standings and snapshot equal a full recompute")
    func incrementalEqualsFull() async throws {
        try await offThePool {
            var random = try SeededRandom.fromEnvironment(for: "incrementalEqualsFull")
            let replay = random.replay(filter: "incrementalEqualsFull")
            var checked = 0, withDiscrepancy = 0, withTies = 0
            for _ in 0..<800 {
                let round = Round(id: UUID(), course: try Course(name: "Four", holes: Self.holes), players: Self.players, status: .active,
                                  createdAt: Date(timeIntervalSince1970: 0))
                let log = try Self.randomLog(using: &random, round: round.id)
                var incremental = ScoreLedger()
                for (index, event) in log.enumerated() {
                    incremental.append(event)
                    let prefix = Array(log[...index])
                    let full = ScoreLedger(events: prefix)
                    guard Self.describe(incremental) == Self.describe(full) else {
                        Issue.record("ledger differs after \(index + 1) events: \(replay)")
                        return
                    }
                    let snapshot = RoundSnapshot(round: round, ledger: incremental)
                    guard snapshot == RoundSnapshot(round: round, events: prefix) else {
                        Issue.record("snapshot differs after \(index + 1) events: \(replay)")
                        return
                    }
                    checked += 1
                    if snapshot.standings.contains(where: \.discrepancy) { withDiscrepancy += 1 }
                    if snapshot.standings.contains(where: \.tied) { withTies += 1 }
                }
            }
            #expect(checked > 8_000 && withDiscrepancy > 400 && withTies > 400,
                    "checked \(checked) prefixes, \(withDiscrepancy) with a discrepancy, \(withTies) with ties: \(replay)")
        }
    }

    @Test("Each {player, hole}'s scores in play, kept event by event, equal the reference on logs no hub would store: ids used twice, events naming themselves or an event that comes later, corrections of replaced scores and of scores before a resolution")
    func keyHistoryEqualsReferenceOnMalformedLogs() async throws {
        try await offThePool {
            var random = try SeededRandom.fromEnvironment(for: "keyHistoryEqualsReferenceOnMalformedLogs")
            let replay = random.replay(filter: "keyHistoryEqualsReferenceOnMalformedLogs")
            let key = ScoreKey(playerID: Self.players[0].id, hole: 1)
            var checked = 0, open = 0
            for _ in 0..<1_500 {
                // Ids from a pool of twelve, so they repeat; links to any of them, or none.
                let pool = (0..<12).map { _ in UUID() }
                var history: [ScoreEvent] = []
                var ledger = ScoreLedger()
                for _ in 0..<Int.random(in: 1...30, using: &random) {
                    let event = try ScoreEvent(id: pool.randomElement(using: &random)!, roundID: UUID(), playerID: key.playerID, hole: key.hole,
                                               strokes: Int.random(in: 2...4, using: &random),
                                               supersedesEventID: Bool.random(using: &random) ? pool.randomElement(using: &random) : nil,
                                               reportedByPlayerID: key.playerID, deviceID: Self.devices.prefix(2).randomElement(using: &random)!,
                                               source: Int.random(in: 0..<8, using: &random) == 0 ? .resolution : .crown, createdAt: Date(timeIntervalSince1970: 0))
                    history.append(event)
                    ledger.append(event)
                    let reference = ScoreRule.state(ofHistory: history)
                    guard let kept = ledger.keyHistory(of: key), kept.inPlay == reference.inPlay,
                          ledger.currentScores[key] == reference.counted,
                          kept.openDiscrepancy == Discrepancy(reference) else {
                        Issue.record("differs from the reference after \(history.count) events: \(replay)")
                        return
                    }
                    checked += 1
                    if kept.openDiscrepancy != nil { open += 1 }
                }
            }
            #expect(checked > 15_000 && open > 1_000, "checked \(checked), \(open) with a discrepancy: \(replay)")
        }
    }
}
