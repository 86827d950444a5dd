import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// The page's connections, each closed when it has had no answer 10 s after it opened, and 2 s
/// after the server's stop began.
///
/// Hummingbird's idle timeout, and its close at the server's stop, start with a connection's
/// first request: a peer that opens one and sends nothing, or a request head a byte at a time,
/// or a head over the page's bounds (which is never answered), would hold it (and `serve`'s
/// stop) for as long as it liked. A request the page answers (a response, or the WebSocket's
/// upgrade) lifts the deadline; from then on Hummingbird's own 30 s idle timeout holds.
struct FirstAnswerDeadline: ServerChildChannel {
    static let deadline = TimeAmount.seconds(10)
    static let stopGrace = TimeAmount.seconds(2)
    let inner: HTTP1WebSocketUpgradeChannel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        // Added before the HTTP handlers (and after TLS, when the page is served over it): it
        // sees the page's answers as they leave.
        do { try channel.pipeline.syncOperations.addHandler(Handler()) } catch { return channel.eventLoop.makeFailedFuture(error) }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        typealias OutboundIn = NIOAny
        private var closing: Scheduled<Void>?
        private var answered = false

        func handlerAdded(context: ChannelHandlerContext) {
            let channel = context.channel
            closing = context.eventLoop.scheduleTask(in: FirstAnswerDeadline.deadline) { channel.close(promise: nil) }
        }

        func handlerRemoved(context: ChannelHandlerContext) { closing?.cancel() }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if !answered {
                answered = true
                closing?.cancel()
            }
            context.write(data, promise: promise)
        }

        /// The server stops: a connection that has had no answer has nothing to finish; any other
        /// (a request being answered, a live page whose peer never closes its end) has 2 s.
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelShouldQuiesceEvent {
                if answered {
                    let channel = context.channel
                    closing = context.eventLoop.scheduleTask(in: FirstAnswerDeadline.stopGrace) { channel.close(promise: nil) }
                } else {
                    context.close(promise: nil)
                }
            }
            context.fireUserInboundEventTriggered(event)
        }
    }
}
