import Foundation

/// setup → active → awaitingFinalization (every player has every hole) → completed.
public enum RoundStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case setup, active, awaitingFinalization, completed

    public var displayName: String {
        switch self {
        case .setup: "in setup"
        case .active: "active"
        case .awaitingFinalization: "awaiting finalization"
        case .completed: "completed"
        }
    }

    public var acceptsScores: Bool { self == .active || self == .awaitingFinalization }
}

/// A round on one course. The player list is fixed once the round is active.
public struct Round: Sendable, Hashable, Codable, Identifiable {
    public let id: UUID
    public let courseName: String
    public let holes: [Hole]
    public private(set) var players: [Player]
    public private(set) var status: RoundStatus
    /// A hole the phone moved to (and, once it is complete, the next incomplete one after it);
    /// nil means "first hole not yet scored by everyone".
    public private(set) var selectedHole: Int?
    public let createdAt: Date

    public init(
        id: UUID = UUID(),
        course: Course,
        players: [Player] = [],
        status: RoundStatus = .setup,
        selectedHole: Int? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.courseName = course.name
        self.holes = course.holes
        self.players = players
        self.status = status
        self.selectedHole = selectedHole
        self.createdAt = createdAt
    }

    public var holeCount: Int { holes.count }

    /// The player with exactly this id (byte for byte, as every id is matched).
    public func player(_ id: PlayerID) -> Player? { players.first { $0.id.hasSameBytes(as: id) } }

    /// The most players a round takes: a tournament pool (DESIGN.md: several hundred), and the
    /// standings' budget of 1,000; more would make every change's standings and page a load.
    /// (A round shared through the cloud has at most 50, a card's worth: docs/SYNC.md.)
    public static let maxPlayers = 1000

    public mutating func addPlayer(_ player: Player) throws(RoundError) {
        guard status == .setup else { throw .playersFixed(status: status) }
        guard players.count < Self.maxPlayers else { throw .tooManyPlayers(max: Self.maxPlayers) }
        guard !players.contains(where: { $0.id == player.id }) else { throw .duplicatePlayer(player.name) }
        if players.contains(where: { $0.name.lowercased() == player.name.lowercased() }) {
            throw .duplicatePlayer(player.name)
        }
        players.append(player)
    }

    public mutating func start() throws(RoundError) {
        guard status == .setup else { throw .invalidTransition(from: status, to: .active) }
        guard !players.isEmpty else { throw .noPlayers }
        status = .active
    }

    /// Moves between active and awaitingFinalization as the scores make every hole complete or not.
    public mutating func updateProgress(events: [ScoreEvent]) {
        let scored = ScoreRule.scoredKeys(in: events.filter { $0.roundID == id })
        var perHole: [Int: Int] = [:]
        for key in scored { perHole[key.hole, default: 0] += 1 }
        updateProgress(scoredKeyCount: scored.count, playersScored: { perHole[$0] ?? 0 })
    }

    /// The same, from counts a store can keep cheaply: how many {player, hole} have a score, and
    /// how many players have scored a given hole.
    ///
    /// Auto-advance (seeds/001: "auto-advance to the next hole when all scores are entered"): once
    /// every player has the hole the phone moved to, the current hole moves on to the next one in
    /// playing order that is not complete, wrapping round the course (a shotgun start on hole 5
    /// goes on to 6, not back to 1); with none left, to where an unmoved round would be.
    public mutating func updateProgress(scoredKeyCount: Int, playersScored: (Int) -> Int) {
        guard status.acceptsScores else { return }
        status = scoredKeyCount >= players.count * holeCount ? .awaitingFinalization : .active
        if let selected = selectedHole, playersScored(selected) >= players.count {
            let order = holes.map(\.number).sorted()
            let next = order.filter { $0 > selected } + order.filter { $0 < selected }
            selectedHole = next.first { playersScored($0) < players.count }
        }
    }

    /// Ends the round. An incomplete round ends only when `allowIncomplete` says so.
    public mutating func finish(events: [ScoreEvent], allowIncomplete: Bool = false) throws(RoundError) {
        guard status.acceptsScores else { throw .invalidTransition(from: status, to: .completed) }
        if !allowIncomplete {
            let missing = missingScores(events: events)
            guard missing == 0 else { throw .incomplete(missingScores: missing) }
        }
        status = .completed
    }

    /// The phone moves the current hole.
    public mutating func moveToHole(_ number: Int) throws(RoundError) {
        guard status.acceptsScores else { throw .invalidTransition(from: status, to: status) }
        guard (1...holeCount).contains(number) else { throw .holeOutOfRange(hole: number, holeCount: holeCount) }
        selectedHole = number
    }

    /// The hole the phone moved to, else the first hole not yet scored by all players
    /// (the last hole once every hole is scored).
    public func currentHole(events: [ScoreEvent]) -> Int {
        currentHole(scoredKeys: ScoreRule.scoredKeys(in: events.filter { $0.roundID == id }))
    }

    /// The same, from how many players have scored each hole (counts a ledger keeps): no set of
    /// every scored {player, hole} is built to find it.
    public func currentHole(playersScored: (Int) -> Int) -> Int {
        if let selectedHole { return selectedHole }
        return holes.first { playersScored($0.number) < players.count }?.number ?? holeCount
    }

    /// The same, from the {player, hole} pairs that have a score.
    public func currentHole(scoredKeys scored: Set<ScoreKey>) -> Int {
        if let selectedHole { return selectedHole }
        for hole in holes where !players.allSatisfy({ scored.contains(ScoreKey(playerID: $0.id, hole: hole.number)) }) {
            return hole.number
        }
        return holeCount
    }

    /// Checks that `event` may be appended to this round (the domain half of validation; the
    /// store checks ids and chains against what it holds).
    public func validate(_ event: ScoreEvent) throws(ScoreError) {
        try validate(event, isPlayer: { self.player($0) != nil })
    }

    /// The same, with how to tell a player of this round given: a batch of a league night's
    /// scores asks a set built once rather than the player list for every event. `isPlayer`
    /// matches ids byte for byte (`hasSameBytes`), as `player(_:)` does.
    public func validate(_ event: ScoreEvent, isPlayer: (PlayerID) -> Bool) throws(ScoreError) {
        guard event.roundID == id else { throw .wrongRound(expected: id, got: event.roundID) }
        guard status.acceptsScores else { throw .roundNotAcceptingScores(status: status) }
        guard isPlayer(event.playerID) else { throw .unknownPlayer(event.playerID) }
        guard isPlayer(event.reportedByPlayerID) else { throw .unknownReporter(event.reportedByPlayerID) }
        guard (1...holeCount).contains(event.hole) else { throw .holeOutOfRange(hole: event.hole, holeCount: holeCount) }
        try Strokes.validate(event.strokes)
    }

    public func missingScores(events: [ScoreEvent]) -> Int {
        let scored = ScoreRule.scoredKeys(in: events.filter { $0.roundID == id })
        var missing = 0
        for player in players {
            for hole in holes where !scored.contains(ScoreKey(playerID: player.id, hole: hole.number)) {
                missing += 1
            }
        }
        return missing
    }
}

public enum RoundError: Error, Equatable, Sendable, CustomStringConvertible {
    case noPlayers
    case duplicatePlayer(String)
    case playersFixed(status: RoundStatus)
    case invalidTransition(from: RoundStatus, to: RoundStatus)
    case incomplete(missingScores: Int)
    case holeOutOfRange(hole: Int, holeCount: Int)
    case tooManyPlayers(max: Int)

    public var description: String {
        switch self {
        case .noPlayers:
            "A round needs at least one player."
        case .duplicatePlayer(let name):
            "\(name) is already in this round; each player can be added once."
        case .playersFixed(let status):
            "The player list is fixed once a round starts (this round is \(status.displayName))."
        case .invalidTransition(let from, let to) where from == to:
            "The round is \(from.displayName); that is allowed only while it is active."
        case .invalidTransition(let from, let to):
            "A round that is \(from.displayName) cannot become \(to.displayName)."
        case .incomplete(let missing):
            "The round is not complete: \(missing) score\(missing == 1 ? " is" : "s are") still missing."
        case .holeOutOfRange(let hole, let holeCount):
            "Hole \(hole) is not on this course; holes are 1...\(holeCount)."
        case .tooManyPlayers(let max):
            "A round has at most \(max.formatted()) players (a tournament pool); start one round per pool."
        }
    }
}
