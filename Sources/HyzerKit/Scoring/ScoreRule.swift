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

/// The scoring rule over the state (docs/SYNC.md, "Which score counts"), as a function of one
/// {player, hole}'s history in log order. This is the reference: the ledger keeps the same answer
/// event by event (`KeyHistory`), and property tests hold the two equal.
///
/// - A score is **in play** unless a later resolution settled it (a resolution settles everything
///   before it in the log) or an event retires it: one that names it (`supersedesEventID`) and
///   is a resolution or comes from the same device. Another device naming a score disputes it
///   (the seeds' case 4); only its own device or a resolution can take it back.
/// - The first score in play, in log order, **counts**.
/// - Whenever the scores in play disagree, a **discrepancy** is open, listing all of them.
public enum ScoreRule {
    /// Whether `later` takes `earlier` out of play.
    public static func retires(_ later: ScoreEvent, _ earlier: ScoreEvent) -> Bool {
        later.supersedesEventID == earlier.id && (later.source == .resolution || later.deviceID == earlier.deviceID)
    }

    /// The scores in play of one {player, hole}, in log order.
    public static func inPlay(ofHistory history: [ScoreEvent]) -> [ScoreEvent] {
        let settled = history.lastIndex { $0.source == .resolution } ?? 0
        return history[settled...].filter { event in !history.contains { retires($0, event) } }
    }

    /// What the rule says of one {player, hole}, given its history in log order.
    public static func state(ofHistory history: [ScoreEvent]) -> ScoreState {
        ScoreState(inPlay: inPlay(ofHistory: history))
    }

    /// The score that counts for {player, hole} in a log of any events, or nil when none does.
    public static func currentScore(for playerID: PlayerID, hole: Int, in events: [ScoreEvent]) -> ScoreEvent? {
        state(ofHistory: events.filter { $0.playerID == playerID && $0.hole == hole }).counted
    }

    /// Every {player, hole} with a score that counts.
    public static func scoredKeys(in events: [ScoreEvent]) -> Set<ScoreKey> {
        Set(ScoreLedger(events: events).currentScores.keys)
    }
}

/// One {player, hole} as the rule sees it: the scores in play, the one that counts, and whether
/// they disagree.
public struct ScoreState: Sendable, Hashable {
    /// In log order; the first counts.
    public let inPlay: [ScoreEvent]

    public init(inPlay: [ScoreEvent]) { self.inPlay = inPlay }

    /// The score the standings count, or nil when the hole has none.
    public var counted: ScoreEvent? { inPlay.first }

    /// The distinct strokes in play, the counted one first.
    public var claimedStrokes: [Int] {
        var seen: [Int] = []
        for event in inPlay where !seen.contains(event.strokes) { seen.append(event.strokes) }
        return seen
    }

    /// The scores in play disagree: a discrepancy is open until a resolution or an agreeing
    /// correction settles it.
    public var isDisputed: Bool { inPlay.contains { $0.strokes != inPlay[0].strokes } }

    /// The last score in play from `deviceID`: what that device's next correction replaces.
    public func own(by deviceID: String) -> ScoreEvent? { inPlay.last { $0.deviceID == deviceID } }

    /// The other devices' scores in play that disagree with `strokes`.
    public func disagreeing(with strokes: Int, except deviceID: String) -> [ScoreEvent] {
        inPlay.filter { $0.deviceID != deviceID && $0.strokes != strokes }
    }
}

/// A score as the watch sees it in a snapshot: enough to decide what a Save records.
public struct ScoreClaim: Sendable, Hashable, Codable {
    public let eventID: UUID
    public let strokes: Int
    public let deviceID: String
    public let reportedByPlayerID: PlayerID

    public init(eventID: UUID, strokes: Int, deviceID: String, reportedByPlayerID: PlayerID) {
        self.eventID = eventID
        self.strokes = strokes
        self.deviceID = deviceID
        self.reportedByPlayerID = reportedByPlayerID
    }

    public init(_ event: ScoreEvent) {
        self.init(eventID: event.id, strokes: event.strokes, deviceID: event.deviceID, reportedByPlayerID: event.reportedByPlayerID)
    }

    private enum CodingKeys: String, CodingKey { case eventID, strokes, deviceID, reportedByPlayerID }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(eventID: c.strictUUID(forKey: .eventID), strokes: c.decode(Int.self, forKey: .strokes),
                      deviceID: c.decode(String.self, forKey: .deviceID), reportedByPlayerID: c.decode(String.self, forKey: .reportedByPlayerID))
    }
}

/// What a device entering a score for a {player, hole} records (docs/SYNC.md, "Entering a score").
public enum ScoreWrite: Sendable, Hashable {
    /// Append a score, superseding this event (nil: a first report from this device).
    case record(supersedes: UUID?)
    /// Nothing to record: the device already says these strokes, or they already count.
    case unchanged(ScoreClaim)
    /// A plain report (tap, voice) from a device that already said other strokes: a device never
    /// disagrees with itself, so it must correct instead.
    case contradictsOwn(ScoreClaim)
}

extension ScoreWrite {
    /// How the device means the strokes: a report of what it saw (`score`, voice: the same strokes
    /// another device reported are recorded as a second report) or a change to what counts
    /// (`correct`, the watch's Save: the strokes that already count record nothing).
    public enum Intent: Sendable { case report, correction }

    /// The one rule every input path follows.
    /// - own: this device's score in play; counted: the score that counts.
    public static func plan(strokes: Int, intent: Intent, own: ScoreClaim?, counted: ScoreClaim?) -> ScoreWrite {
        if let own {
            if own.strokes == strokes { return .unchanged(own) }
            return intent == .report ? .contradictsOwn(own) : .record(supersedes: own.eventID)
        }
        guard let counted else { return .record(supersedes: nil) }
        switch intent {
        case .report: return .record(supersedes: nil)
        case .correction: return counted.strokes == strokes ? .unchanged(counted) : .record(supersedes: counted.eventID)
        }
    }

    /// The same, against the state the hub holds.
    public static func plan(strokes: Int, intent: Intent, deviceID: String, state: ScoreState?) -> ScoreWrite {
        plan(strokes: strokes, intent: intent, own: state?.own(by: deviceID).map(ScoreClaim.init),
             counted: state?.counted.map(ScoreClaim.init))
    }
}
