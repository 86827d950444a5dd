import Foundation

/// `standings.json`: what the hub last knew, as the watch reads it. Field names are a contract.
public struct StandingsSnapshot: Sendable, Hashable, Codable {
    public static let currentSchemaVersion = 1

    public let schemaVersion: Int
    /// Names the hub's database; changes only when the hub starts from an empty one.
    public let hubID: String
    /// Grows with every export within one `hubID`.
    public let sequence: Int
    public let lastUpdatedAt: Date
    /// nil (written as null) when no round is active.
    @EncodedNull public private(set) var round: RoundSnapshot?

    public init(schemaVersion: Int = currentSchemaVersion, hubID: String, sequence: Int, lastUpdatedAt: Date, round: RoundSnapshot?) {
        self.schemaVersion = schemaVersion
        self.hubID = hubID
        self.sequence = sequence
        self.lastUpdatedAt = lastUpdatedAt
        self.round = round
    }

    /// Whether `self` should replace `shown`: a different hub always, the same hub only with a
    /// sequence at least as high (a lower one is an older export arriving late).
    public func supersedes(_ shown: StandingsSnapshot?) -> Bool {
        guard let shown, shown.hubID == hubID else { return true }
        return sequence >= shown.sequence
    }
}

/// The active round inside a snapshot.
public struct RoundSnapshot: Sendable, Hashable, Codable {
    public let id: UUID
    public let courseName: String
    public let status: RoundStatus
    public let currentHole: Int
    public let holeCount: Int
    public let holes: [Hole]
    public let standings: [Standing]

    public init(id: UUID, courseName: String, status: RoundStatus, currentHole: Int, holeCount: Int, holes: [Hole], standings: [Standing]) {
        self.id = id
        self.courseName = courseName
        self.status = status
        self.currentHole = currentHole
        self.holeCount = holeCount
        self.holes = holes
        self.standings = standings
    }

    /// The snapshot of `round` given its log (in log order).
    public init(round: Round, events: [ScoreEvent]) {
        self.init(round: round, ledger: ScoreLedger(events: events.filter { $0.roundID == round.id }))
    }

    /// The snapshot of `round` from its ledger (the round's log, already grouped).
    public init(round: Round, ledger: ScoreLedger) {
        let currentHole = round.currentHole(playersScored: { ledger.playersPerHole[$0] ?? 0 })
        self.init(
            id: round.id,
            courseName: round.courseName,
            status: round.status,
            currentHole: currentHole,
            holeCount: round.holeCount,
            holes: round.holes,
            standings: StandingsEngine.standings(ledger: ledger, holes: round.holes, players: round.players, currentHole: currentHole)
        )
    }

    public func par(ofHole number: Int) -> Int? { holes.first { $0.number == number }?.par }
}
