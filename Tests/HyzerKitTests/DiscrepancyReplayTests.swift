import Foundation
@testable import HyzerKit
import HyzerTestSupport
import Testing

@Suite("Discrepancy replay")
struct DiscrepancyReplayTests {
    /// The definition the one-pass replay must agree with: classify each event against the history
    /// before it (what the hub does as events arrive), collect what disagrees, clear on resolution.
    static func classifyingEventByEvent(_ history: [ScoreEvent]) -> Discrepancy? {
        var involved: [ScoreEvent] = []
        for (index, event) in history.enumerated() {
            let before = Array(history[..<index])
            switch ConflictDetector.classify(event, history: before) {
            case .resolution:
                involved = []
            case .discrepancy:
                let disputed = event.supersedesEventID.flatMap { target in before.first { $0.id == target } }
                    ?? ScoreResolution.leaves(ofHistory: before).first
                for member in [disputed, event].compactMap({ $0 }) where !involved.contains(member) { involved.append(member) }
            case .correction:
                // A device correcting its own claim in dispute: the new value takes the claim's place.
                if let target = event.supersedesEventID, let at = involved.firstIndex(where: { $0.id == target }) { involved[at] = event }
            case .newScore, .silentMerge:
                break
            }
        }
        guard let first = involved.first else { return nil }
        return Discrepancy(playerID: first.playerID, hole: first.hole, events: involved)
    }

    /// One {player, hole} history: up to three devices, strokes close together (so merges happen),
    /// corrections of earlier events from the same or another device, and now and then a resolution.
    static func randomHistory(using random: inout SeededRandom) -> [ScoreEvent] {
        let devices = ["phone", "watch-jake", "watch-mike"]
        var history: [ScoreEvent] = []
        for step in 0..<Int.random(in: 1...12, using: &random) {
            let roll = Int.random(in: 0..<10, using: &random)
            let source: ScoreSource = roll == 0 ? .resolution : .crown
            let supersedes = !history.isEmpty && roll >= 6 ? history.randomElement(using: &random)?.id : nil
            history.append(try! ScoreEvent(
                roundID: UUID(uuidString: "6F1C0000-0000-0000-0000-000000000001")!, playerID: "jake", hole: 4,
                strokes: Int.random(in: 3...5, using: &random), supersedesEventID: supersedes, reportedByPlayerID: "jake",
                deviceID: devices.randomElement(using: &random)!, source: source,
                createdAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(step))))
        }
        return history
    }

    @Test("The one-pass discrepancy replay agrees with classifying event by event, over thousands of random histories")
    func replayAgrees() throws {
        var random = try SeededRandom.fromEnvironment(for: "DiscrepancyReplayTests")
        var open = 0
        for _ in 0..<5_000 {
            let history = Self.randomHistory(using: &random)
            let expected = Self.classifyingEventByEvent(history)
            if expected != nil { open += 1 }
            let replayed = ConflictDetector.openDiscrepancy(inHistory: history)
            #expect(replayed == expected, "\(history.map { "\($0.deviceID):\($0.strokes)\($0.supersedesEventID == nil ? "" : "↩")\($0.source == .resolution ? "R" : "")" }); \(random.replay(filter: "DiscrepancyReplayTests"))")
            if replayed != expected { return }
        }
        // The generator must reach the interesting cases, or the agreement means little.
        #expect(open > 500, "only \(open) of 5000 histories ended with an open discrepancy; \(random.replay(filter: "DiscrepancyReplayTests"))")
    }
}
