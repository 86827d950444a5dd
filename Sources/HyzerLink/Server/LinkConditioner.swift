import HyzerKit
import Logging
import NIOCore

/// A bad link on purpose: latency, jitter and dropped frames, in both directions.
public struct LinkConditions: Sendable, Equatable {
    public var latency: TimeAmount
    public var jitter: TimeAmount
    /// Probability in 0...1 that a frame is dropped.
    public var dropProbability: Double

    public init(latency: TimeAmount = .zero, jitter: TimeAmount = .zero, dropProbability: Double = 0) {
        self.latency = latency
        self.jitter = jitter
        self.dropProbability = dropProbability
    }

    public var isPerfect: Bool { latency == .zero && jitter == .zero && dropProbability == 0 }
}

/// Sits between the frame codec and the connection logic. Delays keep frames in order (a later
/// frame never overtakes an earlier one); a dropped frame simply never arrives.
final class LinkConditionerHandler: ChannelDuplexHandler {
    typealias InboundIn = LinkInbound
    typealias InboundOut = LinkInbound
    typealias OutboundIn = LinkMessage
    typealias OutboundOut = LinkMessage

    private let conditions: LinkConditions
    private let logger: Logger
    private var inboundNotBefore = NIODeadline.uptimeNanoseconds(0)
    private var outboundNotBefore = NIODeadline.uptimeNanoseconds(0)
    private var generator = SystemRandomNumberGenerator()

    init(conditions: LinkConditions, logger: Logger) {
        self.conditions = conditions
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        if shouldDrop() {
            logger.debug("conditioner dropped an inbound frame", metadata: ["type": "\(message.typeName)"])
            return
        }
        let deadline = nextDeadline(after: &inboundNotBefore)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(deadline: deadline) {
            loopBound.value.fireChannelRead(NIOAny(message))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let message = unwrapOutboundIn(data)
        if shouldDrop() {
            logger.debug("conditioner dropped an outbound frame", metadata: ["type": "\(message.type.rawValue)"])
            promise?.succeed(())
            return
        }
        let deadline = nextDeadline(after: &outboundNotBefore)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(deadline: deadline) {
            loopBound.value.writeAndFlush(NIOAny(message), promise: promise)
        }
    }

    func flush(context: ChannelHandlerContext) {
        // Each delayed write flushes itself when it goes out.
    }

    private func shouldDrop() -> Bool {
        conditions.dropProbability > 0 && Double.random(in: 0..<1, using: &generator) < conditions.dropProbability
    }

    private func nextDeadline(after notBefore: inout NIODeadline) -> NIODeadline {
        var delay = conditions.latency.nanoseconds
        if conditions.jitter.nanoseconds > 0 {
            delay += Int64.random(in: -conditions.jitter.nanoseconds...conditions.jitter.nanoseconds, using: &generator)
        }
        let deadline = max(NIODeadline.now() + .nanoseconds(max(0, delay)), notBefore)
        notBefore = deadline
        return deadline
    }
}
