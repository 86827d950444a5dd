import Foundation
import HyzerKit

/// Where this phone's cloud is and who owns the phone: kept in the hub's database
/// (`hyzer-hub cloud set`). The URL may hold a password; it is never printed (see `redactedURL`).
public struct CloudConfiguration: Sendable, Equatable {
    public let url: String
    /// The phone owner's display name: rounds naming this player are discovered (and offered, or
    /// joined with `autoJoin`), and this phone's scores are reported by them.
    public let player: String?
    /// Join a discovered round that names the owner without asking (`cloud set --auto-join`).
    /// Any phone of the cloud can share a round naming anyone, so this trusts every phone of it.
    public let autoJoin: Bool

    public init(url: String, player: String?, autoJoin: Bool = false) {
        self.url = url
        self.player = player
        self.autoJoin = autoJoin
    }

    /// The role this phone logs in as: who the cloud records as the organizer of the rounds it shares.
    public var role: String? { URLComponents(string: url)?.user }

    /// The URL with its password replaced by `***`, safe to print and log.
    public var redactedURL: String { Self.redact(url) }

    public static func redact(_ url: String) -> String {
        if var components = URLComponents(string: url) {
            guard components.password != nil else { return url }
            components.password = "***"
            if let redacted = components.string { return redacted }
        }
        // Not a URL Foundation reads: hide whatever stands between "user:" and the last "@"
        // before the host, so a malformed URL's password is not printed either.
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<rest.index(after: colon)]) + "***" + String(url[at...])
    }
}

/// A round as the cloud holds it: what a phone needs to join it and score in it.
public struct CloudRound: Sendable, Equatable {
    public let id: UUID
    public let courseName: String
    public let holes: [Hole]
    /// In the organizer's order (the order standings break ties in).
    public let players: [Player]
    /// The role of the phone that shared the round, as the cloud recorded it (never a name the
    /// phone wrote): the one phone that resolves discrepancies unless `anyPlayerResolves`.
    public let organizer: String
    /// The organizer's display name, as their phone wrote it (shown, never trusted).
    public let organizerName: String?
    /// The round option of seed 002: any player's phone may resolve a discrepancy, not only the organizer's.
    public let anyPlayerResolves: Bool
    /// `active` or `completed`: the lifecycle decisions the cloud shares. Whether every hole is
    /// scored (awaiting finalization) each phone derives from the events.
    public let status: RoundStatus
    public let createdAt: Date
    /// The highest event number the cloud holds for the round (0: none yet).
    public let lastSeq: Int64

    public init(id: UUID, courseName: String, holes: [Hole], players: [Player], organizer: String, organizerName: String?,
                anyPlayerResolves: Bool, status: RoundStatus, createdAt: Date, lastSeq: Int64 = 0) {
        self.id = id
        self.courseName = courseName
        self.holes = holes
        self.players = players
        self.organizer = organizer
        self.organizerName = organizerName
        self.anyPlayerResolves = anyPlayerResolves
        self.status = status
        self.createdAt = createdAt
        self.lastSeq = lastSeq
    }

    /// A round read from the cloud, checked as a round made on this phone is: names are text
    /// (NameText), 1 to 36 holes of par 2 to 6, 1 to 50 players with distinct ids. Every phone
    /// applies the same checks, so a round that fails them is refused by every phone alike.
    public static func checked(id: UUID, courseName: String, pars: [Int], playerIDs: [String], playerNames: [String], organizer: String,
                               organizerName: String?, anyPlayerResolves: Bool, status: String, createdAt: String, lastSeq: Int64) throws(CloudRoundProblem) -> CloudRound {
        func refuse(_ problem: String) -> CloudRoundProblem { CloudRoundProblem(roundID: id, problem: problem) }
        if let problem = NameText.problem(courseName) { throw refuse("its course name: \(problem)") }
        if let organizerName, let problem = NameText.problem(organizerName) { throw refuse("its organizer's name: \(problem)") }
        guard Course.allowedHoleCount.contains(pars.count), pars.allSatisfy(Hole.allowedPar.contains) else {
            throw refuse("a course has \(Course.allowedHoleCount.lowerBound) to \(Course.allowedHoleCount.upperBound) holes of par 2 to 6")
        }
        guard (1...50).contains(playerIDs.count), playerIDs.count == playerNames.count, Set(playerIDs).count == playerIDs.count,
              Set(playerNames.map { $0.lowercased() }).count == playerNames.count else {
            throw refuse("a round has 1 to 50 players with distinct ids and names")
        }
        for (index, (playerID, name)) in zip(playerIDs, playerNames).enumerated() {
            guard playerID.utf8.count <= 128, !NameText.hasHiddenCharacters(playerID), !playerID.isEmpty else { throw refuse("player \(index + 1)'s id cannot be read") }
            if let problem = NameText.problem(name) { throw refuse("player \(index + 1)'s name: \(problem)") }
        }
        guard let status = RoundStatus(rawValue: status), status == .active || status == .completed,
              let created = HyzerJSON.parseTimestamp(createdAt), lastSeq >= 0 else { throw refuse("its status, time or numbering cannot be read") }
        return CloudRound(id: id, courseName: courseName, holes: pars.enumerated().map { Hole(number: $0.offset + 1, par: $0.element) },
                          players: zip(playerIDs, playerNames).map { Player(id: $0, name: $1) }, organizer: organizer, organizerName: organizerName,
                          anyPlayerResolves: anyPlayerResolves, status: status, createdAt: created, lastSeq: lastSeq)
    }

    /// What differs between this round and `first`, the same round as this phone first saw it:
    /// a round never changes once shared, so any difference is a cloud written around its rules.
    public func differences(from first: CloudRound) -> [String] {
        var differences: [String] = []
        if courseName != first.courseName || holes != first.holes { differences.append("course") }
        if players != first.players { differences.append("players") }
        if organizer != first.organizer { differences.append("organizer") }
        if anyPlayerResolves != first.anyPlayerResolves { differences.append("who resolves") }
        if first.status == .completed && status != .completed { differences.append("status (a completed round stays completed)") }
        return differences
    }
}

/// A round read from the cloud that no phone could hold, and why.
public struct CloudRoundProblem: Error, CustomStringConvertible, Sendable {
    public let roundID: UUID
    public let problem: String
    public var description: String { "round \(roundID.uuidString) in the cloud cannot be used: \(problem)" }
}

/// An event with its place in the cloud's order of its round (1, 2, 3, … with no gap).
public struct CloudEvent: Sendable, Equatable {
    public let event: ScoreEvent
    public let cloudSeq: Int64
    /// The role of the phone that uploaded it, as the cloud recorded it (nil: this phone's own
    /// upload, acknowledged). The event's `reportedBy` is only what that phone claims.
    public let uploadedBy: String?

    public init(event: ScoreEvent, cloudSeq: Int64, uploadedBy: String? = nil) {
        self.event = event
        self.cloudSeq = cloudSeq
        self.uploadedBy = uploadedBy
    }
}

/// One row of a round in the cloud, in its order: an event, or a row no phone could read
/// (written around the cloud's checks). Every phone skips the same unreadable rows.
public enum CloudRow: Sendable, Equatable {
    case event(CloudEvent)
    case unreadable(cloudSeq: Int64, eventID: UUID, reason: String)

    public var cloudSeq: Int64 {
        switch self {
        case .event(let event): event.cloudSeq
        case .unreadable(let seq, _, _): seq
        }
    }
}

/// The cloud's numbers of a round that this phone holds past a number: its own scores, numbered
/// by their upload while another phone's came first. A download reads up to them, not them
/// (docs/SYNC.md, "Download").
public struct HeldNumbers: Sendable, Equatable {
    /// The last number held with no gap after the one asked about (that one when the next is not held).
    public var end: Int64
    /// The first number held after `end`, or nil when there is none.
    public var next: Int64?

    public init(end: Int64, next: Int64?) {
        self.end = end
        self.next = next
    }
}

/// What the sync engine has to do for this phone, read in one transaction.
public struct CloudWork: Sendable {
    /// Shared rounds the cloud does not hold yet (uploaded before their events).
    public var roundsToUpload: [CloudRound] = []
    /// Shared rounds completed here whose completion the cloud has not recorded.
    public var completionsToUpload: [UUID] = []
    /// Events waiting to upload, in this phone's order (a correction after what it corrects).
    public var eventsToUpload: [ScoreEvent] = []
    /// The log's row of the last of them (the next read of the queue starts after it).
    public var lastEventRow: Int64?
    /// Every shared round with how far this phone has downloaded it.
    public var cursors: [UUID: Int64] = [:]
    /// Shared rounds finished here whose completion the cloud holds: only a late upload (a score
    /// made before the end by a phone that was offline) can still change them.
    public var settled: Set<UUID> = []
    /// The cloud configuration as it was read with the rest (the sync engine starts over when it changed).
    public var configuration: CloudConfiguration?
    /// Whether a round is in play here (a newly shared round is then not offered).
    public var roundInPlay = false
}

/// `hyzer-hub cloud status`: what is shared and what waits, read from the local store alone.
public struct CloudSummary: Sendable, Equatable {
    public var configuration: CloudConfiguration?
    public var sharedRounds: Int = 0
    public var roundsWaiting: Int = 0
    /// Rounds finished here whose end the cloud does not hold yet (the other phones play on).
    public var completionsWaiting: Int = 0
    public var eventsWaiting: Int = 0
    /// Events the cloud refused for good: which score ("Mike · hole 1: 3") and the reason it gave.
    public var refused: [(eventID: String, score: String, reason: String)] = []
    /// Rows of the cloud this phone (and every phone) skipped, with why.
    public var skipped: [(cloudSeq: Int64, eventID: String, reason: String)] = []

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.configuration == rhs.configuration && lhs.sharedRounds == rhs.sharedRounds && lhs.roundsWaiting == rhs.roundsWaiting
            && lhs.completionsWaiting == rhs.completionsWaiting
            && lhs.eventsWaiting == rhs.eventsWaiting && lhs.refused.map(\.eventID) == rhs.refused.map(\.eventID)
            && lhs.skipped.map(\.eventID) == rhs.skipped.map(\.eventID)
    }
}
