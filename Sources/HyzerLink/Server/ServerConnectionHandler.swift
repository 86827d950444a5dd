import Foundation
import HyzerKit
import Logging
import NIOCore

/// One watch connection on the hub: hello first, then scores and heartbeats. Every frame that
/// parses as a message gets an answer; only bytes that are not a message close the connection.
final class ServerConnectionHandler: ChannelInboundHandler {
    /// How the log says a paired watch went quiet (a test looks for it: one place for the words).
    static let unreachableLog = "watch unreachable"
    typealias InboundIn = LinkInbound
    typealias OutboundOut = LinkMessage

    private enum Phase { case awaitingHello, paired(deviceID: String), closing }

    private let server: LinkServer
    private let frameLimit: FrameLimit
    private var phase = Phase.awaitingHello
    private var countedUnpaired = false
    private var helloTimeout: Scheduled<Void>?
    private var heartbeats: RepeatedTask?
    private var hearing = Hearing()
    /// The score queue's answers counted at the last heartbeat to this watch.
    private var queueAnswersAtBeat = 0
    /// Scores read from this watch and not yet answered (`LinkProtocol.maxScoresInFlightPerWatch`),
    /// those read past that number and held back, and whether reading has stopped for them.
    private var scoresInFlight = 0
    private var held: [(deviceID: String, inbound: LinkInbound)] = []
    private var readingStopped = false
    /// A close that waits for the held scores to be answered first.
    private var closeWhenDrained = false
    /// The newest standings not yet written because the watch is not reading: a slow watch gets
    /// the latest, never a backlog.
    private var pendingSnapshot: StandingsSnapshot?
    /// Whether the watch's app is in the foreground, as its heartbeats last said (nil: not said).
    private var appActive: Bool?
    /// The device that paired on this connection, once it has.
    private var pairedDevice: String?
    private var logger: Logger

    init(server: LinkServer, frameLimit: FrameLimit) {
        self.server = server
        self.frameLimit = frameLimit
        self.logger = server.logger
    }

    // MARK: Lifecycle

    func channelActive(context: ChannelHandlerContext) {
        logger[metadataKey: "peer"] = "\(context.remoteAddress.map { "\($0)" } ?? "unix")"
        server.admitUnpaired(context.channel)
        countedUnpaired = true
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        helloTimeout = context.eventLoop.scheduleTask(in: server.configuration.helloTimeout) {
            let (handler, context) = loopBound.value
            handler.refuse(context: context, Refusal(reason: .helloExpected, message: "No hello within \(handler.server.configuration.helloTimeout.nanoseconds / 1_000_000) ms; the first frame must be a hello."))
        }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is LinkServer.MadeRoomFor {
            return refuse(context: context, Refusal(reason: .busy, message: "Too many connections are waiting to pair; try again shortly."))
        }
        if event is LinkServer.Stopping {
            // The scores on the queue are answered; those held back past it are not taken (the
            // watch sends them again to the next hub), and nothing more is read.
            held.removeAll()
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            return closeAfterAnswers(context: context)
        }
        // The peer shut its side down: nothing more comes, but what it sent is still answered.
        if let event = event as? ChannelEvent, event == .inputClosed {
            if case .paired = phase { closeAfterAnswers(context: context) } else if case .awaitingHello = phase { close(context: context) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        helloTimeout?.cancel()
        heartbeats?.cancel()
        leaveUnpaired(context: context)
        server.unregister(context.channel)
        // Scores held past the queue's 16 have no one left to answer: storing them would keep the
        // hub busy for a watch that is gone (a flood that hangs up). The watch sends them again.
        held.removeAll()
        // Said whether it left abruptly or closing (after its answers): `phase` is `.closing` then.
        if let deviceID = pairedDevice {
            throttledLog(.info, "watch disconnected", metadata: ["device": "\(deviceID)"])
            server.delegate.watch(deviceID, appActive: nil)
        }
        phase = .closing
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let snapshot = pendingSnapshot {
            pendingSnapshot = nil
            context.writeAndFlush(wrapOutboundOut(.standings(snapshot)), promise: nil)
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once closing, later errors are the decoder refusing what follows the first one.
        if case .closing = phase { return }
        // The decoder reports data after its first error wrapped in that error: say the first.
        var error = error
        if case ByteToMessageDecoderError.dataReceivedInErrorState(let first, _)? = error as? ByteToMessageDecoderError { error = first }
        if case .awaitingHello = phase {
            // Bytes that are not a hello: say so before closing, as for any refusal.
            refuse(context: context, Refusal(reason: .invalidHello, message: "The first frame must be a valid hello: \(error)."))
        } else if let io = error as? IOError, io.errnoCode == ECONNRESET || io.errnoCode == EPIPE {
            // A watch gone without a goodbye (out of range, killed, its app ended) is what watches
            // do, not the hub's trouble: said at info, in words, not as NIO's read call.
            throttledLog(.info, "the watch hung up (\(String(cString: strerror(io.errnoCode))))", kind: "hangup")
            closeAfterAnswers(context: context)
        } else {
            throttledLog(.warning, "closing connection: \(error)")
            closeAfterAnswers(context: context)
        }
    }

    // MARK: Frames

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let inbound = unwrapInboundIn(data)
        hearing.heard()
        switch (phase, inbound) {
        case (.awaitingHello, .message(.hello(let hello))):
            handshake(context: context, hello)
        case (.awaitingHello, _):
            refuse(context: context, Refusal(reason: .helloExpected, message: "The first frame must be a hello; got \(inbound.typeName)."))
        case (.paired(let deviceID), .score), (.paired(let deviceID), .unacceptableScore):
            // A watch that sends scores but never reads their answers: the hub would keep them all.
            if closeIfNotReading(context: context) { return }
            // At most `maxScoresInFlightPerWatch` of this watch's scores wait in the hub's queue;
            // the rest are held here, and the socket is not read, until answers go out.
            if scoresInFlight >= LinkProtocol.maxScoresInFlightPerWatch || !held.isEmpty {
                held.append((deviceID, inbound))
                if !readingStopped {
                    readingStopped = true
                    context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
                }
            } else {
                dispatch(inbound, deviceID: deviceID, context: context)
            }
        case (.paired(let deviceID), .message(.heartbeat(let heartbeat))):
            if let active = heartbeat.appActive, active != appActive {
                appActive = active
                server.delegate.watch(deviceID, appActive: active)
            }
            catchUp(context: context, watchSequence: heartbeat.sequence)
        case (.paired, _):
            throttledLog(.warning, "closing connection: unexpected \(inbound.typeName) message from a paired watch")
            closeAfterAnswers(context: context)
        case (.closing, _):
            break
        }
    }

    /// Sends one score (or a score frame that cannot be accepted) to the score queue, to be
    /// answered in arrival order.
    private func dispatch(_ inbound: LinkInbound, deviceID: String, context: ChannelHandlerContext) {
        switch inbound {
        case .score(let event, let idAsSent):
            // What the link refuses by itself; still answered on the score queue, in arrival
            // order, and only once the store has said the score is not a resend (a resend is
            // acked whatever it says, as PROTOCOL.md's hub side has it).
            let refusal: (reason: Rejection.Reason, message: String)? =
                if event.deviceID.utf8.count > LinkProtocol.maxDeviceIDLength {
                    // A stored event may name another phone's device (DEVICE@PHONE, up to 128
                    // bytes); a watch names itself, as at hello.
                    (.invalidScore, "deviceID must be 1 to \(LinkProtocol.maxDeviceIDLength) bytes with no control characters.")
                } else if !event.deviceID.hasSameBytes(as: deviceID) {
                    (.wrongDevice, "The score names device \"\(event.deviceID)\", but this connection paired as \"\(deviceID)\"; a watch scores as itself.")
                } else if event.source == .resolution {
                    (.resolutionNotAllowed, "A watch cannot settle a discrepancy; the organizer resolves it on the phone (hyzer-hub resolve PLAYER STROKES --hole N).")
                } else {
                    nil
                }
            let channel = context.channel
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            scoreRead(context: context)
            let answered: @Sendable () -> Void = {
                loopBound.eventLoop.execute { loopBound.value.0.scoreAnswered(context: loopBound.value.1) }
            }
            server.scoreQueue.async { [server] in
                let answer: @Sendable (ScoreVerdict) -> Void = { verdict in
                    switch verdict {
                    case .stored(let alreadyStored, let classification):
                        channel.writeAndFlush(LinkMessage.ack(Ack(eventID: idAsSent, alreadyStored: alreadyStored, classification: classification)), promise: nil)
                    case .rejected(let reason, let message):
                        channel.writeAndFlush(LinkMessage.rejected(Rejection(eventID: idAsSent, reason: reason, message: message)), promise: nil)
                    case .retryLater:
                        break
                    }
                    answered()
                }
                guard let refusal else { return server.delegate.receive(score: event, deviceID: deviceID, respond: answer) }
                if let stored = server.delegate.verdictIfStored(event) { return answer(stored) }
                loopBound.eventLoop.execute {
                    let (handler, context) = loopBound.value
                    handler.reject(context: context, idAsSent: idAsSent, refusal.reason, refusal.message)
                    handler.scoreAnswered(context: context)
                }
            }
        case .unacceptableScore(let idAsSent, let reason, let message):
            // Answered on the score queue too, so answers keep the frames' order, and only once
            // the store has said the id is not another score's (the id is checked first).
            let channel = context.channel
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            scoreRead(context: context)
            server.scoreQueue.async { [server] in
                var inUse = false
                if let id = UUID(canonicalString: idAsSent), case .rejected(let reason, let message)? = server.delegate.verdictIfStored(id: id) {
                    channel.writeAndFlush(LinkMessage.rejected(Rejection(eventID: idAsSent, reason: reason, message: message)), promise: nil)
                    inUse = true
                }
                loopBound.eventLoop.execute { [inUse] in
                    let (handler, context) = loopBound.value
                    if !inUse { handler.reject(context: context, idAsSent: idAsSent, reason, message) }
                    handler.scoreAnswered(context: context)
                }
            }
        default:
            break
        }
    }

    /// Closes a watch that has left more than `maxUnreadBytesPerWatch` of what the hub wrote to
    /// it unread (NIO's buffer for it), and says whether it did. Checked at each of its scores and
    /// at each heartbeat, so neither answers nor heartbeats pile up for a watch that never reads.
    private func closeIfNotReading(context: ChannelHandlerContext) -> Bool {
        let unread = (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
        guard unread > LinkProtocol.maxUnreadBytesPerWatch else { return false }
        throttledLog(.warning, "closing connection: the watch left \(unread) bytes unread (it sends again what went unanswered)", kind: "unread")
        close(context: context)
        return true
    }

    private func scoreRead(context: ChannelHandlerContext) {
        server.scoreQueued()
        scoresInFlight += 1
    }

    /// One of this watch's scores was answered: the next held one goes to the queue; with none
    /// held, reading resumes (or the close that waited for them goes ahead).
    private func scoreAnswered(context: ChannelHandlerContext) {
        server.scoreAnswered()
        scoresInFlight -= 1
        while scoresInFlight < LinkProtocol.maxScoresInFlightPerWatch, !held.isEmpty {
            let (deviceID, inbound) = held.removeFirst()
            dispatch(inbound, deviceID: deviceID, context: context)
        }
        guard held.isEmpty else { return }
        if closeWhenDrained {
            closeWhenDrained = false
            closeBehindAnswers(context.channel)
        } else if readingStopped, context.channel.isActive, case .paired = phase {
            readingStopped = false
            // What the watch sent while it was not read is still unread: that wait was the hub's.
            hearing.heard()
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
    }

    private func reject(context: ChannelHandlerContext, idAsSent: String, _ reason: Rejection.Reason, _ message: String) {
        throttledLog(.warning, "rejected a score: \(message)")
        context.writeAndFlush(wrapOutboundOut(.rejected(Rejection(eventID: idAsSent, reason: reason, message: message))), promise: nil)
    }

    // MARK: Pairing

    private func handshake(context: ChannelHandlerContext, _ hello: Hello) {
        helloTimeout?.cancel()
        let supported = LinkProtocol.supportedVersions
        guard supported.contains(hello.protocolVersion) else {
            return refuse(context: context, Refusal(
                reason: .unsupportedVersion,
                message: "Protocol version \(hello.protocolVersion) is not supported; this hub speaks \(supported.lowerBound)...\(supported.upperBound)."))
        }
        guard Self.isValidDeviceID(hello.deviceID) else { return refuse(context: context, Self.badName("deviceID", hello.deviceID)) }
        if let reserved = server.delegate.refusal(forDeviceID: hello.deviceID) {
            return refuse(context: context, Refusal(reason: .invalidHello, message: reserved))
        }
        if let wearer = hello.wearer, !Self.isValidDeviceID(wearer) { return refuse(context: context, Self.badName("wearer", wearer)) }
        guard hello.token.utf8.count <= LinkProtocol.maxTokenLength else {
            return refuse(context: context, Refusal(
                reason: .invalidHello,
                message: "The token must be at most \(LinkProtocol.maxTokenLength) bytes; got \(hello.token.utf8.count)."))
        }
        guard LinkServer.tokensMatch(hello.token, server.configuration.token) else {
            let refusal = Refusal(reason: .wrongToken, message: "Wrong pairing token; use the hub's token (hyzer-hub token, or the file hub/token in its home).")
            // A guess holds no place among those waiting to pair while its answer waits.
            leaveUnpaired(context: context)
            let peer = context.remoteAddress?.ipAddress ?? "local"
            guard let delay = server.delayForWrongToken(from: peer) else { return close(context: context) }
            guard delay > .zero else { return refuse(context: context, refusal) }
            phase = .closing  // nothing more is read while the refusal waits
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) {
                let (handler, context) = loopBound.value
                handler.server.refusalDelivered()
                handler.phase = .awaitingHello
                handler.refuse(context: context, refusal)
            }
            return
        }
        // A watch that said hello and left at once: nothing to pair, and no heartbeats to start
        // (they would run for a connection that no longer exists).
        guard context.channel.isActive else { return }
        phase = .paired(deviceID: hello.deviceID)
        pairedDevice = hello.deviceID
        leaveUnpaired(context: context)
        frameLimit.value = min(LinkProtocol.maxWatchFrameBytes, server.configuration.maxFrameBytes)
        logger[metadataKey: "device"] = "\(hello.deviceID)"
        throttledLog(.info, "watch paired")
        let interval = server.configuration.heartbeatInterval
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        // Registered before anything is written: a peer already gone makes the welcome's write
        // fail and the channel close at once, and channelInactive then unregisters it. Registered
        // after, a dead channel would stay registered for good (and every push would walk it).
        server.register(LinkServer.PairedWatch(channel: context.channel, deviceID: hello.deviceID, push: { snapshot, pushed in
            loopBound.eventLoop.execute {
                loopBound.value.0.push(snapshot, context: loopBound.value.1)
                pushed()
            }
        }, complicationEnabled: hello.complicationEnabled == true, wearer: hello.wearer, send: { message in
            loopBound.eventLoop.execute {
                let (handler, context) = loopBound.value
                guard case .paired = handler.phase else { return }
                context.writeAndFlush(handler.wrapOutboundOut(message), promise: nil)
            }
        }))
        context.writeAndFlush(wrapOutboundOut(.welcome(Welcome(
            hubID: server.configuration.hubID, heartbeatIntervalMillis: Int(interval.nanoseconds / 1_000_000)))), promise: nil)
        guard context.channel.isActive else { return server.unregister(context.channel) }
        if let snapshot = server.lastSnapshot ?? server.delegate.currentSnapshot() {
            context.writeAndFlush(wrapOutboundOut(.standings(snapshot)), promise: nil)
        }
        if hello.complicationEnabled == true { server.delegate.paired(complicationWatch: hello.deviceID, wearer: hello.wearer) }
        // Listed as paired before its first heartbeat says where its app is (or if none ever does).
        server.delegate.watch(hello.deviceID, appActive: nil)
        heartbeats = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
            let (handler, context) = loopBound.value
            guard context.channel.isActive else { return task.cancel() }
            // With reading stopped for its held scores, what the watch sent meanwhile (its
            // heartbeats too) waits unread behind them, and its scores wait in the queue behind
            // every other watch's: while the queue answers anyone's, the silence is the hub's.
            // A store that stops answering still lets a dead watch be found.
            let queueAnswers = handler.server.scoresAnswered
            let queueAnswered = handler.readingStopped && queueAnswers != handler.queueAnswersAtBeat
            handler.queueAnswersAtBeat = queueAnswers
            if handler.hearing.beat(alsoHeard: queueAnswered) {
                handler.throttledLog(.info, "\(Self.unreachableLog): nothing heard for \(LinkProtocol.missedHeartbeatsBeforeUnreachable) heartbeats; closing")
                handler.close(context: context)
                return task.cancel()
            }
            // A watch that beats but never reads: what the hub writes to it (heartbeats, complications,
            // answers) would be kept for good.
            if handler.closeIfNotReading(context: context) { return task.cancel() }
            let confirmed = handler.server.delegate.confirmsStandings ? handler.server.lastSnapshot?.sequence : nil
            let heartbeat = Heartbeat(sentAt: Date(), sequence: confirmed)
            context.writeAndFlush(handler.wrapOutboundOut(.heartbeat(heartbeat)), promise: nil)
        }
    }

    /// A device id is shown in the phone's lists: nothing in it may hide or reorder text.
    static func isValidDeviceID(_ id: String) -> Bool {
        id.utf8.count <= LinkProtocol.maxDeviceIDLength && !NameText.hasHiddenCharacters(id)
            && id.unicodeScalars.contains { $0 != " " }
    }

    /// The hello's `deviceID` or `wearer` refused: its bounds, how long it was, and whether a
    /// hidden character was the trouble.
    static func badName(_ field: String, _ value: String) -> Refusal {
        Refusal(reason: .invalidHello,
                message: "\(field) must be 1 to \(LinkProtocol.maxDeviceIDLength) bytes with no control or invisible characters (direction overrides, zero-width spaces); got \(value.utf8.count) bytes\(NameText.hasHiddenCharacters(value) ? " with such a character" : "").")
    }

    private func leaveUnpaired(context: ChannelHandlerContext) {
        if countedUnpaired {
            countedUnpaired = false
            server.leftUnpaired(context.channel)
        }
    }

    // MARK: Standings

    /// Writes standings now, or keeps them as the one pending snapshot while the watch is not reading.
    private func push(_ snapshot: StandingsSnapshot, context: ChannelHandlerContext) {
        guard case .paired = phase else { return }
        if context.channel.isWritable {
            context.writeAndFlush(wrapOutboundOut(.standings(snapshot)), promise: nil)
        } else {
            pendingSnapshot = snapshot
        }
    }

    /// A watch's heartbeat names the sequence it shows; if the hub has newer standings (a push was
    /// lost, or the watch cannot read the shared file), it sends them again.
    private func catchUp(context: ChannelHandlerContext, watchSequence: Int?) {
        guard let watchSequence, let newest = server.lastSnapshot, newest.sequence > watchSequence else { return }
        push(newest, context: context)
    }

    // MARK: Ending

    private func refuse(context: ChannelHandlerContext, _ refusal: Refusal) {
        guard case .awaitingHello = phase else { return }
        phase = .closing
        throttledLog(.warning, "refused a watch: \(refusal.message)", kind: "refused a watch: \(refusal.reason)")
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.refused(refusal))).whenComplete { _ in channel.close(promise: nil) }
        // The refusal may never be written: over TLS a peer that never finishes its handshake
        // holds it back, and a peer that does not read never takes it. Either way the connection
        // (and its place among those waiting to pair) goes within a second.
        context.eventLoop.scheduleTask(in: Self.refusalGrace) { channel.close(promise: nil) }
    }

    /// How long a refused connection may take to receive its refusal before it is closed anyway.
    static let refusalGrace = TimeAmount.seconds(1)

    private func close(context: ChannelHandlerContext) {
        phase = .closing
        context.close(promise: nil)
    }

    /// Closes once every frame read before is answered: scores are answered on the score queue,
    /// in order, and their answers written on the event loop in that order; the close goes the
    /// same way behind them. Nothing read from now on is handled.
    private func closeAfterAnswers(context: ChannelHandlerContext) {
        phase = .closing
        if held.isEmpty { closeBehindAnswers(context.channel) } else { closeWhenDrained = true }
    }

    private func closeBehindAnswers(_ channel: any Channel) {
        server.scoreQueue.async {
            channel.eventLoop.execute { channel.close(promise: nil) }
        }
    }

    private func throttledLog(_ level: Logger.Level, _ message: String, kind: String? = nil, metadata: Logger.Metadata? = nil) {
        server.logThrottle.log(logger, level, message, kind: kind, metadata: metadata)
    }
}
