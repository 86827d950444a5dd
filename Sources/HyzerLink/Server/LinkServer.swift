import Foundation
import HyzerKit
import HyzerStorage
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// The hub's answer to a score.
public enum ScoreVerdict: Sendable, Equatable {
    /// Committed (with what it was), or already held (a resend after a lost ack: no classification).
    case stored(alreadyStored: Bool, classification: ScoreClassification? = nil)
    /// It will never be accepted; the watch moves it to its rejected log.
    case rejected(Rejection.Reason, message: String)
    /// It could not be committed for a passing reason (disk, I/O): no answer, the watch resends.
    case retryLater
}

/// What the hub does with what arrives on the link.
public protocol LinkServerDelegate: Sendable {
    /// A score from a paired watch. Called on one serial queue, in arrival order. Call `respond`
    /// with the verdict once the event is committed (before publishing what it changed); the
    /// server writes the ack or rejection, naming the event id exactly as the watch wrote it.
    func receive(score: ScoreEvent, deviceID: String, respond: @Sendable (ScoreVerdict) -> Void)
    /// The standings a newly paired watch gets at once.
    func currentSnapshot() -> StandingsSnapshot?
    /// The verdict for a score the store already holds (a resend: `.stored(alreadyStored: true)`,
    /// or `.rejected(.eventIDInUse, …)` for another score under its id), nil for a new id. Asked
    /// on the same queue as `receive`, for a score the link refuses itself (it names another
    /// device, or it is a resolution), before refusing it: a resend is always answered as one.
    func verdictIfStored(_ score: ScoreEvent) -> ScoreVerdict?
    /// For a score frame the link cannot accept as sent (strokes 11, a field of the wrong type)
    /// whose id is a UUID: `.rejected(.eventIDInUse, …)` when the store holds a score under that
    /// id (it cannot be the same event), else nil and the frame's own fault is answered.
    func verdictIfStored(id: UUID) -> ScoreVerdict?
    /// Why a watch may not pair under `deviceID` (it is one the hub's own scores carry), or nil.
    func refusal(forDeviceID deviceID: String) -> String?
    /// A watch whose face shows a complication (its hello's `complicationEnabled`) has paired,
    /// and has been sent its standings; `wearer` is its hello's.
    func paired(complicationWatch deviceID: String, wearer: String?)
    /// A paired watch said whether its app is in the foreground (its heartbeat's `appActive`);
    /// nil when it pairs or a connection of it closes: what the phone's reachability of the
    /// watch app follows.
    func watch(_ deviceID: String, appActive: Bool?)
    /// Whether the phone app runs (foreground or background): only then do the hub's heartbeats
    /// name the standings it sent, which keeps a watch's standings fresh. A suspended app
    /// confirms nothing, so a watch's standings turn stale as on a device.
    var confirmsStandings: Bool { get }
}

extension LinkServerDelegate {
    /// By default no store is asked: the link's own refusal stands.
    public func verdictIfStored(_ score: ScoreEvent) -> ScoreVerdict? { nil }
    public func verdictIfStored(id: UUID) -> ScoreVerdict? { nil }
    /// By default every valid device id may pair.
    public func refusal(forDeviceID deviceID: String) -> String? { nil }
    public func paired(complicationWatch deviceID: String, wearer: String?) {}
    public func watch(_ deviceID: String, appActive: Bool?) {}
    public var confirmsStandings: Bool { true }
}

public struct LinkServerConfiguration: Sendable {
    public var address: LinkAddress
    public var token: String
    public var hubID: String
    public var heartbeatInterval: TimeAmount
    public var helloTimeout: TimeAmount
    public var conditions: LinkConditions
    public var maxFrameBytes: Int
    /// TLS for every connection (the hub's identity), or nil for plain bytes: the Unix socket, or
    /// TCP when asked for explicitly (`serve --insecure`).
    public var tls: NIOSSLContext?

    public init(
        address: LinkAddress, token: String, hubID: String, heartbeatInterval: TimeAmount = LinkProtocol.defaultHeartbeatInterval,
        helloTimeout: TimeAmount = LinkProtocol.defaultHelloTimeout, conditions: LinkConditions = LinkConditions(),
        maxFrameBytes: Int = LinkProtocol.maxFrameBytes, tls: NIOSSLContext? = nil
    ) {
        self.address = address
        self.token = token
        self.hubID = hubID
        self.heartbeatInterval = heartbeatInterval
        self.helloTimeout = helloTimeout
        self.conditions = conditions
        self.maxFrameBytes = maxFrameBytes
        self.tls = tls
    }
}

/// The hub's end of the link: accepts watches, checks their hello, passes scores to the delegate
/// in order, pushes standings, sends heartbeats. A bad peer only ever closes its own connection.
public final class LinkServer: Sendable {
    public let configuration: LinkServerConfiguration
    let delegate: any LinkServerDelegate
    let group: any EventLoopGroup
    let logger = Logger(label: "hyzer.hub.link")
    /// Scores are handled one at a time, in arrival order, off the event loops (the store blocks).
    /// Other work that publishes standings runs here too, so it never races a score's publish.
    public let scoreQueue = DispatchQueue(label: "hyzer.hub.link.scores")
    private let state = NIOLockedValueBox(State())
    /// The standings frame last encoded, shared by every connection's encoder.
    private let pushFrames = PushFrameCache()

    struct State {
        var listener: (any Channel)?
        var paired: [ObjectIdentifier: PairedWatch] = [:]
        /// Connections waiting to pair, oldest first.
        var unpaired: [(id: ObjectIdentifier, channel: any Channel)] = []
        var lastSnapshot: StandingsSnapshot?
        /// Wrong tokens lately, per peer (an IP address; "local" for the Unix socket): each of a
        /// peer's refusals waits longer, so guessing is slow, and only for the peer that guesses.
        var recentWrongTokens: [String: [NIODeadline]] = [:]
        /// Connections whose wrong-token refusal is waiting out its delay (they hold no slot).
        var refusalsWaiting = 0
        /// Scores read from watches and not yet answered, and how many the score queue has answered.
        var scoresWaiting = 0
        var scoresAnswered = 0
        /// Whether a connection ended since memory last went back to the system, and whether that is scheduled.
        var endedSinceGiveBack = false
        var giveBackScheduled = false
    }

    struct PairedWatch {
        let channel: any Channel
        let deviceID: String
        /// Hands a snapshot to the connection's handler on its loop (newest wins if it cannot write),
        /// then calls the second closure there.
        let push: @Sendable (StandingsSnapshot, @escaping @Sendable () -> Void) -> Void
        /// Whether its face shows a complication (only then is it sent complication transfers).
        let complicationEnabled: Bool
        /// Whose watch it is, as its hello said.
        let wearer: String?
        /// Writes a message on the connection's loop, after whatever was handed to it before.
        let send: @Sendable (LinkMessage) -> Void
    }

    /// Repeated log lines (refusals, hostile frames) are rate-limited so an attack cannot fill the disk.
    let logThrottle = LogThrottle()

    public init(configuration: LinkServerConfiguration, delegate: any LinkServerDelegate,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.delegate = delegate
        self.group = group
    }

    /// Binds and starts accepting. A Unix socket gets mode 0600; a stale socket file is replaced.
    public func start() async throws {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Small per-connection buffers: a watch that stops reading holds at most this much.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 16 * 1024, high: 64 * 1024))
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 64 * 1024))
            // A peer that writes its scores and then shuts its side down still reads the answers:
            // the connection closes once they are written (ServerConnectionHandler).
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.configure(channel)
                }
            }
        let listener: any Channel
        let address = configuration.address
        do {
            switch address {
            case .unix(let path):
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                listener = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
                guard chmod(path, 0o600) == 0 else { throw IOError(errnoCode: errno, reason: "chmod") }
            case .tcp(let host, let port):
                listener = try await bootstrap.bind(host: host, port: port).get()
            }
        } catch let error as IOError {
            throw LinkError.cannotListen(address: address.description, reason: String(cString: strerror(error.errnoCode)))
        } catch is UnixDomainSocketPathWrongType {
            throw LinkError.cannotListen(address: address.description, reason: "the path exists and is not a socket")
        } catch let error as SocketAddressError {
            throw LinkError.cannotListen(address: address.description, reason: "not an address this machine can listen on (\(error))")
        } catch {
            throw LinkError.cannotListen(address: address.description, reason: "\(error)")
        }
        state.withLockedValue { $0.listener = listener }
        logger.info("listening", metadata: ["address": "\(configuration.address)"])
    }

    /// The address actually bound (a TCP port of 0 becomes the real port).
    public var boundAddress: LinkAddress? {
        guard let local = state.withLockedValue({ $0.listener })?.localAddress else { return nil }
        switch configuration.address {
        case .unix: return configuration.address
        case .tcp(let host, _): return .tcp(host: host, port: local.port ?? 0)
        }
    }

    /// Pushes standings to every paired watch (best effort: a watch that misses it reads the file).
    /// `written` runs once every push has been handed to its socket; returns false (and never
    /// runs it) when there was no watch to push to.
    @discardableResult
    public func broadcast(_ snapshot: StandingsSnapshot, then written: @escaping @Sendable () -> Void = {}) -> Bool {
        let watches = state.withLockedValue { state -> [PairedWatch] in
            if let last = state.lastSnapshot, last.hubID == snapshot.hubID, snapshot.sequence <= last.sequence { return [] }
            state.lastSnapshot = snapshot
            return Array(state.paired.values)
        }
        guard !watches.isEmpty else { return false }
        let remaining = NIOLockedValueBox(watches.count)
        for watch in watches {
            watch.push(snapshot) {
                if remaining.withLockedValue({ count in count -= 1; return count == 0 }) { written() }
            }
        }
        return true
    }

    var lastSnapshot: StandingsSnapshot? { state.withLockedValue { $0.lastSnapshot } }

    /// A heartbeat to every paired watch now, not at its next beat: what it confirms changed (the
    /// phone app stopped running, and its next beats confirm nothing).
    public func beatNow() {
        let confirmed = delegate.confirmsStandings ? lastSnapshot?.sequence : nil
        let watches = state.withLockedValue { Array($0.paired.values) }
        for watch in watches { watch.send(.heartbeat(Heartbeat(sentAt: Date(), sequence: confirmed))) }
    }

    /// The device ids of the paired watches.
    public var pairedDevices: Set<String> { state.withLockedValue { Set($0.paired.values.map(\.deviceID)) } }


    /// Whether a watch of `deviceID` that shows a complication is paired now (no list is built:
    /// asked once per watch at every publish).
    public func hasComplicationWatch(_ deviceID: String) -> Bool {
        state.withLockedValue { $0.paired.values.contains { $0.deviceID == deviceID && $0.complicationEnabled } }
    }

    /// Sends a complication transfer to the paired watches of `deviceID` that show a complication,
    /// after any standings already pushed to them.
    public func send(_ transfer: ComplicationTransfer, toDevice deviceID: String) {
        let watches = state.withLockedValue { $0.paired.values.filter { $0.deviceID == deviceID && $0.complicationEnabled } }
        for watch in watches { watch.send(.complication(transfer)) }
    }

    /// Stops accepting, closes every connection once the scores already on the queue from it are
    /// answered (a score committed and never acked would be sent again by its watch: a resend of
    /// what the hub holds, after a stop that was meant to be clean), removes the socket file.
    public func shutdown() async {
        let (listener, channels) = state.withLockedValue { state in
            let result = (state.listener, state.paired.values.map(\.channel))
            state.listener = nil
            state.paired = [:]
            return result
        }
        try? await listener?.close()
        for channel in channels { channel.pipeline.fireUserInboundEventTriggered(Stopping()) }
        // A store that does not answer (another process holding its lock) does not hold the stop
        // for long: a score then unanswered is sent again, and acked as a resend.
        let deadline = channels.first?.eventLoop.scheduleTask(in: .seconds(5)) { for channel in channels { channel.close(promise: nil) } }
        for channel in channels { try? await channel.closeFuture.get() }
        deadline?.cancel()
        if case .unix(let path) = configuration.address { unlink(path) }
        logger.info("stopped")
    }

    private func configure(_ channel: any Channel) throws {
        let sync = channel.pipeline.syncOperations
        if let tls = configuration.tls { try sync.addHandler(NIOSSLServerHandler(context: tls)) }
        // Until hello, only a hello-sized frame gets in; pairing raises the limit.
        let limit = FrameLimit(min(LinkProtocol.maxHelloFrameBytes, configuration.maxFrameBytes))
        try sync.addHandler(ByteToMessageHandler(HubFrameDecoder(limit: limit)))
        try sync.addHandler(LinkFrameWriter(pushFrames: pushFrames))
        if !configuration.conditions.isPerfect {
            try sync.addHandler(LinkConditionerHandler(conditions: configuration.conditions, logger: logger))
        }
        try sync.addHandler(ServerConnectionHandler(server: self, frameLimit: limit))
        channel.closeFuture.whenComplete { [self] _ in connectionEnded() }
    }

    /// After connections come and go (a burst of thousands of pairings), the memory they used is
    /// free but the allocator keeps it (see `Allocator`): it goes back to the system a quarter of
    /// a second after a connection ends, and every quarter of a second while they keep ending.
    static let giveBackMemoryEvery = TimeAmount.milliseconds(250)

    private func connectionEnded() {
        let schedule = state.withLockedValue { state -> Bool in
            state.endedSinceGiveBack = true
            guard !state.giveBackScheduled else { return false }
            state.giveBackScheduled = true
            return true
        }
        if schedule { group.next().scheduleTask(in: Self.giveBackMemoryEvery) { [self] in giveBackMemory() } }
    }

    private func giveBackMemory() {
        state.withLockedValue { $0.endedSinceGiveBack = false }
        Allocator.giveBackFreeMemory()
        let again = state.withLockedValue { state -> Bool in
            state.giveBackScheduled = state.endedSinceGiveBack
            return state.giveBackScheduled
        }
        if again { group.next().scheduleTask(in: Self.giveBackMemoryEvery) { [self] in giveBackMemory() } }
    }

    /// A new connection counts as unpaired until it pairs or leaves. When every place is taken,
    /// the one that has waited longest is let go (refused as busy) to make room: a real watch says
    /// hello within milliseconds of connecting, so peers that stall or come back again and again
    /// cannot keep it out by holding the places.
    func admitUnpaired(_ channel: any Channel) {
        let evicted = state.withLockedValue { state -> (any Channel)? in
            state.unpaired.append((ObjectIdentifier(channel), channel))
            guard state.unpaired.count > LinkProtocol.maxUnpairedConnections else { return nil }
            return state.unpaired.removeFirst().channel
        }
        // Refused by its own handler, on its own loop, as any refusal is.
        evicted?.pipeline.fireUserInboundEventTriggered(MadeRoomFor())
    }

    /// The event that tells an unpaired connection's handler it was let go to make room.
    struct MadeRoomFor {}

    /// The hub stops: a connection answers what it has read, reads nothing more, and closes.
    struct Stopping {}

    func leftUnpaired(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue { $0.unpaired.removeAll { $0.id == id } }
    }

    func register(_ watch: PairedWatch) {
        state.withLockedValue { $0.paired[ObjectIdentifier(watch.channel)] = watch }
    }

    func unregister(_ channel: any Channel) {
        state.withLockedValue { _ = $0.paired.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func scoreQueued() { state.withLockedValue { $0.scoresWaiting += 1 } }
    func scoreAnswered() {
        state.withLockedValue {
            $0.scoresWaiting -= 1
            $0.scoresAnswered += 1
        }
    }
    /// Scores read from watches and not yet answered.
    var scoresWaiting: Int { state.withLockedValue { $0.scoresWaiting } }
    /// How many scores the score queue, shared by every watch, has answered (any watch's).
    var scoresAnswered: Int { state.withLockedValue { $0.scoresAnswered } }

    /// How many watches are paired now, and how many connections wait to pair.
    var connections: (paired: Int, unpaired: Int) { state.withLockedValue { ($0.paired.count, $0.unpaired.count) } }

    /// How long to wait before refusing `peer`'s wrong token: nothing for its first few in a
    /// minute, then growing with each one (capped at 2 s), so a guesser gets a handful of tries a
    /// second at most. nil: too many refusals are waiting already; close without an answer.
    func delayForWrongToken(from peer: String) -> TimeAmount? {
        state.withLockedValue { state in
            let now = NIODeadline.now()
            if state.recentWrongTokens.count > Self.peersRemembered {
                state.recentWrongTokens = state.recentWrongTokens.filter { $0.value.contains { now - $0 <= .seconds(60) } }
                // Still too many (guesses from thousands of addresses): forget them all rather
                // than search a long list at every guess.
                if state.recentWrongTokens.count > Self.peersRemembered { state.recentWrongTokens = [:] }
            }
            // Only the last few count: the delay stops growing at 25 in a minute.
            var recent = state.recentWrongTokens[peer, default: []].filter { now - $0 <= .seconds(60) }.suffix(24)
            recent.append(now)
            state.recentWrongTokens[peer] = Array(recent)
            let delay = TimeAmount.milliseconds(Int64(min(2_000, max(0, recent.count - 5) * 100)))
            guard delay > .zero else { return .zero }
            guard state.refusalsWaiting < LinkProtocol.maxUnpairedConnections * 4 else { return nil }
            state.refusalsWaiting += 1
            return delay
        }
    }

    static let peersRemembered = 4_096

    func refusalDelivered() {
        state.withLockedValue { $0.refusalsWaiting -= 1 }
    }

    /// Compares tokens in time independent of where they differ.
    /// Surrounding whitespace does not count: a client may present the token file as it is,
    /// newline included.
    static func tokensMatch(_ presented: String, _ expected: String) -> Bool {
        let a = presented.trimmingCharacters(in: .whitespacesAndNewlines), b = expected
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
