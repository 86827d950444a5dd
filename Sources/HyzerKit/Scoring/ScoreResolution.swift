import Foundation

/// {player, hole}: the unit a score belongs to.
public struct ScoreKey: Sendable, Hashable, Codable {
    public let playerID: PlayerID
    public let hole: Int

    public init(playerID: PlayerID, hole: Int) {
        self.playerID = playerID
        self.hole = hole
    }
}

/// Current-score resolution by supersession chain (seeds/002, amendment A7).
///
/// The current score of {player, hole} is a leaf: an event no other event supersedes. A resolution
/// event settles everything that reached the hub before it for that {player, hole}. When several
/// leaves remain (two devices scored the same hole), the one that reached the hub first counts,
/// so standings follow the hub's log order and never `createdAt`: clock skew changes nothing.
public enum ScoreResolution {
    /// The leaves of one {player, hole} history, given in log (arrival) order.
    public static func leaves(ofHistory history: [ScoreEvent]) -> [ScoreEvent] {
        var superseded = Set<UUID>()
        var settledBefore = 0
        for (index, event) in history.enumerated() {
            if let target = event.supersedesEventID { superseded.insert(target) }
            if event.source == .resolution { settledBefore = index }
        }
        var result: [ScoreEvent] = []
        for index in settledBefore..<history.count where !superseded.contains(history[index].id) {
            result.append(history[index])
        }
        return result
    }

    /// The leaves for one {player, hole} in a log of any events, in log order.
    public static func leaves(for playerID: PlayerID, hole: Int, in events: [ScoreEvent]) -> [ScoreEvent] {
        leaves(ofHistory: events.filter { $0.playerID == playerID && $0.hole == hole })
    }

    /// The score that counts for {player, hole}, or nil when none was reported.
    public static func currentScore(for playerID: PlayerID, hole: Int, in events: [ScoreEvent]) -> ScoreEvent? {
        leaves(for: playerID, hole: hole, in: events).first
    }

    /// The rule for scoring a hole again from the same device: a device never disagrees with
    /// itself. Returns this device's current score when `strokes` would contradict it (the new
    /// value must then be a correction that supersedes it); nil when scoring is fine (no score yet,
    /// another device's score, or the same strokes again, which is a harmless silent merge).
    public static func ownScoreContradicted(inHistory history: [ScoreEvent], deviceID: String, strokes: Int) -> ScoreEvent? {
        ownScoreContradicted(current: leaves(ofHistory: history).first, deviceID: deviceID, strokes: strokes)
    }

    /// The same, given the current score (a ledger keeps it).
    public static func ownScoreContradicted(current: ScoreEvent?, deviceID: String, strokes: Int) -> ScoreEvent? {
        guard let current, current.deviceID == deviceID, current.strokes != strokes else { return nil }
        return current
    }

    /// Every {player, hole} with a current score.
    public static func scoredKeys(in events: [ScoreEvent]) -> Set<ScoreKey> {
        Set(ScoreLedger(events: events).currentScores.keys)
    }
}
