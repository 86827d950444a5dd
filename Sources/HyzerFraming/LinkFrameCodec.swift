import Foundation
import HyzerKit
import NIOConcurrencyHelpers
import NIOCore

/// The link's one framing codec: a 4-byte big-endian length, then that many bytes of JSON
/// holding one `LinkMessage`.
///
/// swift-nio-extras' LengthFieldBasedFrameDecoder has no size limit below 2 GiB, so a hostile
/// length would make it buffer without bound; this decoder refuses anything over `maxFrameBytes`
/// as soon as the length is read.
public struct LinkFrameDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = LinkMessage

    public let maxFrameBytes: Int

    public init(maxFrameBytes: Int = LinkProtocol.maxFrameBytes) {
        self.maxFrameBytes = maxFrameBytes
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let message = try LinkFrame.decode(from: &buffer, maxFrameBytes: maxFrameBytes) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        try LinkFrame.checkNothingLeft(in: buffer)
        return .needMoreData
    }
}

/// Writes each message as one frame, in a buffer of its own sized to it. (NIO's
/// `MessageToByteHandler` reuses one buffer, grown to the largest frame it ever wrote, and each
/// write still waiting to go out keeps a copy of it: every answer unsent to a watch that was not
/// reading held a standings-sized buffer, ~48 KB an ack in a round of 270 players.)
public final class LinkFrameWriter: ChannelOutboundHandler {
    public typealias OutboundIn = LinkMessage
    public typealias OutboundOut = ByteBuffer

    /// The hub's: standings pushed to every paired watch are encoded once, not once per watch.
    let pushFrames: PushFrameCache?

    public init() { pushFrames = nil }

    package init(pushFrames: PushFrameCache) { self.pushFrames = pushFrames }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        do {
            context.write(wrapOutboundOut(try frame(for: unwrapOutboundIn(data))), promise: promise)
        } catch {
            promise?.fail(error)
            context.fireErrorCaught(error)
        }
    }

    func frame(for message: LinkMessage) throws -> ByteBuffer {
        if let pushFrames, case .standings(let snapshot) = message, let frame = pushFrames.frame(for: snapshot) { return frame }
        var frame = ByteBuffer()
        try LinkFrame.encode(message, into: &frame)
        if let pushFrames, case .standings(let snapshot) = message { pushFrames.keep(frame, for: snapshot) }
        return frame
    }
}

/// The last standings frame a hub encoded, for the next paired watch that is sent the same
/// standings: a push to many watches encodes its JSON once, so the last watch does not wait
/// behind one encoding for every watch before it.
package final class PushFrameCache: Sendable {
    private let last = NIOLockedValueBox<(snapshot: StandingsSnapshot, frame: ByteBuffer)?>(nil)

    package init() {}

    func frame(for snapshot: StandingsSnapshot) -> ByteBuffer? {
        last.withLockedValue { last in last.flatMap { $0.snapshot == snapshot ? $0.frame : nil } }
    }

    func keep(_ frame: ByteBuffer, for snapshot: StandingsSnapshot) {
        last.withLockedValue { $0 = (snapshot, frame) }
    }
}

/// Frame encoding and decoding over a ByteBuffer: the codec's work, also usable by a client that
/// writes raw bytes to the socket.
public enum LinkFrame {
    public static func encode(_ message: LinkMessage, into buffer: inout ByteBuffer) throws {
        // The two messages on the Save chain are written directly (what the encoder writes, byte
        // for byte): JSONEncoder is slow on that chain, for the standings and the score alike.
        let direct: (body: [UInt8], closing: StaticString)? = switch message {
        case .standings(let snapshot): (snapshot.compactJSON(), ",\"type\":\"standings\"}")
        case .score(let event): (event.compactJSON(), ",\"type\":\"score\"}")
        default: nil
        }
        if let (body, closing) = direct {
            let opening: StaticString = "{\"body\":"
            buffer.writeInteger(UInt32(opening.utf8CodeUnitCount + body.count + closing.utf8CodeUnitCount), endianness: .big)
            buffer.writeStaticString(opening)
            buffer.writeBytes(body)
            buffer.writeStaticString(closing)
            return
        }
        let body = try HyzerJSON.encoder().encode(message)
        buffer.writeInteger(UInt32(body.count), endianness: .big)
        buffer.writeBytes(body)
    }

    public static func encode(_ message: LinkMessage) throws -> [UInt8] {
        var buffer = ByteBuffer()
        try encode(message, into: &buffer)
        return Array(buffer.readableBytesView)
    }

    /// One message if a whole frame is buffered, nil if more bytes are needed.
    public static func decode(from buffer: inout ByteBuffer, maxFrameBytes: Int) throws -> LinkMessage? {
        guard let body = try nextBody(from: &buffer, maxFrameBytes: maxFrameBytes) else { return nil }
        return try message(in: body)
    }

    /// The framing alone: the body of the next whole frame, nil if more bytes are needed. The
    /// length is checked against `maxFrameBytes` as soon as its four bytes are in.
    public static func nextBody(from buffer: inout ByteBuffer, maxFrameBytes: Int) throws -> ByteBuffer? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, endianness: .big, as: UInt32.self) else { return nil }
        guard length > 0 else { throw LinkError.emptyFrame }
        guard Int(length) <= maxFrameBytes else { throw LinkError.frameTooLarge(length: Int(length), max: maxFrameBytes) }
        guard buffer.readableBytes >= 4 + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        return buffer.readSlice(length: Int(length))!
    }

    /// At the end of a connection: bytes left over are a frame cut short.
    public static func checkNothingLeft(in buffer: ByteBuffer) throws {
        guard buffer.readableBytes > 0 else { return }
        let expected = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self).map { Int($0) + 4 } ?? 4
        throw LinkError.truncatedFrame(expected: expected, received: buffer.readableBytes)
    }

    /// The body read as one JSON text (`LinkJSON`); anything else is a malformed frame, wherever
    /// the fault is.
    static func json(_ body: ByteBuffer) throws(LinkError) -> JSONValue {
        let read = body.withUnsafeReadableBytes { bytes in Result { () throws(LinkJSON.SyntaxError) in try LinkJSON.parse(bytes) } }
        switch read {
        case .success(let value): return value
        case .failure(let problem): throw .malformedFrame("not valid JSON: \(problem)")
        }
    }

    /// A whole number outside what `link-message.schema.json` allows for it, outside a score (a
    /// score's are answered `rejected`) and a hello (answered `refused`): "body.sequence must be
    /// 0 or more; got -1".
    static func boundProblem(in message: LinkMessage) -> String? {
        switch message {
        case .heartbeat(let heartbeat):
            if let sequence = heartbeat.sequence, sequence < 0 { return "body.sequence must be 0 or more; got \(sequence)" }
        case .welcome(let welcome):
            if welcome.heartbeatIntervalMillis < LinkProtocol.minimumHeartbeatMillis {
                return "body.heartbeatIntervalMillis must be \(LinkProtocol.minimumHeartbeatMillis) or more; got \(welcome.heartbeatIntervalMillis)"
            }
        default: break
        }
        return nil
    }

    /// The message a frame body holds; anything else is a malformed frame, with the reason.
    public static func message(in body: ByteBuffer) throws -> LinkMessage {
        try message(from: json(body))
    }

    /// The message a frame's JSON holds, every number read as written and checked against its
    /// field ("body.sequence must be a whole number; got 1.5"), or why it is a malformed frame.
    static func message(from value: JSONValue) throws -> LinkMessage {
        do {
            let message = try LinkJSON.decode(LinkMessage.self, from: value)
            if let problem = boundProblem(in: message) { throw LinkError.malformedFrame(problem) }
            return message
        } catch let error as LinkJSON.UnreadableNumber {
            throw LinkError.malformedFrame(error.description)
        } catch let error as DecodingError {
            throw LinkError.malformedFrame(HyzerJSON.explain(error))
        } catch let error as ScoreError {
            throw LinkError.malformedFrame(error.description)
        } catch let error as LinkError {
            throw error
        } catch {
            throw LinkError.malformedFrame("\(error)")
        }
    }
}
