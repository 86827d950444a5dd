import HyzerKit
import NIOCore

/// Constants both ends of the link share (see docs/PROTOCOL.md). Defined once, here.
public enum LinkProtocol {
    /// The version this build speaks. Bump when a message changes incompatibly.
    public static let version = 1
    public static let supportedVersions: ClosedRange<Int> = 1...1
    /// Largest frame body either side accepts; a snapshot of several hundred players fits comfortably.
    public static let maxFrameBytes = 4 * 1024 * 1024
    /// How often the hub sends heartbeats unless told otherwise; its welcome tells the watch.
    public static let defaultHeartbeatInterval: TimeAmount = .seconds(1)
    /// The shortest heartbeat interval a hub may ask for (`serve --heartbeat`, the welcome's
    /// `heartbeatIntervalMillis`).
    public static let minimumHeartbeatMillis = 50
    /// Heartbeats that may go unanswered before either end calls the other unreachable.
    public static let missedHeartbeatsBeforeUnreachable: Int64 = 3
    /// The watch's reconnect delays grow from `backoffBase`, doubling, up to `backoffCap` (with jitter).
    public static let backoffBase: TimeAmount = .milliseconds(50)
    public static let backoffCap: TimeAmount = .seconds(2)
    /// How long the watch waits for the hub's welcome after its hello before it tries again.
    public static let handshakeTimeout: TimeAmount = .seconds(2)
    /// Before hello, a frame may be no larger than this: a hello is well under 1 KiB.
    public static let maxHelloFrameBytes = 4 * 1024
    /// After pairing, the largest frame the hub takes from a watch: a score or a heartbeat, with
    /// every string at its bound and every character written as a `\u` escape, is under 5 KiB.
    /// (The watch takes up to `maxFrameBytes` from the hub: standings of hundreds of players.)
    public static let maxWatchFrameBytes = 16 * 1024
    /// Scores of one watch the hub holds unanswered at once; past it, the hub stops reading that
    /// watch until answers go out, so one watch's flood cannot queue ahead of another's score.
    public static let maxScoresInFlightPerWatch = 16
    /// Bytes the hub keeps unsent to one watch before it closes it (checked at each of the watch's
    /// scores and each of the hub's heartbeats): a watch that never reads would otherwise make the
    /// hub keep every answer and heartbeat. One standings frame (at most `maxFrameBytes`) may wait
    /// for a slow reader, and 1 MiB more.
    public static let maxUnreadBytesPerWatch = maxFrameBytes + 1024 * 1024
    /// Connections not yet paired that the hub keeps at once; more are refused as `busy`.
    public static let maxUnpairedConnections = 64
    /// Bounds on the strings a watch sends (they are stored forever in the append-only log).
    /// A device names itself (at hello) in at most this many bytes.
    public static let maxDeviceIDLength = 64
    public static let maxTokenLength = 256
    /// Times a hub may hang up on the same score, with no answer, before the watch sets it aside
    /// in its rejected log (so one score can never block the queue).
    public static let closesBeforeSettingAside = 5
    /// How long a new connection may take to say hello before the hub refuses it.
    public static let defaultHelloTimeout: TimeAmount = .seconds(5)
}
