import Foundation
import HyzerKit

/// The crown score input for one player on one hole (seeds/001, component 5).
public struct CrownEntry: Sendable, Hashable {
    public let playerID: PlayerID
    public let playerName: String
    public let hole: Int
    public let par: Int
    public var value: Int

    public var relativeToPar: Int { value - par }
}

public enum Screen: Sendable, Hashable {
    case leaderboard
    case crown(CrownEntry)
}

/// Rows sliding to new places after a reshuffle, and the ▲/▼ beside positions that moved.
public struct Reshuffle: Sendable, Hashable {
    public static let slideDuration: TimeInterval = 0.3
    public static let arrowDuration: TimeInterval = 1.5

    public let startedAt: Date
    /// Each moved player's row index before the change.
    public let fromRow: [PlayerID: Int]
    /// True for a player who moved up.
    public let movedUp: [PlayerID: Bool]
}

/// The visible pulse that stands in for the Taptic Engine on a desktop.
public struct HapticPulse: Sendable, Hashable {
    public static let duration: TimeInterval = 0.25
    public let kind: HapticKind
    public let at: Date
}

/// A short message across the bottom of the face.
public struct Banner: Sendable, Hashable {
    public enum Style: Sendable, Hashable { case info, success, failure }
    public let text: String
    public let style: Style
    public let until: Date
}

/// Everything the face shows, as a value. `WatchMachine` changes it; `WatchLayout` draws it.
public struct WatchState: Sendable, Hashable {
    public static let staleAfter: TimeInterval = 30

    public var screen: Screen = .leaderboard
    public var snapshot: StandingsSnapshot?
    /// When the shown standings were last known to be current, on the watch's clock.
    public var freshAt: Date?
    public var reachable = false
    /// The first leaderboard row on screen (the crown scrolls when rows overflow).
    public var scrollRow = 0
    public var crown = CrownAccumulator()
    public var reshuffle: Reshuffle?
    public var pulse: HapticPulse?
    public var banner: Banner?
    /// Scores saved on the watch and not yet acked by the hub.
    public var pendingTransfers = 0
    /// Why the last read of `standings.json` failed, if it did.
    public var snapshotProblem: String?
    public let deviceID: String
    /// Whose watch this is: the reporter of its scores (nil: each score is reported as its player's own).
    public let wearerID: PlayerID?
    public let reduceMotion: Bool

    public init(deviceID: String, wearerID: PlayerID? = nil, reduceMotion: Bool = false) {
        self.deviceID = deviceID
        self.wearerID = wearerID
        self.reduceMotion = reduceMotion
    }

    public var round: RoundSnapshot? { snapshot?.round }

    /// `leaderboard`, `crown` or `no-round` (the names scenario scripts use).
    public var screenName: String {
        switch screen {
        case .crown: "crown"
        case .leaderboard: round == nil ? "no-round" : "leaderboard"
        }
    }

    /// Seconds since the standings were last known current; nil before any snapshot.
    public func age(at now: Date) -> TimeInterval? {
        freshAt.map { max(0, now.timeIntervalSince($0)) }
    }

    /// Stale once the standings are more than 30 s old.
    public func isStale(at now: Date) -> Bool {
        guard let age = age(at: now) else { return false }
        return age > Self.staleAfter
    }

    /// Whether anything on the face moves by itself right now (drives the frame clock).
    public func isAnimating(at now: Date) -> Bool {
        if let pulse, now.timeIntervalSince(pulse.at) < HapticPulse.duration { return true }
        if let reshuffle, now.timeIntervalSince(reshuffle.startedAt) < Reshuffle.arrowDuration { return true }
        return false
    }
}
