import Foundation
import HyzerKit
import HyzerLink

/// What reaches the watch: the wearer's hands (already turned from SDL events into watch terms by
/// the host) and the phone (through the link and the shared file).
public enum WatchInput: Sendable, Hashable {
    /// Crown rotation in detents; fractions accumulate (a precise wheel).
    case crown(detents: Double)
    case tap(Point)
    case back
    case save
    /// On crown score input: score another hole for the same player (+1 the next, −1 the one
    /// before), within the course.
    case pickHole(delta: Int)
    /// A transcript to score by voice ("Jake 4, Sarah birdie"): opens the confirmation overlay.
    case voice(String)
    /// The window's voice text line: its text as typed so far, or nil to close it.
    case voiceDraft(String?)
    /// Time passed: whatever was due (the overlay's auto-save, saying the standings went stale) happens now.
    case clock
    /// The watch's clock was set back by this many seconds (`set-clock` to an earlier time). No
    /// time is taken back: what the face dates by it (how old the standings are, the watch face's
    /// "Updated", Return to Clock) keeps the age it had.
    case clockSetBack(TimeInterval)
    /// Scroll the leaderboard just enough to show this row (index into the standings).
    case scrollTo(row: Int)
    /// Wrist up or down: down is the always-on display (dimmed, updated at most once a minute).
    case wrist(up: Bool)
    /// The watch app to the foreground, or to the background (the watch face shows; the app sees
    /// no live message until it is in front again).
    case app(foreground: Bool)
    /// A live message (standings) reached the watch while the app was in the background, and was dropped.
    case liveMessageDropped
    /// The text size setting.
    case textSize(TextSize)
    /// Reduce motion on or off.
    case reduceMotion(Bool)
    /// Standings from `standings.json` (fresh as of its `lastUpdatedAt`).
    case snapshot(StandingsSnapshot)
    /// Standings pushed by the phone just now: news, so fresh now whatever their age.
    case pushed(StandingsSnapshot)
    case snapshotUnreadable(String)
    /// The link cannot start: no pairing token (no hub at this home yet, or a mistyped --home).
    /// The face says so while it waits.
    case notPaired(String)
    /// The hub is alive and its newest snapshot has this sequence.
    case heartbeat(sequence: Int?)
    case reachability(Bool)
    /// The outbox holds this many scores not yet acked.
    case pendingTransfers(Int)
    /// The outbox holds these scores, oldest first.
    case pending([ScoreEvent])
    /// The hub committed a score from this watch; a `discrepancy` disagrees with another device.
    case acked(ScoreEvent, ScoreClassification?)
    /// The hub refused a score from this watch (kept in `watch/rejected.jsonl`, never sent again).
    case rejected(ScoreEvent, Rejection)
    /// Writing a saved score to the outbox failed: it was not saved.
    case saveFailed(String)
    /// The hub refused to pair (wrong token, unsupported version).
    case pairingRefused(String)
    /// A complication transfer from the phone: refreshes the watch face within the day's budget.
    case complication(ComplicationTransfer)
}

/// What the watch does about an input, performed by the shell in order.
public enum WatchEffect: Sendable, Hashable {
    /// Put the score in the durable outbox (fsync) and wake the link.
    case enqueue(ScoreEvent)
    case haptic(HapticKind, value: Int?)
    case announce(String)
    /// Append to `watch/complications.jsonl`.
    case logComplication(ComplicationRecord)
}

/// What a reduction needs from outside: the watch's clock and fresh ids.
public struct WatchEnvironment: Sendable {
    public var now: Date
    /// Converts a hub timestamp to the watch's clock (adds any `advance-clock` offset).
    public var hubTimeToWatchTime: @Sendable (Date) -> Date
    /// A new score's id; by default a time-ordered one made now (`UUID.timeOrdered(at:)`), as
    /// every score event gets.
    public var makeID: @Sendable () -> UUID
    public var size: WatchSize

    public init(now: Date, size: WatchSize = .mm45, hubTimeToWatchTime: @escaping @Sendable (Date) -> Date = { $0 },
                makeID: @escaping @Sendable () -> UUID = { UUID.timeOrdered(at: Date()) }) {
        self.now = now
        self.size = size
        self.hubTimeToWatchTime = hubTimeToWatchTime
        self.makeID = makeID
    }
}
