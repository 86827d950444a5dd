import Foundation
import HyzerKit

/// Every frame on the link is one of these, encoded as `{"type": "...", "body": {...}}`.
public enum LinkMessage: Sendable, Hashable, Codable {
    /// watch → hub, first frame: who I am and the pairing token.
    case hello(Hello)
    /// hub → watch: paired.
    case welcome(Welcome)
    /// hub → watch: not paired, with the reason; the hub closes the connection after it.
    case refused(Refusal)
    /// watch → hub: a score from the outbox (transferUserInfo semantics).
    case score(ScoreEvent)
    /// hub → watch: the event is committed (or was already stored); the watch may drop it from its outbox.
    case ack(Ack)
    /// hub → watch: the event will never be accepted, with the reason; the watch keeps it in its rejected log.
    case rejected(Rejection)
    /// hub → watch: the current standings (sendMessage semantics, best effort).
    case standings(StandingsSnapshot)
    /// either way: I am still here.
    case heartbeat(Heartbeat)
    /// hub → watch, only to a watch whose hello said `complicationEnabled`: new content for the
    /// watch face's complications (transferCurrentComplicationUserInfo semantics: budgeted by the
    /// watch per day; past the budget it is delivered to the app and the face is not refreshed).
    case complication(ComplicationTransfer)

    public var type: MessageType {
        switch self {
        case .hello: .hello
        case .welcome: .welcome
        case .refused: .refused
        case .score: .score
        case .ack: .ack
        case .rejected: .rejected
        case .standings: .standings
        case .heartbeat: .heartbeat
        case .complication: .complication
        }
    }

    public enum MessageType: String, Sendable, Hashable, Codable, CaseIterable {
        case hello, welcome, refused, score, ack, rejected, standings, heartbeat, complication
    }

    private enum CodingKeys: String, CodingKey { case type, body }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(MessageType.self, forKey: .type)
        switch type {
        case .hello: self = try .hello(c.decode(Hello.self, forKey: .body))
        case .welcome: self = try .welcome(c.decode(Welcome.self, forKey: .body))
        case .refused: self = try .refused(c.decode(Refusal.self, forKey: .body))
        case .score: self = try .score(c.decode(ScoreEvent.self, forKey: .body))
        case .ack: self = try .ack(c.decode(Ack.self, forKey: .body))
        case .rejected: self = try .rejected(c.decode(Rejection.self, forKey: .body))
        case .standings: self = try .standings(c.decode(StandingsSnapshot.self, forKey: .body))
        case .heartbeat: self = try .heartbeat(c.decode(Heartbeat.self, forKey: .body))
        case .complication: self = try .complication(c.decode(ComplicationTransfer.self, forKey: .body))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .hello(let body): try c.encode(body, forKey: .body)
        case .welcome(let body): try c.encode(body, forKey: .body)
        case .refused(let body): try c.encode(body, forKey: .body)
        case .score(let body): try c.encode(body, forKey: .body)
        case .ack(let body): try c.encode(body, forKey: .body)
        case .rejected(let body): try c.encode(body, forKey: .body)
        case .standings(let body): try c.encode(body, forKey: .body)
        case .heartbeat(let body): try c.encode(body, forKey: .body)
        case .complication(let body): try c.encode(body, forKey: .body)
        }
    }
}

public struct Hello: Sendable, Hashable, Codable {
    public let protocolVersion: Int
    public let deviceID: String
    public let token: String
    /// True when the watch face shows one of the app's complications (WatchConnectivity's
    /// `isComplicationEnabled`): only then does the hub send complication transfers. Optional.
    public let complicationEnabled: Bool?
    /// Whose watch this is (a player's name, any case; at most 64 bytes): the player its
    /// complications show. Optional: without it, `watch-NAME` as `--wearer` makes it names
    /// the wearer, else the complications show the leader.
    public let wearer: String?

    public init(protocolVersion: Int = LinkProtocol.version, deviceID: String, token: String, complicationEnabled: Bool? = nil,
                wearer: String? = nil) {
        self.protocolVersion = protocolVersion
        self.deviceID = deviceID
        self.token = token
        self.complicationEnabled = complicationEnabled
        self.wearer = wearer
    }
}

public struct Welcome: Sendable, Hashable, Codable {
    public let protocolVersion: Int
    public let hubID: String
    /// How often the hub sends heartbeats; the watch calls the phone unreachable after three missed.
    public let heartbeatIntervalMillis: Int

    public init(protocolVersion: Int = LinkProtocol.version, hubID: String, heartbeatIntervalMillis: Int) {
        self.protocolVersion = protocolVersion
        self.hubID = hubID
        self.heartbeatIntervalMillis = heartbeatIntervalMillis
    }
}

public struct Refusal: Sendable, Hashable, Codable {
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        case wrongToken, unsupportedVersion, helloExpected
        /// The hello frame does not decode, or a field breaks its bound (deviceID 1...64 characters).
        case invalidHello
        /// The hub has as many connections waiting to pair as it allows; try again shortly.
        case busy
    }

    public let reason: Reason
    public let message: String

    public init(reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }
}

public struct Ack: Sendable, Hashable, Codable {
    /// The event's id exactly as the watch wrote it (a client may match acks by string).
    public let eventID: String
    /// True when the hub already held this event (a resend after a lost ack).
    public let alreadyStored: Bool
    /// What the score was against what the hub held (`newScore`, `silentMerge`, `correction`,
    /// `discrepancy`, `resolution`); absent for a resend. A watch shows a discrepancy as one.
    public let classification: ScoreClassification?

    public init(eventID: String, alreadyStored: Bool, classification: ScoreClassification? = nil) {
        self.eventID = eventID
        self.alreadyStored = alreadyStored
        self.classification = classification
    }

    public init(eventID: UUID, alreadyStored: Bool, classification: ScoreClassification? = nil) {
        self.init(eventID: eventID.uuidString, alreadyStored: alreadyStored, classification: classification)
    }

    /// Whether this answers `event` (ids compare as UUIDs, whatever their case).
    public func answers(_ event: ScoreEvent) -> Bool { UUID(canonicalString: eventID) == event.id }
}

public struct Rejection: Sendable, Hashable, Codable {
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        case noActiveRound, wrongRound, roundNotAcceptingScores, unknownPlayer, strokesOutOfRange, holeOutOfRange, invalidCorrection
        /// `reportedByPlayerID` is not a player of the round.
        case unknownReporter
        /// The score's `deviceID` is not the device that paired on this connection.
        case wrongDevice
        /// The score does not decode: a field missing or of the wrong type, an id that is not a
        /// UUID, a string over its length bound.
        case invalidScore
        /// The score is a resolution (`source: resolution`): discrepancies are settled on the
        /// phone (by the organizer), never from a watch.
        case resolutionNotAllowed
        /// The event's id is already in the log for another score (a resend must be the same event).
        case eventIDInUse
    }

    /// The event's id exactly as the watch wrote it ("" when the frame had no string id).
    public let eventID: String
    public let reason: Reason
    public let message: String

    public init(eventID: String, reason: Reason, message: String) {
        self.eventID = eventID
        self.reason = reason
        self.message = message
    }

    public init(eventID: UUID, reason: Reason, message: String) {
        self.init(eventID: eventID.uuidString, reason: reason, message: message)
    }

    /// Whether this answers `event` (ids compare as UUIDs, whatever their case).
    public func answers(_ event: ScoreEvent) -> Bool { UUID(canonicalString: eventID) == event.id }
}

public struct Heartbeat: Sendable, Hashable, Codable {
    public let sentAt: Date
    /// From the hub: the sequence of its newest snapshot, so a watch showing that sequence knows
    /// its standings are current even when nothing changed.
    public let sequence: Int?
    /// From the watch, optional: whether its app is in the foreground. The phone can reach the
    /// watch app with a live message only then (WatchConnectivity's `isReachable`, phone side).
    public let appActive: Bool?

    public init(sentAt: Date, sequence: Int? = nil, appActive: Bool? = nil) {
        self.sentAt = sentAt
        self.sequence = sequence
        self.appActive = appActive
    }
}

/// New content for the watch face's complications, and why the phone spent a transfer on it
/// (`ComplicationPolicy`).
public struct ComplicationTransfer: Sendable, Hashable, Codable {
    public let reason: ComplicationPolicy.Reason
    /// The standings sequence the content comes from, and when those standings were current.
    public let sequence: Int
    public let asOf: Date
    public let content: ComplicationContent

    public init(reason: ComplicationPolicy.Reason, sequence: Int, asOf: Date, content: ComplicationContent) {
        self.reason = reason
        self.sequence = sequence
        self.asOf = asOf
        self.content = content
    }
}
