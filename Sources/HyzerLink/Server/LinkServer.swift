import Foundation
import HyzerKit
import HyzerStorage
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// What the hub does with what arrives on the link.
public protocol LinkServerDelegate: Sendable {
    /// A score from a paired watch. Called on one serial queue, in arrival order. Call `respond`
    /// with `.ack` once the event is committed (or was already stored), `.rejected` when it never
    /// will be; stay silent when it could not be committed for a passing reason (the watch resends).
    func receive(score: ScoreEvent, deviceID: String, respond: @Sendable (LinkMessage) -> Void)
    /// The standings a newly paired watch gets at once.
    func currentSnapshot() -> StandingsSnapshot?
}

public struct LinkServerConfiguration: Sendable {
    public var address: LinkAddress
    public var token: String
    public var hubID: String
    public var heartbeatInterval: TimeAmount
    public var helloTimeout: TimeAmount
    public var conditions: LinkConditions
    public var maxFrameBytes: Int

    public init(
        address: LinkAddress, token: String, hubID: String, heartbeatInterval: TimeAmount = LinkProtocol.defaultHeartbeatInterval,
        helloTimeout: TimeAmount = LinkProtocol.defaultHelloTimeout, conditions: LinkConditions = LinkConditions(),
        maxFrameBytes: Int = LinkProtocol.maxFrameBytes
    ) {
        self.address = address
        self.token = token
        self.hubID = hubID
        self.heartbeatInterval = heartbeatInterval
        self.helloTimeout = helloTimeout
        self.conditions = conditions
        self.maxFrameBytes = maxFrameBytes
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
    let scoreQueue = DispatchQueue(label: "hyzer.hub.link.scores")
    private let state = NIOLockedValueBox(State())

    struct State {
        var listener: (any Channel)?
        var paired: [ObjectIdentifier: (channel: any Channel, deviceID: String)] = [:]
        var lastSnapshot: StandingsSnapshot?
    }

    public init(configuration: LinkServerConfiguration, delegate: any LinkServerDelegate,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.delegate = delegate
        self.group = group
    }

    /// Binds and starts accepting. A Unix socket gets mode 0600; a stale socket file is replaced.
    public func start() async throws {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
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
    public func broadcast(_ snapshot: StandingsSnapshot) {
        let channels = state.withLockedValue { state -> [any Channel] in
            if let last = state.lastSnapshot, last.hubID == snapshot.hubID, snapshot.sequence <= last.sequence { return [] }
            state.lastSnapshot = snapshot
            return state.paired.values.map(\.channel)
        }
        for channel in channels { channel.writeAndFlush(LinkMessage.standings(snapshot), promise: nil) }
    }

    var lastSnapshot: StandingsSnapshot? { state.withLockedValue { $0.lastSnapshot } }

    /// Stops accepting, closes every connection, removes the socket file.
    public func shutdown() async {
        let (listener, channels) = state.withLockedValue { state in
            let result = (state.listener, state.paired.values.map(\.channel))
            state.listener = nil
            state.paired = [:]
            return result
        }
        try? await listener?.close()
        for channel in channels { try? await channel.close() }
        if case .unix(let path) = configuration.address { unlink(path) }
        logger.info("stopped")
    }

    private func configure(_ channel: any Channel) throws {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(ByteToMessageHandler(LinkFrameDecoder(maxFrameBytes: configuration.maxFrameBytes)))
        try sync.addHandler(MessageToByteHandler(LinkFrameEncoder()))
        if !configuration.conditions.isPerfect {
            try sync.addHandler(LinkConditionerHandler(conditions: configuration.conditions, logger: logger))
        }
        try sync.addHandler(ServerConnectionHandler(server: self))
    }

    func register(_ channel: any Channel, deviceID: String) {
        state.withLockedValue { $0.paired[ObjectIdentifier(channel)] = (channel, deviceID) }
    }

    func unregister(_ channel: any Channel) {
        state.withLockedValue { _ = $0.paired.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Compares tokens in time independent of where they differ.
    static func tokensMatch(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// One watch connection on the hub: hello first, then scores and heartbeats.
final class ServerConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = LinkMessage
    typealias OutboundOut = LinkMessage

    private enum Phase { case awaitingHello, paired(deviceID: String), closing }

    private let server: LinkServer
    private var phase = Phase.awaitingHello
    private var helloTimeout: Scheduled<Void>?
    private var heartbeats: RepeatedTask?
    private var lastHeard = NIODeadline.now()
    private var logger: Logger

    init(server: LinkServer) {
        self.server = server
        self.logger = server.logger
    }

    func channelActive(context: ChannelHandlerContext) {
        logger[metadataKey: "peer"] = "\(context.remoteAddress.map { "\($0)" } ?? "unix")"
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        helloTimeout = context.eventLoop.scheduleTask(in: server.configuration.helloTimeout) {
            let (handler, context) = loopBound.value
            handler.refuse(context: context, Refusal(reason: .helloExpected, message: "No hello within \(handler.server.configuration.helloTimeout.nanoseconds / 1_000_000) ms; the first frame must be a hello."))
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        helloTimeout?.cancel()
        heartbeats?.cancel()
        server.unregister(context.channel)
        if case .paired(let deviceID) = phase { logger.info("watch disconnected", metadata: ["device": "\(deviceID)"]) }
        phase = .closing
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        lastHeard = .now()
        switch (phase, message) {
        case (.awaitingHello, .hello(let hello)):
            handshake(context: context, hello)
        case (.awaitingHello, _):
            refuse(context: context, Refusal(reason: .helloExpected, message: "The first frame must be a hello; got \(message.type.rawValue)."))
        case (.paired(let deviceID), .score(let event)):
            let channel = context.channel
            server.scoreQueue.async { [server] in
                server.delegate.receive(score: event, deviceID: deviceID) { reply in
                    channel.writeAndFlush(reply, promise: nil)
                }
            }
        case (.paired, .heartbeat):
            break
        case (.paired, _):
            logger.warning("closing connection: unexpected \(message.type.rawValue) message from a paired watch")
            close(context: context)
        case (.closing, _):
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.warning("closing connection: \(error)")
        close(context: context)
    }

    private func handshake(context: ChannelHandlerContext, _ hello: Hello) {
        helloTimeout?.cancel()
        let supported = LinkProtocol.supportedVersions
        guard supported.contains(hello.protocolVersion) else {
            return refuse(context: context, Refusal(
                reason: .unsupportedVersion,
                message: "Protocol version \(hello.protocolVersion) is not supported; this hub speaks \(supported.lowerBound)...\(supported.upperBound)."))
        }
        guard LinkServer.tokensMatch(hello.token, server.configuration.token) else {
            return refuse(context: context, Refusal(
                reason: .wrongToken,
                message: "Wrong pairing token; use the hub's token (hyzer-hub token, or the file hub/token in its home)."))
        }
        // A watch that said hello and left at once: nothing to pair, and no heartbeats to start
        // (they would run for a connection that no longer exists).
        guard context.channel.isActive else { return }
        phase = .paired(deviceID: hello.deviceID)
        logger[metadataKey: "device"] = "\(hello.deviceID)"
        logger.info("watch paired")
        let interval = server.configuration.heartbeatInterval
        context.writeAndFlush(wrapOutboundOut(.welcome(Welcome(
            hubID: server.configuration.hubID, heartbeatIntervalMillis: Int(interval.nanoseconds / 1_000_000)))), promise: nil)
        server.register(context.channel, deviceID: hello.deviceID)
        if let snapshot = server.lastSnapshot ?? server.delegate.currentSnapshot() {
            context.writeAndFlush(wrapOutboundOut(.standings(snapshot)), promise: nil)
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        heartbeats = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
            let (handler, context) = loopBound.value
            guard context.channel.isActive else { return task.cancel() }
            let missed = LinkProtocol.missedHeartbeatsBeforeUnreachable
            if NIODeadline.now() - handler.lastHeard > interval * missed {
                handler.logger.info("watch unreachable: nothing heard for \(missed) heartbeats; closing")
                handler.close(context: context)
                return task.cancel()
            }
            let heartbeat = Heartbeat(sentAt: Date(), sequence: handler.server.lastSnapshot?.sequence)
            context.writeAndFlush(handler.wrapOutboundOut(.heartbeat(heartbeat)), promise: nil)
        }
    }

    private func refuse(context: ChannelHandlerContext, _ refusal: Refusal) {
        guard case .awaitingHello = phase else { return }
        phase = .closing
        logger.warning("refused a watch: \(refusal.message)")
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.refused(refusal))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func close(context: ChannelHandlerContext) {
        phase = .closing
        context.close(promise: nil)
    }
}
