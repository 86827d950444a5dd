import Foundation

/// What an incoming event is, relative to what the log already holds for its {player, hole}
/// (seeds/002, "Conflict Detection", plus the first score and resolutions).
public enum ScoreClassification: String, Sendable, Hashable, Codable {
    /// The first score for this {player, hole}.
    case newScore
    /// Same strokes as the current score, no supersedes link: the same fact reported twice.
    case silentMerge
    /// Different strokes with no link, or a link to another device's event.
    case discrepancy
    /// Supersedes an event from the same device.
    case correction
    /// An appended resolution that settles the {player, hole}.
    case resolution
}

/// An unsettled disagreement about one {player, hole}, shown until a resolution event lands.
public struct Discrepancy: Sendable, Hashable, Identifiable {
    public let playerID: PlayerID
    public let hole: Int
    /// The events that disagree: each device's claim as it stands (a device's own correction of
    /// its claim takes the claim's place), in the order the claims were first made.
    public let events: [ScoreEvent]

    public var id: ScoreKey { ScoreKey(playerID: playerID, hole: hole) }
    public var key: ScoreKey { id }
    /// The distinct stroke values in dispute, in the order of `events`.
    public var candidateStrokes: [Int] {
        var seen: [Int] = []
        for event in events where !seen.contains(event.strokes) { seen.append(event.strokes) }
        return seen
    }
}

public enum ConflictDetector {
    /// Classifies `event` against the earlier events of the same {player, hole}, in log order.
    public static func classify(_ event: ScoreEvent, history: [ScoreEvent]) -> ScoreClassification {
        classify(event, history: history, leaves: ScoreResolution.leaves(ofHistory: history))
    }

    /// The same, given the history's leaves (a ledger keeps them: `KeyHistory`).
    public static func classify(_ event: ScoreEvent, history: [ScoreEvent], leaves: [ScoreEvent]) -> ScoreClassification {
        if event.source == .resolution { return .resolution }
        if let target = event.supersedesEventID, let superseded = history.first(where: { $0.id == target }) {
            return superseded.deviceID == event.deviceID ? .correction : .discrepancy
        }
        guard let current = leaves.first else { return .newScore }
        return current.strokes == event.strokes ? .silentMerge : .discrepancy
    }

    /// Classifies `event` against a log of any events.
    public static func classify(_ event: ScoreEvent, against log: [ScoreEvent]) -> ScoreClassification {
        classify(event, history: log.filter { $0.playerID == event.playerID && $0.hole == event.hole && $0.roundID == event.roundID })
    }

    /// Replays one {player, hole} history and returns the discrepancy still open at its end, if any.
    ///
    /// One pass (`KeyHistory`, which a ledger keeps event by event): each event is classified
    /// against what came before it (as `classify` would), with the current leaf kept up to date
    /// instead of recomputed, so a long history costs O(n).
    public static func openDiscrepancy(inHistory history: [ScoreEvent]) -> Discrepancy? {
        guard let first = history.first else { return nil }
        var kept = KeyHistory(first)
        for event in history.dropFirst() { kept.append(event) }
        return kept.openDiscrepancy
    }

    /// Every open discrepancy in a round's log, by player then hole as they first appear.
    public static func openDiscrepancies(in events: [ScoreEvent]) -> [Discrepancy] {
        ScoreLedger(events: events).discrepancies
    }
}
