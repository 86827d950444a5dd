import Foundation

/// What an incoming event did to its {player, hole} (seeds/002, "Conflict Detection", plus the
/// first score and resolutions), read from the state it left (`ScoreRule`).
public enum ScoreClassification: String, Sendable, Hashable, Codable {
    /// The first score for this {player, hole}.
    case newScore
    /// Agrees with what counts and leaves nothing disputed: the same fact reported twice.
    case silentMerge
    /// The scores in play now disagree: a discrepancy is open.
    case discrepancy
    /// Replaces this device's own score, and nothing is disputed.
    case correction
    /// An appended resolution that settles the {player, hole}.
    case resolution
}

/// An open disagreement about one {player, hole}: the scores in play, which do not all agree.
/// Shown until a resolution, or a correction that makes them agree, settles it.
public struct Discrepancy: Sendable, Hashable, Identifiable {
    public let playerID: PlayerID
    public let hole: Int
    /// Every score in play, in log order: the first is the one the standings count.
    public let events: [ScoreEvent]

    public var id: ScoreKey { ScoreKey(playerID: playerID, hole: hole) }
    public var key: ScoreKey { id }
    /// The score the standings count while the discrepancy is open.
    public var counted: ScoreEvent { events[0] }
    /// The distinct stroke values in dispute, the counted one first.
    public var candidateStrokes: [Int] { ScoreState(inPlay: events).claimedStrokes }

    /// The discrepancy `state` holds, if its scores disagree.
    public init?(_ state: ScoreState) {
        guard state.isDisputed, let first = state.counted else { return nil }
        self.init(playerID: first.playerID, hole: first.hole, events: state.inPlay)
    }

    public init(playerID: PlayerID, hole: Int, events: [ScoreEvent]) {
        self.playerID = playerID
        self.hole = hole
        self.events = events
    }
}

public enum ConflictDetector {
    /// What `event` was, given its {player, hole}'s state before it (nil: no event yet) and after.
    public static func classify(_ event: ScoreEvent, before: ScoreState?, after: ScoreState, history: [ScoreEvent]) -> ScoreClassification {
        if event.source == .resolution { return .resolution }
        if after.isDisputed { return .discrepancy }
        guard before?.counted != nil else { return .newScore }
        if let target = event.supersedesEventID, history.contains(where: { $0.id == target && $0.deviceID == event.deviceID }) {
            return .correction
        }
        return .silentMerge
    }

    /// Classifies `event` appended to the earlier events of the same {player, hole}, in log order.
    public static func classify(_ event: ScoreEvent, history: [ScoreEvent]) -> ScoreClassification {
        classify(event, before: history.isEmpty ? nil : ScoreRule.state(ofHistory: history),
                 after: ScoreRule.state(ofHistory: history + [event]), history: history)
    }

    /// Classifies `event` against a log of any events.
    public static func classify(_ event: ScoreEvent, against log: [ScoreEvent]) -> ScoreClassification {
        classify(event, history: log.filter { $0.playerID == event.playerID && $0.hole == event.hole && $0.roundID == event.roundID })
    }

    /// Every open discrepancy in a round's log, by player then hole as they first appear.
    public static func openDiscrepancies(in events: [ScoreEvent]) -> [Discrepancy] {
        ScoreLedger(events: events).discrepancies
    }
}
