import Foundation
import HyzerKit

/// Where this phone's cloud is and who owns the phone: kept in the hub's database
/// (`hyzer-hub cloud set`). The URL may hold a password; it is never printed (see `redactedURL`).
public struct CloudConfiguration: Sendable, Equatable {
    public let url: String
    /// The phone owner's display name: rounds naming this player are discovered and joined
    /// without a command, and this phone's scores are reported by them.
    public let player: String?

    public init(url: String, player: String?) {
        self.url = url
        self.player = player
    }

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
    /// The hub that started the round.
    public let organizerHubID: String
    public let organizerName: String?
    /// The round option of seed 002: any player's phone may resolve a discrepancy, not only the organizer's.
    public let anyPlayerResolves: Bool
    /// `active` or `completed`: the lifecycle decisions the cloud shares. Whether every hole is
    /// scored (awaiting finalization) each phone derives from the events.
    public let status: RoundStatus
    public let createdAt: Date

    public init(id: UUID, courseName: String, holes: [Hole], players: [Player], organizerHubID: String, organizerName: String?,
                anyPlayerResolves: Bool, status: RoundStatus, createdAt: Date) {
        self.id = id
        self.courseName = courseName
        self.holes = holes
        self.players = players
        self.organizerHubID = organizerHubID
        self.organizerName = organizerName
        self.anyPlayerResolves = anyPlayerResolves
        self.status = status
        self.createdAt = createdAt
    }
}

/// An event with its place in the cloud's order of its round (1, 2, 3, … with gaps allowed).
public struct CloudEvent: Sendable, Equatable {
    public let event: ScoreEvent
    public let cloudSeq: Int64

    public init(event: ScoreEvent, cloudSeq: Int64) {
        self.event = event
        self.cloudSeq = cloudSeq
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
    /// Every shared round with how far this phone has downloaded it.
    public var cursors: [UUID: Int64] = [:]

    public var isEmpty: Bool { roundsToUpload.isEmpty && completionsToUpload.isEmpty && eventsToUpload.isEmpty }
}

/// `hyzer-hub cloud status`: what is shared and what waits, read from the local store alone.
public struct CloudSummary: Sendable, Equatable {
    public var configuration: CloudConfiguration?
    public var sharedRounds: Int = 0
    public var roundsWaiting: Int = 0
    public var eventsWaiting: Int = 0
    /// Events the cloud refused for good, with the reason it gave.
    public var refused: [(eventID: String, reason: String)] = []

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.configuration == rhs.configuration && lhs.sharedRounds == rhs.sharedRounds && lhs.roundsWaiting == rhs.roundsWaiting
            && lhs.eventsWaiting == rhs.eventsWaiting && lhs.refused.map(\.eventID) == rhs.refused.map(\.eventID)
    }
}
