import Foundation

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
    private var histories: [KeyHistory] = []
    private var slot: [ScoreKey: Int] = [:]
    private var playerSlot: [PlayerID: Int] = [:]

    /// An empty ledger.
    public init() {}

    /// `events` must be in log order: the order they reached the hub.
    public init(events: [ScoreEvent]) {
        slot.reserveCapacity(events.count)
        keys.reserveCapacity(events.count)
        histories.reserveCapacity(events.count)
        current.reserveCapacity(events.count)
        for event in events { append(event) }
    }

    /// Adds the next event of the log (it comes after everything the ledger holds): only its
    /// {player, hole} is looked at again, and only from where it was left (`KeyHistory`).
    /// Equal to `ScoreLedger(events: previous + [event])`.
    public mutating func append(_ event: ScoreEvent) {
        let key = ScoreKey(playerID: event.playerID, hole: event.hole)
        eventCount += 1
        guard let index = slot[key] else {
            addKey(key)
            let history = KeyHistory(event)
            histories.append(history)
            current.append(history.inPlay.first)
            return
        }
        let wasOpen = histories[index].isOpen
        histories[index].append(event)
        current[index] = histories[index].inPlay.first
        if wasOpen || histories[index].isOpen { openDiscrepancies[key] = histories[index].openDiscrepancy }
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
        slot[key].map { histories[$0].events } ?? []
    }

    /// One {player, hole}'s history with its scores in play; nil when the log has no event for it.
    public func keyHistory(of key: ScoreKey) -> KeyHistory? {
        slot[key].map { histories[$0] }
    }

    /// Open discrepancies in the order their {player, hole} first appeared in the log.
    public var discrepancies: [Discrepancy] { keys.compactMap { openDiscrepancies[$0] } }
}

/// One {player, hole}'s history with its scores in play, brought up to date one event at a time:
/// equal to `ScoreRule.inPlay(ofHistory: events)` after every event (a property test holds them
/// equal), at the cost of the scores in play rather than of the whole history.
public struct KeyHistory: Sendable {
    /// The events, in log order.
    public private(set) var events: [ScoreEvent] = []
    /// The scores in play, in log order: the first counts.
    public private(set) var inPlay: [ScoreEvent] = []
    /// The ids some event names. Only such an id can arrive already retired (a log whose link
    /// arrived before its target, which the hub never stores but a test may hold).
    private var named: Set<UUID> = []

    init(_ event: ScoreEvent) { append(event) }

    public var state: ScoreState { ScoreState(inPlay: inPlay) }

    /// The disagreement still open, if any.
    public var openDiscrepancy: Discrepancy? { Discrepancy(state) }

    var isOpen: Bool { state.isDisputed }

    mutating func append(_ event: ScoreEvent) {
        if event.source == .resolution {
            inPlay = []  // settles everything before it
        } else if event.supersedesEventID != nil {
            inPlay.removeAll { ScoreRule.retires(event, $0) }
        }
        let retired = ScoreRule.retires(event, event)
            || (named.contains(event.id) && events.contains { ScoreRule.retires($0, event) })
        events.append(event)
        if let target = event.supersedesEventID { named.insert(target) }
        if !retired { inPlay.append(event) }
    }
}
