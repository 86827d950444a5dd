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
            histories.append(KeyHistory(event))
            current.append(event.supersedesEventID == event.id ? nil : event)
            return
        }
        let wasOpen = histories[index].isOpen
        histories[index].append(event)
        current[index] = histories[index].leaves.first
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

    /// One {player, hole}'s history with its leaves and open discrepancy; nil when the log has
    /// no event for it.
    public func keyHistory(of key: ScoreKey) -> KeyHistory? {
        slot[key].map { histories[$0] }
    }

    /// Open discrepancies in the order their {player, hole} first appeared in the log.
    public var discrepancies: [Discrepancy] { keys.compactMap { openDiscrepancies[$0] } }
}

/// One {player, hole}'s history, with its leaves and its open discrepancy brought up to date one
/// event at a time: the discrepancy pass (`ConflictDetector.openDiscrepancy(inHistory:)` runs it
/// over a whole history; a test holds it to classifying event by event) and the leaves (held by a
/// test to `ScoreResolution.leaves(ofHistory:)`), carried on from the event before instead of
/// replayed from the first, so a score's 300th correction costs what its first did. A short history (most are one to three events) is
/// searched; a longer one keeps its ids hashed.
public struct KeyHistory: Sendable {
    /// The events, in log order.
    public private(set) var events: [ScoreEvent] = []
    /// What a history of two events or more keeps besides its events; none for one event (most
    /// of a round's), so a ledger of thousands makes and frees one array per {player, hole}.
    /// At most one element: an empty array is a shared pointer, where the fields would be five.
    private var more: [Pass] = []

    init(_ event: ScoreEvent) { events = [event] }

    /// The events that count: since the last resolution, not superseded, in log order. The
    /// first is the current score.
    public var leaves: [ScoreEvent] {
        more.first?.leaves ?? (events[0].supersedesEventID == events[0].id ? [] : events)
    }

    /// The disagreement still open, if any.
    public var openDiscrepancy: Discrepancy? {
        more.first?.involved.first.map { Discrepancy(playerID: $0.playerID, hole: $0.hole, events: more[0].involved) }
    }

    var isOpen: Bool { !(more.first?.involved.isEmpty ?? true) }

    mutating func append(_ event: ScoreEvent) {
        if more.isEmpty { more = [Pass(first: events[0])] }
        more[0].step(event, after: events)
        events.append(event)
    }

    /// The reference passes' state after the events so far.
    private struct Pass: Sendable {
        var leaves: [ScoreEvent]
        /// The claims in dispute, as `ConflictDetector.openDiscrepancy` names them; empty when
        /// none. Their ids are kept as the reference keeps them (a claim replaced by its device's
        /// correction leaves the set under its own id even when another event shares it).
        var involved: [ScoreEvent] = []
        var involvedIDs: Set<UUID> = []
        /// Where the current leaf is looked for: the last resolution, moved past superseded events.
        var firstLeaf: Int
        /// Kept once the history is longer than `searchedUpTo`: each event's index by id, and the
        /// ids some event supersedes.
        var indexByID: [UUID: Int] = [:]
        var superseded: Set<UUID> = []
        static let searchedUpTo = 8

        /// The state after a first event: it is its own leaf (unless it names itself), and no
        /// claim is in dispute yet.
        init(first: ScoreEvent) {
            leaves = first.supersedesEventID == first.id ? [] : [first]
            firstLeaf = 0
        }

        /// The index of the event with `id` among `events` (the last, as the reference's dictionary keeps it).
        private func index(of id: UUID, in events: [ScoreEvent]) -> Int? {
            events.count > Self.searchedUpTo ? indexByID[id] : events.lastIndex { $0.id == id }
        }

        private func isSuperseded(_ id: UUID, in events: [ScoreEvent]) -> Bool {
            events.count > Self.searchedUpTo ? superseded.contains(id) : events.contains { $0.supersedesEventID == id }
        }

        /// `event` after `events` (the history before it).
        mutating func step(_ event: ScoreEvent, after events: [ScoreEvent]) {
            // The discrepancy pass's step for this event, against the events before it.
            let index = events.count
            while firstLeaf < index && isSuperseded(events[firstLeaf].id, in: events) { firstLeaf += 1 }
            let currentLeaf = firstLeaf < index ? events[firstLeaf] : nil
            var disputed: ScoreEvent?
            if event.source == .resolution {
                involved = []
                involvedIDs = []
            } else if let target = event.supersedesEventID, let targetIndex = self.index(of: target, in: events) {
                if events[targetIndex].deviceID != event.deviceID {
                    disputed = events[targetIndex]
                } else if involvedIDs.contains(target), let at = involved.firstIndex(where: { $0.id == target }) {
                    // A device correcting its own claim in dispute: its new value is its claim now.
                    involved[at] = event
                    involvedIDs.remove(target)
                    involvedIDs.insert(event.id)
                }
            } else if let currentLeaf, currentLeaf.strokes != event.strokes {
                disputed = currentLeaf
            }
            if let disputed {
                for member in [disputed, event] where involvedIDs.insert(member.id).inserted { involved.append(member) }
            }
            if event.source == .resolution { firstLeaf = index }

            // The hashed ids, once the history (with this event) is past `searchedUpTo`.
            if index + 1 == Self.searchedUpTo + 1 {
                for (at, held) in events.enumerated() {
                    indexByID[held.id] = at
                    if let target = held.supersedesEventID { superseded.insert(target) }
                }
            }
            if index + 1 > Self.searchedUpTo {
                indexByID[event.id] = index
                if let target = event.supersedesEventID { superseded.insert(target) }
            }

            // The leaves: what this event supersedes leaves them; the event joins them.
            if event.source == .resolution { leaves = [] }
            if let target = event.supersedesEventID { leaves.removeAll { $0.id == target } }
            let eventSuperseded = index + 1 > Self.searchedUpTo
                ? superseded.contains(event.id)
                : event.supersedesEventID == event.id || events.contains { $0.supersedesEventID == event.id }
            if !eventSuperseded { leaves.append(event) }
        }
    }
}
