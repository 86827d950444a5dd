import Foundation
import HyzerKit
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

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

    public init(
        address: LinkAddress, token: String, deviceID: String, handshakeTimeout: TimeAmount = .seconds(2),
        backoffBase: TimeAmount = .milliseconds(50), backoffCap: TimeAmount = .seconds(2),
        minimumAckTimeout: TimeAmount = .milliseconds(200), maxFrameBytes: Int = LinkProtocol.maxFrameBytes
    ) {
        self.address = address
        self.token = token
        self.deviceID = deviceID
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
    case acked(ScoreEvent, alreadyStored: Bool)
    case rejected(ScoreEvent, Rejection)
    case refused(Refusal)
}

/// The watch's end of the link: connects and pairs, reconnects with capped exponential backoff
/// and jitter, delivers the outbox one event at a time in FIFO order (the next leaves only when
/// the previous is acked, so the hub commits a device's events in order), and reports standings
/// pushes, heartbeats and reachability.
///
/// All mutable state lives on one event loop; the public methods may be called from any thread.
public final class LinkClient: @unchecked Sendable {
    public let configuration: LinkClientConfiguration
    public let outbox: DurableOutbox
    public let rejectedLog: RejectedLog
    private let eventLoop: any EventLoop
    private let onEvent: @Sendable (LinkClientEvent) -> Void
    private let logger: Logger
    private let reachable = NIOLockedValueBox(false)

    // Event-loop state.
    private var channel: (any Channel)?
    private var paired = false
    private var stopped = true
    private var attempt = 0
    private var inFlight: ScoreEvent?
    private var inFlightSentAt = NIODeadline.now()
    private var smoothedRoundTrip: TimeAmount?
    private var ackTimer: Scheduled<Void>?
    private var handshakeTimer: Scheduled<Void>?
    private var reconnectTimer: Scheduled<Void>?
    private var heartbeats: RepeatedTask?
    private var lastHeard = NIODeadline.now()

    public init(
        configuration: LinkClientConfiguration, outbox: DurableOutbox, rejectedLog: RejectedLog,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onEvent: @escaping @Sendable (LinkClientEvent) -> Void
    ) {
        self.configuration = configuration
        self.outbox = outbox
        self.rejectedLog = rejectedLog
        self.eventLoop = group.next()
        self.onEvent = onEvent
        var logger = Logger(label: "hyzer.watch.link")
        logger[metadataKey: "device"] = "\(configuration.deviceID)"
        self.logger = logger
    }

    /// Whether the phone is reachable: paired and heard from within three heartbeats.
    public var isReachable: Bool { reachable.withLockedValue { $0 } }

    public func start() {
        eventLoop.execute {
            guard self.stopped else { return }
            self.stopped = false
            self.connect()
        }
    }

    /// Disconnects and stops reconnecting. The outbox keeps whatever was not acked.
    public func stop() async {
        try? await eventLoop.submit {
            self.stopped = true
            self.reconnectTimer?.cancel()
            return self.channel
        }.get()?.close()
    }

    /// Call after enqueuing: sends at once when the link is idle.
    public func outboxChanged() {
        eventLoop.execute { self.sendNext() }
    }

    // MARK: Connection

    private func connect() {
        guard !stopped, channel == nil else { return }
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.seconds(2))
            .channelInitializer { [configuration] channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(ByteToMessageHandler(LinkFrameDecoder(maxFrameBytes: configuration.maxFrameBytes)))
                    try sync.addHandler(MessageToByteHandler(LinkFrameEncoder()))
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
                if self.stopped {
                    channel.close(promise: nil)
                    return
                }
                self.channel = channel
                self.lastHeard = .now()
                channel.writeAndFlush(LinkMessage.hello(Hello(deviceID: self.configuration.deviceID, token: self.configuration.token)), promise: nil)
                self.handshakeTimer = self.eventLoop.scheduleTask(in: self.configuration.handshakeTimeout) {
                    self.logger.info("no welcome in time; reconnecting")
                    channel.close(promise: nil)
                }
            case .failure(let error):
                self.logger.debug("connect failed: \(error)")
                self.scheduleReconnect()
            }
        }
    }

    private func scheduleReconnect() {
        guard !stopped else { return }
        let exponent = min(attempt, 16)
        let ceiling = min(configuration.backoffCap.nanoseconds, configuration.backoffBase.nanoseconds << exponent)
        let delay = TimeAmount.nanoseconds(Int64(Double(ceiling) * Double.random(in: 0.5...1.0)))
        attempt += 1
        reconnectTimer = eventLoop.scheduleTask(in: delay) { self.connect() }
    }

    fileprivate func disconnected() {
        eventLoop.assertInEventLoop()
        channel = nil
        paired = false
        inFlight = nil
        ackTimer?.cancel()
        handshakeTimer?.cancel()
        heartbeats?.cancel()
        setReachable(false)
        scheduleReconnect()
    }

    private func setReachable(_ value: Bool) {
        let changed = reachable.withLockedValue { old in
            defer { old = value }
            return old != value
        }
        if changed {
            logger.info(value ? "phone reachable" : "phone unreachable")
            onEvent(.reachability(value))
        }
    }

    // MARK: Messages

    fileprivate func received(_ message: LinkMessage) {
        eventLoop.assertInEventLoop()
        lastHeard = .now()
        switch message {
        case .welcome(let welcome):
            handshakeTimer?.cancel()
            paired = true
            attempt = 0
            startHeartbeats(every: .milliseconds(Int64(max(50, welcome.heartbeatIntervalMillis))))
            setReachable(true)
            sendNext()
        case .refused(let refusal):
            logger.error("the hub refused the pairing: \(refusal.message)")
            onEvent(.refused(refusal))
            channel?.close(promise: nil)
        case .standings(let snapshot):
            onEvent(.standings(snapshot))
        case .heartbeat(let heartbeat):
            if paired { setReachable(true) }
            onEvent(.heartbeat(heartbeat))
        case .ack(let ack):
            guard let event = inFlight, event.id == ack.eventID else { return }  // an ack for an earlier resend
            do {
                try outbox.remove(event.id)
            } catch {
                logger.error("could not remove an acked event from the outbox; it will be sent again: \(error)")
            }
            measureRoundTrip()
            finishInFlight()
            onEvent(.acked(event, alreadyStored: ack.alreadyStored))
            sendNext()
        case .rejected(let rejection):
            guard let event = inFlight, event.id == rejection.eventID else { return }
            do {
                try rejectedLog.append(event, rejection, at: Date())
                try outbox.remove(event.id)
            } catch {
                logger.error("could not record a rejected event; it stays in the outbox: \(error)")
                return
            }
            logger.warning("the hub rejected a score: \(rejection.message)")
            finishInFlight()
            onEvent(.rejected(event, rejection))
            sendNext()
        case .hello, .score:
            logger.warning("closing connection: unexpected \(message.type.rawValue) message from the hub")
            channel?.close(promise: nil)
        }
    }

    private func startHeartbeats(every interval: TimeAmount) {
        heartbeats?.cancel()
        heartbeats = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            guard let channel = self.channel else { return }
            if NIODeadline.now() - self.lastHeard > interval * 3 {
                self.setReachable(false)
                self.logger.info("nothing heard from the hub for 3 heartbeats; reconnecting")
                channel.close(promise: nil)
                return
            }
            channel.writeAndFlush(LinkMessage.heartbeat(Heartbeat(sentAt: Date())), promise: nil)
        }
    }

    // MARK: Delivery

    private func sendNext() {
        eventLoop.assertInEventLoop()
        guard paired, inFlight == nil, let channel, let event = outbox.head else { return }
        inFlight = event
        send(event, on: channel)
    }

    private func send(_ event: ScoreEvent, on channel: any Channel) {
        inFlightSentAt = .now()
        channel.writeAndFlush(LinkMessage.score(event), promise: nil)
        ackTimer?.cancel()
        ackTimer = eventLoop.scheduleTask(in: ackTimeout) {
            guard self.paired, let channel = self.channel, let pending = self.inFlight, pending.id == event.id else { return }
            self.logger.debug("no ack in time; sending again", metadata: ["event": "\(event.id)"])
            self.send(pending, on: channel)
        }
    }

    private func finishInFlight() {
        inFlight = nil
        ackTimer?.cancel()
        ackTimer = nil
    }

    private var ackTimeout: TimeAmount {
        guard let rtt = smoothedRoundTrip else { return configuration.minimumAckTimeout * 2 }
        return max(configuration.minimumAckTimeout, rtt * 3)
    }

    private func measureRoundTrip() {
        let sample = NIODeadline.now() - inFlightSentAt
        smoothedRoundTrip = smoothedRoundTrip.map { .nanoseconds(($0.nanoseconds * 7 + sample.nanoseconds) / 8) } ?? sample
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
        Logger(label: "hyzer.watch.link").warning("closing connection: \(error)")
        context.close(promise: nil)
    }
}
