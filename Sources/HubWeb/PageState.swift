import Foundation
import HubCore
import HyzerKit

/// Everything the phone's face shows, as one JSON document: sent whole on every change over the
/// WebSocket (`/live`) and by `GET /api/state`. The standings are the very snapshot the watches
/// are sent (`snapshot`), so the page and a watch never disagree about a standing; the rest is
/// what only the phone's screens show (each hole's scores and who gave them, the claims of a
/// discrepancy, courses for setup, history).
struct PageState: Encodable, Sendable {
    /// The snapshot's sequence: a reconnecting page asks for what is newer (`/live?after=N`).
    let sequence: Int
    let snapshot: StandingsSnapshot
    let round: PageRound?
    let courses: [PageCourse]
    /// The registered players this phone knows (setup offers them).
    let knownPlayers: [String]
    /// Finished rounds (history, and the summary card of the round just finished).
    let history: [FinishedRound]
    /// What changed since the state before, in the words the watch's VoiceOver says it
    /// (`Announcements.standingsChange`); nil when nothing a player hears changed.
    var announcement: String?
    /// The phone app's state (`hyzer-hub app`), as `hub/app-state.json` says it.
    let app: String?
    /// The cloud's sync state; nil when no cloud is set (a phone on its own).
    let sync: PageSync?

    // What is not there is `null`, as WEB.md says and standings.json does: a client reads one
    // shape (the synthesized encoding would leave the key out).
    private enum CodingKeys: String, CodingKey { case sequence, snapshot, round, courses, knownPlayers, history, announcement, app, sync }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(snapshot, forKey: .snapshot)
        try c.encode(round, forKey: .round)
        try c.encode(courses, forKey: .courses)
        try c.encode(knownPlayers, forKey: .knownPlayers)
        try c.encode(history, forKey: .history)
        try c.encode(announcement, forKey: .announcement)
        try c.encode(app, forKey: .app)
        try c.encode(sync, forKey: .sync)
    }

    struct PageRound: Encodable, Sendable {
        let id: UUID
        let courseName: String
        let status: RoundStatus
        let createdAt: Date
        let players: [PagePlayer]
        /// The score that counts for each {player, hole} scored so far.
        let scores: [PageScore]
        let discrepancies: [PageDiscrepancy]
        /// This phone's owner in the round (the "you" of the pill and the summary).
        let you: PlayerID
        /// nil when this phone may settle discrepancies; else who does ("the organizer (Jake's phone)").
        let settledBy: String?

        private enum CodingKeys: String, CodingKey { case id, courseName, status, createdAt, players, scores, discrepancies, you, settledBy }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(courseName, forKey: .courseName)
            try c.encode(status, forKey: .status)
            try c.encode(createdAt, forKey: .createdAt)
            try c.encode(players, forKey: .players)
            try c.encode(scores, forKey: .scores)
            try c.encode(discrepancies, forKey: .discrepancies)
            try c.encode(you, forKey: .you)
            try c.encode(settledBy, forKey: .settledBy)
        }
    }

    struct PagePlayer: Encodable, Sendable {
        let id: PlayerID
        let name: String
        /// As the pill shows it (`NameText.shortNames`): "Jake", "Sam K.".
        let shortName: String
        let guest: Bool
    }

    struct PageScore: Encodable, Sendable {
        let playerID: PlayerID
        let hole: Int
        let strokes: Int
        let eventID: UUID
        let deviceID: String
        /// Who reported it, by name (the hole card's "scored by").
        let reportedBy: String
    }

    struct PageDiscrepancy: Encodable, Sendable {
        let playerID: PlayerID
        let name: String
        let hole: Int
        let par: Int
        /// Every distinct claim in play, the counted one first.
        let claims: [Claim]

        struct Claim: Encodable, Sendable {
            let eventID: UUID
            let strokes: Int
            let reportedBy: String
            let deviceID: String
            let createdAt: Date
            let counted: Bool
        }
    }

    struct PageCourse: Encodable, Sendable {
        let name: String
        let holes: [Hole]
        var par: Int { holes.reduce(0) { $0 + $1.par } }

        private enum CodingKeys: String, CodingKey { case name, holes, par }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(holes, forKey: .holes)
            try c.encode(par, forKey: .par)
        }
    }
}

/// The cloud as the phone's face says it: honest about state, quiet about plumbing.
public struct PageSync: Encodable, Sendable {
    /// `idle`, `syncing`, `offline` or `error` (docs/SYNC.md).
    public var state: String
    public var detail: String?
    public var lastSyncAt: Date?
    /// Scores committed here and not yet in the cloud.
    public var eventsWaiting: Int

    public init(state: String, detail: String?, lastSyncAt: Date?, eventsWaiting: Int) {
        self.state = state
        self.detail = detail
        self.lastSyncAt = lastSyncAt
        self.eventsWaiting = eventsWaiting
    }
}

extension PageState {
    /// Reads the state from the hub: one snapshot (the watches' own) and the round in play's log.
    /// - history: the finished rounds, read by the caller (they change only when a round ends).
    static func read(from hub: Hub, snapshot: StandingsSnapshot, history: [FinishedRound], app: String?, sync: PageSync?) throws -> PageState {
        let (round, events) = try hub.eventLog()
        var page: PageRound?
        if let round, round.status != .completed {
            let ledger = ScoreLedger(events: events)
            let name = { (id: PlayerID) in round.player(id)?.name ?? id }
            let scores = ledger.currentScores.values
                .map { PageScore(playerID: $0.playerID, hole: $0.hole, strokes: $0.strokes, eventID: $0.id, deviceID: $0.deviceID,
                                 reportedBy: name($0.reportedByPlayerID)) }
                .sorted { ($0.hole, $0.playerID) < ($1.hole, $1.playerID) }
            let discrepancies = ConflictDetector.openDiscrepancies(in: events).map { discrepancy in
                PageDiscrepancy(playerID: discrepancy.playerID, name: name(discrepancy.playerID), hole: discrepancy.hole,
                                par: round.holes.first { $0.number == discrepancy.hole }?.par ?? 3,
                                claims: discrepancy.events.enumerated().map { index, event in
                                    .init(eventID: event.id, strokes: event.strokes, reportedBy: name(event.reportedByPlayerID),
                                          deviceID: event.deviceID, createdAt: event.createdAt, counted: index == 0)
                                })
            }
            page = PageRound(id: round.id, courseName: round.courseName, status: round.status, createdAt: round.createdAt,
                             players: zip(round.players, NameText.shortNames(round.players.map(\.name))).map { player, short in
                                 PagePlayer(id: player.id, name: player.name, shortName: short, guest: player.isGuest)
                             },
                             scores: scores, discrepancies: discrepancies, you: try hub.owner(in: round).id,
                             settledBy: try hub.settledElsewhere(round.id))
        }
        return PageState(sequence: snapshot.sequence, snapshot: snapshot, round: page,
                         courses: try hub.courses().map { PageCourse(name: $0.name, holes: $0.holes) }, knownPlayers: try hub.knownPlayers(),
                         history: history, announcement: nil, app: app, sync: sync)
    }
}
