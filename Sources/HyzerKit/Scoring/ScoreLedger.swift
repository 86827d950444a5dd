/// One pass over a round's log: the events grouped by {player, hole} in log order, the current
/// score of each, and the discrepancies still open. Standings and the snapshot read from this.
///
/// A ledger can also grow one event at a time (`append`), at the cost of that event's
/// {player, hole} history only: the hub keeps the round in play's ledger in memory, so a score
/// costs the same in a round of 100 events as in one of 20,000.
public struct ScoreLedger: Sendable {
    /// Each {player, hole} in the order it first appeared in the log.
    public private(set) var keys: [ScoreKey] = []
    /// The current score of `keys[i]` (nil only for a chain with no leaf, which valid logs never have).
    public private(set) var current: [ScoreEvent?] = []
    public private(set) var openDiscrepancies: [ScoreKey: Discrepancy] = [:]
    /// How many events the ledger holds.
    public private(set) var eventCount = 0
    /// How many players have a score on each hole (the keys per hole).
    public private(set) var playersPerHole: [Int: Int] = [:]
    /// The players the log names, in the order they first appear, and for each of `keys` the
    /// index of its player here: standings tally the keys by player without hashing a player id
    /// a key (a score's standings are built on its way to the wrist).
    public private(set) var playerIDs: [PlayerID] = []
    public private(set) var playerOfKey: [Int] = []
    private var histories: [[ScoreEvent]] = []
    private var slot: [ScoreKey: Int] = [:]
    private var playerSlot: [PlayerID: Int] = [:]

    /// An empty ledger.
    public init() {}

    /// `events` must be in log order: the order they reached the hub.
    public init(events: [ScoreEvent]) {
        eventCount = events.count
        slot.reserveCapacity(events.count)
        keys.reserveCapacity(events.count)
        histories.reserveCapacity(events.count)
        for event in events {
            let key = ScoreKey(playerID: event.playerID, hole: event.hole)
            if let index = slot[key] {
                histories[index].append(event)
            } else {
                addKey(key)
                histories.append([event])
            }
        }
        current = histories.map { history in
            history.count == 1 ? history[0] : ScoreResolution.leaves(ofHistory: history).first
        }
        for (index, history) in histories.enumerated() where history.count > 1 {
            if let open = ConflictDetector.openDiscrepancy(inHistory: history) { openDiscrepancies[keys[index]] = open }
        }
    }

    /// Adds the next event of the log (it comes after everything the ledger holds): only its
    /// {player, hole} is looked at again. Equal to `ScoreLedger(events: previous + [event])`.
    public mutating func append(_ event: ScoreEvent) {
        let key = ScoreKey(playerID: event.playerID, hole: event.hole)
        eventCount += 1
        guard let index = slot[key] else {
            addKey(key)
            histories.append([event])
            current.append(event)
            return
        }
        histories[index].append(event)
        let history = histories[index]
        current[index] = ScoreResolution.leaves(ofHistory: history).first
        openDiscrepancies[key] = ConflictDetector.openDiscrepancy(inHistory: history)
    }

    /// A {player, hole} not seen before (its history is appended by the caller).
    private mutating func addKey(_ key: ScoreKey) {
        slot[key] = keys.count
        keys.append(key)
        playersPerHole[key.hole, default: 0] += 1
        if let player = playerSlot[key.playerID] {
            playerOfKey.append(player)
        } else {
            playerSlot[key.playerID] = playerIDs.count
            playerOfKey.append(playerIDs.count)
            playerIDs.append(key.playerID)
        }
    }

    /// Every {player, hole} with its current score.
    public var currentScores: [ScoreKey: ScoreEvent] {
        var result: [ScoreKey: ScoreEvent] = [:]
        for (key, event) in zip(keys, current) { if let event { result[key] = event } }
        return result
    }

    /// The history of one {player, hole}, in log order.
    public func history(of key: ScoreKey) -> [ScoreEvent] {
        slot[key].map { histories[$0] } ?? []
    }

    /// Open discrepancies in the order their {player, hole} first appeared in the log.
    public var discrepancies: [Discrepancy] { keys.compactMap { openDiscrepancies[$0] } }
}
