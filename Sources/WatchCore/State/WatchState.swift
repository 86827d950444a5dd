import Foundation
import HyzerKit

/// The crown score input for one player on one hole (seeds/001, component 5).
public struct CrownEntry: Sendable, Hashable {
    public let playerID: PlayerID
    public let playerName: String
    public let hole: Int
    public let par: Int
    public var value: Int
    /// The score this hole already has (the watch's own unsent one first): what Save supersedes,
    /// so re-scoring is a correction, never a disagreement with itself.
    public var supersedes: UUID? = nil
    /// Who reported that score, for the screen.
    public var scoredBy: Scorer? = nil
    public var scoredStrokes: Int? = nil
    /// Another device scored this hole differently and the discrepancy is still open (from the
    /// standings' disputes, or the hub's answer to this watch's score).
    public var disputed = false
    /// This watch's score in play for the hole, and the one that counts: what Save decides from
    /// (`ScoreWrite.plan`: the strokes either already says record nothing).
    public var own: ScoreClaim? = nil
    public var counted: ScoreClaim? = nil
    /// While disputed: every score in play, shown ("3 Sarah · 4 Jake") and spoken, the counted first.
    public var claims: [ClaimLine] = []

    public var relativeToPar: Int { value - par }
}

/// One score in play on a disputed hole, and who said it.
public struct ClaimLine: Sendable, Hashable {
    public let strokes: Int
    public let who: Scorer
}

/// Who said a score, as the watch names them: itself, the phone, or someone else (a player's
/// name, another device's id).
public enum Scorer: Sendable, Hashable {
    case thisWatch
    case phone
    case other(String)

    /// The device `deviceID`, seen from the watch `ownDeviceID`.
    init(deviceID: String, ownDeviceID: String) {
        self = deviceID == ownDeviceID ? .thisWatch : deviceID == "phone" ? .phone : .other(deviceID)
    }

    /// "this watch", "phone", or the name.
    public var name: String {
        switch self {
        case .thisWatch: "this watch"
        case .phone: "phone"
        case .other(let name): name
        }
    }
}

public enum Screen: Sendable, Hashable {
    case leaderboard
    case crown(CrownEntry)
    /// The standings of a round the phone just finished, until the wearer goes back.
    case final
    /// Scores heard from a transcript, waiting to auto-save.
    case voice(VoiceOverlay)
}

/// Rows sliding to new places after a reshuffle, and the ▲/▼ beside positions that moved
/// (seeds/001: a 0.3 s slide, staggered 20 ms a row; arrows fade out after 1.5 s). With reduce
/// motion the rows change places at once and the old order crossfades into the new.
public struct Reshuffle: Sendable, Hashable {
    public static let slideDuration: TimeInterval = 0.3
    public static let stagger: TimeInterval = 0.02
    public static let arrowDuration: TimeInterval = 1.5
    public static let arrowFade: TimeInterval = 0.3
    public static let crossfadeDuration: TimeInterval = 0.2

    public let startedAt: Date
    /// Where each row was on screen when the change arrived, in rows from the top of the list
    /// (fractional mid-slide: a second change retargets from there, it never jumps back).
    public let fromRow: [PlayerID: Double]
    /// True for a player who moved up.
    public let movedUp: [PlayerID: Bool]
    /// The standings before the change (what reduce motion's crossfade fades out).
    public let previous: [Standing]
    /// Each moving row's start delay: 20 ms a row, in the order they end up.
    public let delay: [PlayerID: TimeInterval]

    public init(startedAt: Date, fromRow: [PlayerID: Double], movedUp: [PlayerID: Bool], previous: [Standing], newOrder: [PlayerID]) {
        self.startedAt = startedAt
        self.fromRow = fromRow
        self.movedUp = movedUp
        self.previous = previous
        var delay: [PlayerID: TimeInterval] = [:]
        var moving = 0
        for (index, id) in newOrder.enumerated() where (fromRow[id] ?? Double(index)) != Double(index) {
            delay[id] = Double(moving) * Self.stagger
            moving += 1
        }
        self.delay = delay
    }

    /// Where `player` (now at `index`) is on screen at `now`, in rows from the top of the list.
    public func row(of player: PlayerID, index: Int, at now: Date) -> Double {
        let from = fromRow[player] ?? Double(index)
        let t = min(1, max(0, (now.timeIntervalSince(startedAt) - (delay[player] ?? 0)) / Self.slideDuration))
        let eased = 1 - pow(1 - t, 3)  // decelerates to rest, never overshoots
        return from + (Double(index) - from) * eased
    }

    /// How long the slide of every row takes, stagger included.
    public var slideEnd: TimeInterval { (delay.values.max() ?? 0) + Self.slideDuration }

    /// The arrows' opacity at `now`: full for 1.5 s, then fading out over 0.3 s.
    public func arrowOpacity(at now: Date) -> Double {
        let t = now.timeIntervalSince(startedAt)
        if t < Self.arrowDuration { return 1 }
        return max(0, 1 - (t - Self.arrowDuration) / Self.arrowFade)
    }

    /// Whether anything of it still moves or fades at `now`.
    public func isRunning(at now: Date) -> Bool {
        now.timeIntervalSince(startedAt) < Self.arrowDuration + Self.arrowFade
    }

    /// Everything settles within this long of a change.
    public static let settleTime: TimeInterval = arrowDuration + arrowFade
}

/// The visible pulse that stands in for the Taptic Engine on a desktop.
public struct HapticPulse: Sendable, Hashable {
    public static let duration: TimeInterval = 0.25
    public let kind: HapticKind
    public let at: Date
}

/// A score the phone refused, as the face tells it: whose and which hole, and why in a few words.
public struct RefusedScore: Sendable, Hashable {
    public let score: String
    public let reason: String
    /// The same read aloud: "Jake, 3 on hole 4", and why in a sentence.
    public let spoken: String
    public let spokenReason: String
}

/// A short message across the bottom of the face.
public struct Banner: Sendable, Hashable {
    public enum Style: Sendable, Hashable {
        case info, success, failure
        /// A dispute: the status hue the row's badge has (one colour for one meaning).
        case status
    }
    public let text: String
    public let style: Style
    public let until: Date
    /// The disputed hole a dispute's banner is about: it goes when the phone's standings settle it.
    public var dispute: ScoreKey? = nil
    /// Shorter forms of `text`, tried in order when it does not fit on one line ("Saved 4
    /// scores" for a long list): cutting a list would leave what reads as another score.
    public var shorter: [String] = []
}

/// Everything the face shows, as a value. `WatchMachine` changes it; `WatchLayout` draws it.
public struct WatchState: Sendable, Hashable {
    public static let staleAfter: TimeInterval = 30

    public var screen: Screen = .leaderboard
    public var snapshot: StandingsSnapshot?
    /// When the shown standings were last known to be current, on the watch's clock.
    public var freshAt: Date?
    public var reachable = false
    /// Whether standings have come over the link since this watch started (not only from its
    /// container): what a script's `wait-snapshot` waits for.
    public var heardFromPhone = false
    /// Scores from this watch the phone has acked since the watch started.
    public var delivered = 0
    /// The watch app is in the background: the watch face shows, and the app gets no live
    /// message (standings pushed meanwhile are dropped; the latest arrives as application context
    /// when the app is in front again).
    public var appInBackground = false
    /// Live messages dropped since the watch started because the app was in the background.
    public var droppedLiveMessages = 0
    /// Whether the link has said anything yet: "No phone" shows only once a connection attempt
    /// failed or the link went quiet, never while the first one is under way.
    public var linkKnown = false
    /// Paired, and the standings the hub sends at once after `welcome` (or a heartbeat) not yet
    /// here: what the watch shows may be about to be confirmed, so it is not called stale yet.
    public var awaitingPairedStandings = false
    /// The first leaderboard row on screen (the crown scrolls when rows overflow).
    public var scrollRow = 0
    public var crown = CrownAccumulator()
    /// When the crown last pressed past the end of the score range (see `limitPulse`).
    public var crownAtLimitSince: Date?
    public var reshuffle: Reshuffle?
    public var pulse: HapticPulse?
    public var banner: Banner?
    /// The refusals the failure banner tells of now ("Jake · hole 4"), with their short reasons:
    /// refusals arriving together (a queue drained after the round changed) are one banner.
    public var refusals: [RefusedScore] = []
    /// Refusals came while the app was in the background (not running: nothing felt or said):
    /// told when it is in front again, as a queued transfer reaches an app once it runs.
    public var refusalsUntold = false
    /// Scores saved on the watch and not yet acked by the hub.
    public var pendingTransfers = 0
    /// Those scores themselves, oldest first: their rows are marked pending.
    public var pendingScores: [ScoreEvent] = []
    /// {player, hole} where the hub classified a score from this watch as a discrepancy, while the
    /// standings still flag that player: a score screen opened there says it is disputed.
    public var disputedKeys: Set<ScoreKey> = []
    /// Saved scores that could not be read back from the outbox (moved to its quarantine).
    public var unreadableScores = 0
    /// The last round the phone finished, shown as "Final" and then summed up on "No active round".
    public var finishedRound: RoundSnapshot?
    /// When this watch learned the round had finished (its date on the summary).
    public var finishedAt: Date?
    /// The text line the window's voice key opens, as typed so far (nil: closed).
    public var voiceDraft: String?
    /// Why the last read of `standings.json` failed, if it did.
    public var snapshotProblem: String?
    /// Why the link cannot start yet (face text, short), until it pairs.
    public var pairingProblem: String?
    public let deviceID: String
    /// Whose watch this is: the reporter of its scores (nil: each score is reported as its player's own).
    public var wearerID: PlayerID?
    /// The wearer's name as given (`--wearer`), matched to a player when standings arrive.
    public var wearerName: String?
    /// The round in which the wearer's name matched nobody (said once).
    public var wearerMissingIn: UUID?
    public var reduceMotion: Bool
    /// The text size setting: type scales, rows re-fit.
    public var textSize: TextSize
    /// Wrist down: the always-on display (dimmed, at most one update a minute).
    public var wristDown = false
    /// When the wrist last dropped (while `wristDown`): Return to Clock counts from it.
    public var wristDroppedAt: Date?
    /// watchOS's Return to Clock (`--return-to-clock`).
    public var returnToClock = ReturnToClock.standard

    /// When Return to Clock sends the app to the background, if it is to.
    public var returnsToClockAt: Date? {
        guard wristDown, !appInBackground, let dropped = wristDroppedAt, case .after(let seconds) = returnToClock else { return nil }
        return dropped.addingTimeInterval(seconds)
    }
    /// The last crown detent that scrolled the list, and how many came in quick succession: turning
    /// the crown fast scrolls further per detent.
    public var lastScrollAt: Date?
    public var scrollStreak = 0
    /// Whether "standings out of date" has been said for the current standings.
    public var staleAnnounced = false
    /// Standings that arrived and moved players, not yet felt or said: a burst of arrivals (a
    /// reconnection, a queue draining) is one haptic and one announcement for the net change,
    /// once arrivals have settled.
    public var news: News?
    /// What the watch face's Hyzer complications show (nil: nothing yet).
    public var complication: ShownComplication?
    /// Complication transfers taken today, against the daily budget.
    public var complicationBudget: ComplicationBudget
    /// Complication transfers received since the watch started (delivered or over the budget).
    public var complicationTransfers = 0

    public init(deviceID: String, wearerID: PlayerID? = nil, wearerName: String? = nil, reduceMotion: Bool = false,
                textSize: TextSize = .standard, complicationBudget: ComplicationBudget = ComplicationBudget()) {
        self.complicationBudget = complicationBudget
        self.deviceID = deviceID
        self.wearerID = wearerID
        self.wearerName = wearerName
        self.reduceMotion = reduceMotion
        self.textSize = textSize
    }

    /// The face's metrics for `size` at this state's text size.
    public func metrics(_ size: WatchSize) -> WatchMetrics { WatchMetrics(size: size, textSize: textSize) }

    /// Whether a score for {player, hole} is saved here and not yet acked.
    /// A player's name as the watch last knew it (the round in play, else the finished one), or
    /// their id when it knows no such player.
    public func name(of playerID: PlayerID) -> String {
        (round ?? finishedRound)?.standings.first { $0.playerID == playerID }?.name ?? playerID
    }

    /// Whether a score of this player's (on any hole) waits in the outbox: the row's status ring.
    public func isPending(_ playerID: PlayerID) -> Bool {
        pendingScores.contains { $0.playerID == playerID }
    }

    public var round: RoundSnapshot? { snapshot?.round }

    /// `leaderboard`, `crown`, `voice`, `final` or `no-round` (the names scenario scripts use).
    public var screenName: String {
        if appInBackground { return "watch-face" }
        return switch screen {
        case .crown: "crown"
        case .final: "final"
        case .voice: "voice"
        case .leaderboard: round == nil ? "no-round" : "leaderboard"
        }
    }

    /// Seconds since the standings were last known current; nil before any snapshot.
    public func age(at now: Date) -> TimeInterval? {
        freshAt.map { max(0, now.timeIntervalSince($0)) }
    }

    /// Stale once the standings are more than 30 s old. Not judged while the link is still
    /// finding out whether the phone is there (its first attempt, or the moment between pairing and
    /// the standings that follow): standings read from the file at start are not called out of
    /// date just before the phone confirms them.
    public func isStale(at now: Date) -> Bool {
        guard judgesStaleness, let age = age(at: now) else { return false }
        return age > Self.staleAfter
    }

    var judgesStaleness: Bool { linkKnown && !awaitingPairedStandings }

    /// Whether anything on the face moves by itself right now (drives the frame clock).
    public func isAnimating(at now: Date) -> Bool {
        if isMoving(at: now) { return true }
        if case .voice(let overlay) = screen, overlay.deadline != nil { return true }  // the countdown bar
        return false
    }

    /// Whether motion that settles by itself runs (pulse, slide, arrows): what a screenshot waits out.
    public func isMoving(at now: Date) -> Bool {
        if let pulse, now.timeIntervalSince(pulse.at) < HapticPulse.duration { return true }
        if let reshuffle, reshuffle.isRunning(at: now) { return true }
        return false
    }

    /// How long the "5–8 of 20" position stays up after the list scrolls.
    public static let scrollPositionShown: TimeInterval = 1.2

    /// When the face changes by itself next without moving (the scroll position label going away).
    public func nextStillChange(after now: Date) -> Date? {
        guard let lastScrollAt else { return nil }
        let end = lastScrollAt.addingTimeInterval(Self.scrollPositionShown)
        return end > now ? end : nil
    }

    /// When something happens by itself next (the voice overlay's auto-save, saying the standings
    /// turned stale, Return to Clock), if anything does.
    /// Scores from this watch are on their way to a phone in range: the standings each brings are
    /// part of the same burst.
    public var drainingOwnQueue: Bool { reachable && !pendingScores.isEmpty }

    public var nextTimer: Date? {
        var due: [Date] = []
        if let news { due.append(news.due(drainingOwnQueue: drainingOwnQueue)) }
        if case .voice(let overlay) = screen, let deadline = overlay.deadline { due.append(deadline) }
        // Saying "out of date" once the standings turn stale.
        if !staleAnnounced, round != nil, judgesStaleness, let freshAt { due.append(freshAt.addingTimeInterval(Self.staleAfter + 0.001)) }
        if let returnsToClockAt { due.append(returnsToClockAt) }
        return due.min()
    }
}

/// Standings changes not yet felt or said, since `from` (the round as the wearer last heard it).
public struct News: Sendable, Hashable {
    public let from: RoundSnapshot
    /// When the first of these arrivals came: a stream of arrivals is told at most a second after it.
    public let since: Date
    /// When the latest came.
    public var last: Date

    /// When the news is told: once arrivals have settled (none for `WatchMachine.arrivalsSettle`),
    /// at most a second after the first. While this watch's own queued scores are still going out,
    /// the burst is not over (each of them brings standings, however slowly the phone stores them):
    /// it is told once they are out, at most `WatchMachine.drainingHold` after the first arrival.
    public func due(drainingOwnQueue: Bool) -> Date {
        drainingOwnQueue ? since.addingTimeInterval(WatchMachine.drainingHold)
            : min(last.addingTimeInterval(WatchMachine.arrivalsSettle), since.addingTimeInterval(1))
    }
}

/// watchOS's Return to Clock (Settings › General): how long after the wrist drops the watch face
/// comes back, the app going to the background (where live messages to it are dropped).
public enum ReturnToClock: Sendable, Hashable {
    case after(TimeInterval)
    /// The app stays in front, as one a workout session keeps there.
    case never

    /// watchOS's default: two minutes.
    public static let standard = ReturnToClock.after(120)

    /// `always` (at once), `never`, or a duration: `2m` (the default), `1h`, `90s`.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "always": self = .after(0)
        case "never": self = .never
        default:
            guard let seconds = try? ScenarioScript.duration(argument) else { return nil }
            self = .after(seconds)
        }
    }
}
