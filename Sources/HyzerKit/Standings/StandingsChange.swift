/// Why standings were recomputed.
public enum StandingsChangeTrigger: String, Sendable, Hashable, Codable, CaseIterable {
    /// A score entered on the phone (tap, voice, correction).
    case localScore
    /// A score that arrived from the watch.
    case watchScore
    /// A discrepancy settled by a resolution event.
    case conflictResolution
}

/// A player's move between two standings; drives the ▲/▼ arrows and the row slide.
public struct PositionChange: Sendable, Hashable {
    public let from: Int
    public let to: Int

    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    public var movedUp: Bool { to < from }
}

/// The result of a recompute: what was, what is, who moved, and why.
public struct StandingsChange: Sendable, Hashable {
    public let previousStandings: [Standing]
    public let newStandings: [Standing]
    public let trigger: StandingsChangeTrigger
    /// Players whose position changed, keyed by player ID (players without a position before or after are left out).
    public let positionChanges: [PlayerID: PositionChange]

    public init(previousStandings: [Standing], newStandings: [Standing], trigger: StandingsChangeTrigger) {
        self.previousStandings = previousStandings
        self.newStandings = newStandings
        self.trigger = trigger
        self.positionChanges = Self.positionChanges(from: previousStandings, to: newStandings)
    }

    public static func positionChanges(from previous: [Standing], to new: [Standing]) -> [PlayerID: PositionChange] {
        var before: [PlayerID: Int] = [:]
        for standing in previous { if let position = standing.position { before[standing.playerID] = position } }
        var changes: [PlayerID: PositionChange] = [:]
        for standing in new {
            guard let to = standing.position, let from = before[standing.playerID], from != to else { continue }
            changes[standing.playerID] = PositionChange(from: from, to: to)
        }
        return changes
    }
}
