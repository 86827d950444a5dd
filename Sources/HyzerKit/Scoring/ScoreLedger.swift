/// One pass over a round's log: the events grouped by {player, hole} in log order, the current
/// score of each, and the discrepancies still open. Standings and the snapshot read from this.
public struct ScoreLedger: Sendable {
    public private(set) var histories: [ScoreKey: [ScoreEvent]] = [:]
    public private(set) var currentScores: [ScoreKey: ScoreEvent] = [:]
    public private(set) var openDiscrepancies: [ScoreKey: Discrepancy] = [:]
    private var keyOrder: [ScoreKey] = []

    /// `events` must be in log order: the order they reached the hub.
    public init(events: [ScoreEvent]) {
        for event in events {
            let key = ScoreKey(playerID: event.playerID, hole: event.hole)
            if histories[key] == nil { keyOrder.append(key) }
            histories[key, default: []].append(event)
        }
        for (key, history) in histories {
            if history.count == 1 {
                currentScores[key] = history[0]
                continue
            }
            if let current = ScoreResolution.leaves(ofHistory: history).first { currentScores[key] = current }
            if let open = ConflictDetector.openDiscrepancy(inHistory: history) { openDiscrepancies[key] = open }
        }
    }

    /// Open discrepancies in the order their {player, hole} first appeared in the log.
    public var discrepancies: [Discrepancy] { keyOrder.compactMap { openDiscrepancies[$0] } }
}
