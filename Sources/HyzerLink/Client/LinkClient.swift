import Foundation
import HyzerKit
import HyzerStorage
import Logging
import NIOCore
import NIOPosix
import NIOSSL

public struct LinkClientConfiguration: Sendable {
    public var address: LinkAddress
    public var token: String
    public var deviceID: String
    public var handshakeTimeout: TimeAmount
    /// Reconnect delays grow from `backoffBase`, doubling, up to `backoffCap`, with jitter.
    public var backoffBase: TimeAmount
    public var backoffCap: TimeAmount
    /// The shortest wait for an ack before the event is sent again (it grows with the measured round trip).
    public var minimumAckTimeout: TimeAmount
    public var maxFrameBytes: Int
    /// How to trust the hub over TCP (TLS with a pinned certificate); nil for plain bytes: the
    /// Unix socket, or TCP when asked for explicitly (`--insecure`).
    public var trust: HubTrust?
    /// Said in the hello: this watch's face shows the app's complication, so the hub may send
    /// complication transfers.
    public var complicationEnabled: Bool
    /// Said in the hello: whose watch this is (`--wearer`).
    public var wearer: String?

    public init(
        address: LinkAddress, token: String, deviceID: String, trust: HubTrust? = nil, complicationEnabled: Bool = false, wearer: String? = nil,
        handshakeTimeout: TimeAmount = LinkProtocol.handshakeTimeout,
        backoffBase: TimeAmount = LinkProtocol.backoffBase, backoffCap: TimeAmount = LinkProtocol.backoffCap,
        minimumAckTimeout: TimeAmount = .milliseconds(200), maxFrameBytes: Int = LinkProtocol.maxFrameBytes
    ) {
        self.address = address
        self.token = token
        self.deviceID = deviceID
        self.trust = trust
        self.complicationEnabled = complicationEnabled
        self.wearer = wearer
        self.handshakeTimeout = handshakeTimeout
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.minimumAckTimeout = minimumAckTimeout
        self.maxFrameBytes = maxFrameBytes
    }
}

/// What the watch hears from its link.
public enum LinkClientEvent: Sendable, Equatable {
    case reachability(Bool)
    case standings(StandingsSnapshot)
    case heartbeat(Heartbeat)
    case acked(ScoreEvent, alreadyStored: Bool, classification: ScoreClassification?)
    case rejected(ScoreEvent, Rejection)
    case refused(Refusal)
    case complication(ComplicationTransfer)
}

/// The watch's end of the link: connects and pairs, reconnects with capped exponential backoff
/// and jitter, delivers the outbox one event at a time in FIFO order (the next leaves only when
/// the previous is acked, so the hub commits a device's events in order), and reports standings
/// pushes, heartbeats and reachability.
///
/// All mutable state lives in a box bound to one event loop; the public methods may be called
/// from any thread and hop onto it. Blocking file work (the rejected log's fsync) runs on NIO's
/// thread pool, never on the loop.
public final class LinkClient: Sendable {
    public let configuration: LinkClientConfiguration
    public let outbox: DurableOutbox
    public let rejectedLog: RejectedLog
    private let eventLoop: any EventLoop
    private let onEvent: @Sendable (LinkClientEvent) -> Void
    private let logger: Logger
    private let loop: NIOLoopBoundBox<LoopState>

    /// Everything that changes, touched on `eventLoop` only.
    private struct LoopState: Sendable {
        var channel: (any Channel)?
        var paired = false
        var stopped = true
        var attempt = 0
        var inFlight: ScoreEvent?
        var inFlightSentAt = NIODeadline.now()
        /// Rejected events whose log entry is being written; not sent again meanwhile.
        var recordingRejections: Set<UUID> = []
        var smoothedRoundTrip: TimeAmount?
        var ackTimer: Scheduled<Void>?
        var handshakeTimer: Scheduled<Void>?
        var reconnectTimer: Scheduled<Void>?
        var heartbeats: RepeatedTask?
        var hearing = Hearing()
        /// nil until the first attempt: the first failure is news too ("No phone").
        var reachable: Bool?
        /// The newest standings sequence heard from the hub; heartbeats carry it so the hub can
        /// send newer standings again if a push was lost.
        var newestSequence: Int?
        /// Whether the watch app is in the foreground, said in every heartbeat (nil: not said).
        var appActive: Bool?
        /// Why the last standings the hub sent were not taken (logged once per reason).
        var refusedStandings: String?
        /// How often the hub hung up while this event was in flight, without answering it.
        var closesWithoutAnswer: [UUID: Int] = [:]
    }

    public init(
        configuration: LinkClientConfiguration, outbox: DurableOutbox, rejectedLog: RejectedLog,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onEvent: @escaping @Sendable (LinkClientEvent) -> Void
    ) {
        self.configuration = configuration
        self.outbox = outbox
        self.rejectedLog = rejectedLog
        self.eventLoop = group.next()
        self.loop = .makeBoxSendingValue(LoopState(), eventLoop: eventLoop)
        self.onEvent = onEvent
        var logger = Logger(label: "hyzer.watch.link")
        logger[metadataKey: "device"] = "\(configuration.deviceID)"
        self.logger = logger
    }

    public func start() {
        eventLoop.execute {
            guard self.loop.value.stopped else { return }
            self.loop.value.stopped = false
            self.connect()
        }
    }

    /// Disconnects and stops reconnecting. The outbox keeps whatever was not acked.
    public func stop() async {
        let channel = try? await eventLoop.submit {
            self.loop.value.stopped = true
            self.loop.value.reconnectTimer?.cancel()
            return self.loop.value.channel
        }.get()
        try? await channel?.close()
    }

    /// Call after enqueuing: sends at once when the link is idle.
    public func outboxChanged() {
        eventLoop.execute { self.sendNext() }
    }

    /// The watch app came to the foreground or left it: said to the hub at once (in a heartbeat)
    /// and in every heartbeat after, so the phone knows whether it can reach the app.
    public func setAppActive(_ active: Bool) {
        eventLoop.execute {
            guard self.loop.value.appActive != active else { return }
            self.loop.value.appActive = active
            if self.loop.value.paired, let channel = self.loop.value.channel { self.sendHeartbeat(on: channel) }
        }
    }

    // MARK: Connection

    private func connect() {
        guard !loop.value.stopped, loop.value.channel == nil else { return }
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.seconds(2))
            .channelInitializer { [configuration, logger] channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let trust = configuration.trust {
                        try sync.addHandler(NIOSSLClientHandler(context: try HubTrust.clientContext(), serverHostname: nil) { certificates, verdict in
                            switch trust.verify(certificates) {
                            case .success: verdict.succeed(.certificateVerified)
                            case .failure(let error):
                                logger.error("not pairing: \(error)")
                                verdict.succeed(.failed)
                            }
                        })
                    }
                    try sync.addHandler(ByteToMessageHandler(LinkFrameDecoder(maxFrameBytes: configuration.maxFrameBytes)))
                    try sync.addHandler(LinkFrameWriter())
                    try sync.addHandler(ClientConnectionHandler(client: self))
                }
            }
        let connecting: EventLoopFuture<any Channel>
        switch configuration.address {
        case .unix(let path): connecting = bootstrap.connect(unixDomainSocketPath: path)
        case .tcp(let host, let port): connecting = bootstrap.connect(host: host, port: port)
        }
        connecting.hop(to: eventLoop).whenComplete { result in
            switch result {
            case .success(let channel):
                if self.loop.value.stopped {
                    channel.close(promise: nil)
                    return
                }
                self.loop.value.channel = channel
                self.loop.value.hearing = Hearing()
                channel.writeAndFlush(LinkMessage.hello(Hello(deviceID: self.configuration.deviceID, token: self.configuration.token,
                                                                  complicationEnabled: self.configuration.complicationEnabled ? true : nil,
                                                                  wearer: self.configuration.wearer)), promise: nil)
                self.loop.value.handshakeTimer = self.eventLoop.scheduleTask(in: self.configuration.handshakeTimeout) {
                    self.logger.info("no welcome in time; reconnecting")
                    channel.close(promise: nil)
                }
            case .failure(let error):
                self.logger.debug("connect failed: \(error)")
                self.setReachable(false)
                self.scheduleReconnect()
            }
        }
    }

    private func scheduleReconnect() {
        guard !loop.value.stopped else { return }
        let exponent = min(loop.value.attempt, 16)
        let ceiling = min(configuration.backoffCap.nanoseconds, configuration.backoffBase.nanoseconds << exponent)
        let delay = TimeAmount.nanoseconds(Int64(Double(ceiling) * Double.random(in: 0.5...1.0)))
        loop.value.attempt += 1
        loop.value.reconnectTimer = eventLoop.scheduleTask(in: delay) { self.connect() }
    }

    fileprivate func disconnected() {
        // A hub that keeps hanging up on the same score (an older or third-party hub that closes
        // on a score it cannot take) would block the queue forever: after a few closes with no
        // answer, the score is set aside in the rejected log so the ones behind it can go.
        // A close this client made itself (`stop`: the watch quits, or `link down`) is not the
        // hub's answer to anything, and not news: the phone did not go away.
        let stopped = loop.value.stopped
        if !stopped, loop.value.paired, let event = loop.value.inFlight, !loop.value.recordingRejections.contains(event.id) {
            let closes = loop.value.closesWithoutAnswer[event.id, default: 0] + 1
            loop.value.closesWithoutAnswer[event.id] = closes
            if closes >= LinkProtocol.closesBeforeSettingAside {
                loop.value.recordingRejections.insert(event.id)
                record(event, Rejection(eventID: event.id, reason: .invalidScore, message:
                    "The hub closed the connection each of the \(closes) times this score was sent, without an answer; set aside so the scores behind it can go."))
            }
        }
        loop.value.channel = nil
        loop.value.paired = false
        loop.value.inFlight = nil
        loop.value.ackTimer?.cancel()
        loop.value.handshakeTimer?.cancel()
        loop.value.heartbeats?.cancel()
        if stopped {
            loop.value.reachable = nil
        } else {
            setReachable(false)
            scheduleReconnect()
        }
    }

    private func setReachable(_ value: Bool) {
        let changed = loop.value.reachable != value
        loop.value.reachable = value
        if changed {
            logger.info(value ? "phone reachable" : "phone unreachable")
            onEvent(.reachability(value))
        }
    }

    // MARK: Messages

    fileprivate func received(_ message: LinkMessage) {
        loop.value.hearing.heard()
        switch message {
        case .welcome(let welcome):
            loop.value.handshakeTimer?.cancel()
            loop.value.paired = true
            loop.value.attempt = 0
            // At most a day: a larger one would overflow the timer's nanoseconds (the schema sets no maximum).
            startHeartbeats(every: .milliseconds(Int64(min(welcome.heartbeatIntervalMillis, 86_400_000))))
            // The hub learns at once whether the app is in front (not a second later).
            if loop.value.appActive != nil, let channel = loop.value.channel { sendHeartbeat(on: channel) }
            setReachable(true)
            sendNext()
        case .refused(let refusal):
            logger.error("the hub refused the pairing: \(refusal.message)")
            onEvent(.refused(refusal))
            loop.value.channel?.close(promise: nil)
        case .standings(let snapshot):
            if let violation = snapshot.schemaViolation {
                // Not shown: a hub never sends these (standings.schema.json); what is shown stays.
                if loop.value.refusedStandings != violation { logger.warning("ignoring standings from the hub: \(violation)") }
                loop.value.refusedStandings = violation
                return
            }
            loop.value.newestSequence = max(loop.value.newestSequence ?? snapshot.sequence, snapshot.sequence)
            onEvent(.standings(snapshot))
        case .heartbeat(let heartbeat):
            if loop.value.paired { setReachable(true) }
            onEvent(.heartbeat(heartbeat))
        case .ack(let ack):
            guard let event = loop.value.inFlight, ack.answers(event) else { return }  // an ack for an earlier resend
            do {
                try outbox.remove(event.id)
            } catch {
                logger.error("could not remove an acked event from the outbox; it will be sent again: \(error)")
            }
            measureRoundTrip()
            loop.value.closesWithoutAnswer = [:]
            finishInFlight()
            onEvent(.acked(event, alreadyStored: ack.alreadyStored, classification: ack.classification))
            sendNext()
        case .rejected(let rejection):
            guard let event = loop.value.inFlight, rejection.answers(event),
                  !loop.value.recordingRejections.contains(event.id) else { return }
            loop.value.ackTimer?.cancel()
            loop.value.recordingRejections.insert(event.id)
            record(event, rejection)
        case .complication(let transfer):
            onEvent(.complication(transfer))
        case .hello, .score:
            logger.warning("closing connection: unexpected \(message.type.rawValue) message from the hub")
            loop.value.channel?.close(promise: nil)
        }
    }

    /// Logs a rejected event durably (off the loop), then takes it out of the outbox on the loop,
    /// in the same turn that reports it, as an ack does: whoever sees the outbox without it
    /// (`--until-drained`, a pending count) has had the rejection reported first.
    private func record(_ event: ScoreEvent, _ rejection: Rejection) {
        let (outbox, rejectedLog) = (self.outbox, self.rejectedLog)
        NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) {
            try rejectedLog.append(event, rejection)
        }.flatMapThrowing {
            try outbox.remove(event.id)
        }.whenComplete { result in
            self.loop.value.recordingRejections.remove(event.id)
            self.loop.value.closesWithoutAnswer[event.id] = nil
            switch result {
            case .success:
                self.logger.warning("the hub rejected a score: \(rejection.message)")
                if self.loop.value.inFlight?.id == event.id { self.finishInFlight() }
                self.onEvent(.rejected(event, rejection))
            case .failure(let error):
                self.logger.error("could not record a rejected event; it stays in the outbox: \(error)")
                if self.loop.value.inFlight?.id == event.id { self.finishInFlight() }
            }
            self.sendNext()
        }
    }

    private func startHeartbeats(every interval: TimeAmount) {
        loop.value.heartbeats?.cancel()
        loop.value.heartbeats = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            guard let channel = self.loop.value.channel else { return }
            if self.loop.value.hearing.beat() {
                self.setReachable(false)
                self.logger.info("nothing heard from the hub for \(LinkProtocol.missedHeartbeatsBeforeUnreachable) heartbeats; reconnecting")
                channel.close(promise: nil)
                return
            }
            self.sendHeartbeat(on: channel)
        }
    }

    private func sendHeartbeat(on channel: any Channel) {
        channel.writeAndFlush(LinkMessage.heartbeat(Heartbeat(sentAt: Date(), sequence: loop.value.newestSequence, appActive: loop.value.appActive)),
                              promise: nil)
    }

    // MARK: Delivery

    private func sendNext() {
        guard loop.value.paired, loop.value.inFlight == nil, let channel = loop.value.channel, let event = outbox.head,
              !loop.value.recordingRejections.contains(event.id) else { return }
        loop.value.inFlight = event
        send(event, on: channel)
    }

    private func send(_ event: ScoreEvent, on channel: any Channel) {
        loop.value.inFlightSentAt = .now()
        channel.writeAndFlush(LinkMessage.score(event), promise: nil)
        loop.value.ackTimer?.cancel()
        loop.value.ackTimer = eventLoop.scheduleTask(in: ackTimeout) {
            guard self.loop.value.paired, let channel = self.loop.value.channel,
                  let pending = self.loop.value.inFlight, pending.id == event.id else { return }
            guard self.outbox.head?.id == event.id else {
                // Taken back out of the outbox (its Save's sync failed): not sent again.
                self.finishInFlight()
                self.sendNext()
                return
            }
            self.logger.debug("no ack in time; sending again", metadata: ["event": "\(event.id)"])
            self.send(pending, on: channel)
        }
    }

    private func finishInFlight() {
        loop.value.inFlight = nil
        loop.value.ackTimer?.cancel()
        loop.value.ackTimer = nil
    }

    private var ackTimeout: TimeAmount {
        guard let rtt = loop.value.smoothedRoundTrip else { return configuration.minimumAckTimeout * 2 }
        return max(configuration.minimumAckTimeout, rtt * 3)
    }

    private func measureRoundTrip() {
        let sample = NIODeadline.now() - loop.value.inFlightSentAt
        loop.value.smoothedRoundTrip = loop.value.smoothedRoundTrip.map { .nanoseconds(($0.nanoseconds * 7 + sample.nanoseconds) / 8) } ?? sample
    }
}

/// Forwards one connection's messages and end to the client, on its event loop.
private final class ClientConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = LinkMessage

    private let client: LinkClient

    init(client: LinkClient) { self.client = client }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        client.received(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        client.disconnected()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A phone gone without a goodbye (killed, out of range) is what phones do: said in words,
        // as the hub says a watch's, not as NIO's read call.
        if let io = error as? IOError, io.errnoCode == ECONNRESET || io.errnoCode == EPIPE {
            Logger(label: "hyzer.watch.link").info("the phone hung up (\(String(cString: strerror(io.errnoCode))))")
        } else {
            Logger(label: "hyzer.watch.link").warning("closing connection: \(error)")
        }
        context.close(promise: nil)
    }
}
