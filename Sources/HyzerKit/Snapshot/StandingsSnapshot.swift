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
    /// With no round active: the last round finished, with its final standings, until another
    /// starts (absent otherwise). A watch that was away when the round finished shows it from here.
    public let finishedRound: RoundSnapshot?

    public init(schemaVersion: Int = currentSchemaVersion, hubID: String, sequence: Int, lastUpdatedAt: Date, round: RoundSnapshot?,
                finishedRound: RoundSnapshot? = nil) {
        self.schemaVersion = schemaVersion
        self.hubID = hubID
        self.sequence = sequence
        self.lastUpdatedAt = lastUpdatedAt
        self.round = round
        self.finishedRound = round == nil ? finishedRound : nil
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

    private enum CodingKeys: String, CodingKey {
        case id, courseName, status, currentHole, holeCount, holes, standings
    }

    /// The round's id as the schema writes it (`strictUUID`); the rest as written.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(id: c.strictUUID(forKey: .id), courseName: c.decode(String.self, forKey: .courseName),
                      status: c.decode(RoundStatus.self, forKey: .status), currentHole: c.decode(Int.self, forKey: .currentHole),
                      holeCount: c.decode(Int.self, forKey: .holeCount), holes: c.decode([Hole].self, forKey: .holes),
                      standings: c.decode([Standing].self, forKey: .standings))
    }

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

extension StandingsSnapshot {
    /// What in this snapshot breaks the bounds of `standings.schema.json` (a sequence below 0, a
    /// position of 0, a name with a control character…), or nil. The hub never writes such a
    /// snapshot; a watch keeps what it shows rather than take one.
    public var schemaViolation: String? {
        guard schemaVersion == Self.currentSchemaVersion else {
            return "schemaVersion is \(schemaVersion); this reader reads \(Self.currentSchemaVersion)"
        }
        guard sequence >= 0 else { return "sequence is \(sequence); it counts from 0" }
        guard !hubID.isEmpty else { return "hubID is empty" }
        if round != nil, finishedRound != nil { return "finishedRound is given with a round active; it is only there when round is null" }
        if let round, let problem = Self.violation(in: round, at: "round") { return problem }
        if let finishedRound, let problem = Self.violation(in: finishedRound, at: "finishedRound") { return problem }
        return nil
    }

    /// What in one round of a snapshot breaks the schema's bounds; `at` names where it is.
    private static func violation(in round: RoundSnapshot, at name: String) -> String? {
        guard !round.courseName.isEmpty else { return "\(name).courseName is empty" }
        guard round.holeCount >= 1 else { return "\(name).holeCount is \(round.holeCount); a round has at least one hole" }
        guard round.currentHole >= 1 else { return "\(name).currentHole is \(round.currentHole); holes are numbered from 1" }
        for (index, hole) in round.holes.enumerated() {
            guard hole.number >= 1 else { return "\(name).holes[\(index)].number is \(hole.number); holes are numbered from 1" }
            guard Hole.allowedPar.contains(hole.par) else {
                return "\(name).holes[\(index)].par is \(hole.par); par is \(Hole.allowedPar.lowerBound) to \(Hole.allowedPar.upperBound)"
            }
        }
        for (index, standing) in round.standings.enumerated() {
            let at = "\(name).standings[\(index)]"
            guard !standing.playerID.isEmpty, standing.playerID.utf8.count <= ScoreEvent.maxPlayerIDLength else {
                return "\(at).playerID is not 1 to \(ScoreEvent.maxPlayerIDLength) bytes"
            }
            guard Self.isName(standing.name) else { return "\(at).name is empty or holds a control character" }
            if let position = standing.position, position < 1 { return "\(at).position is \(position); positions start at 1" }
            guard standing.totalStrokes >= 0 else { return "\(at).totalStrokes is \(standing.totalStrokes); it is 0 or more" }
            guard standing.holesPlayed >= 0 else { return "\(at).holesPlayed is \(standing.holesPlayed); it is 0 or more" }
            if let strokes = standing.currentHoleStrokes, !Strokes.allowed.contains(strokes) {
                return "\(at).currentHoleStrokes is \(strokes); strokes are \(Strokes.allowed.lowerBound) to \(Strokes.allowed.upperBound)"
            }
            for (number, dispute) in standing.disputes.enumerated() {
                guard dispute.hole >= 1 else { return "\(at).disputes[\(number)].hole is \(dispute.hole); holes are numbered from 1" }
                if let claim = dispute.claims.first(where: { !Strokes.allowed.contains($0.strokes) }) {
                    return "\(at).disputes[\(number)] claims \(claim.strokes) strokes; strokes are \(Strokes.allowed.lowerBound) to \(Strokes.allowed.upperBound)"
                }
            }
        }
        return nil
    }

    private static func isName(_ text: String) -> Bool {
        !text.isEmpty && !text.containsControlCharacter
    }
}
