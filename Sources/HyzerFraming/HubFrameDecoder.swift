import Foundation
import HyzerKit
import NIOConcurrencyHelpers
import NIOCore

/// What the hub reads from a watch: a message, a score with its id as the watch wrote it, or a
/// well-framed score it cannot accept as sent (answered with `rejected`, never a reason to close).
public enum LinkInbound: Sendable, Hashable {
    case message(LinkMessage)
    case score(ScoreEvent, idAsSent: String)
    case unacceptableScore(idAsSent: String, reason: Rejection.Reason, message: String)

    /// The frame's `type`, for logs.
    public var typeName: String {
        switch self {
        case .message(let message): message.type.rawValue
        case .score, .unacceptableScore: LinkMessage.MessageType.score.rawValue
        }
    }
}

/// The largest frame a connection may send, raised once it has paired: before hello only a
/// hello-sized frame gets in, so an unpaired connection can never make the hub buffer much.
public final class FrameLimit: Sendable {
    private let bytes: NIOLockedValueBox<Int>

    public init(_ bytes: Int) { self.bytes = NIOLockedValueBox(bytes) }

    public var value: Int {
        get { bytes.withLockedValue { $0 } }
        set { bytes.withLockedValue { $0 = newValue } }
    }
}

/// The hub's side of the framing codec (`LinkFrame` does the framing): turns each body into a
/// `LinkInbound`. A score that parses as a message but not as a valid score is handed on as
/// `unacceptableScore`, so the connection stays open and the watch gets an answer.
public struct HubFrameDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = LinkInbound

    public let limit: FrameLimit

    public init(limit: FrameLimit) { self.limit = limit }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let body = try LinkFrame.nextBody(from: &buffer, maxFrameBytes: limit.value) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(try Self.inbound(in: body)))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        try LinkFrame.checkNothingLeft(in: buffer)
        return .needMoreData
    }

    public static func inbound(in body: ByteBuffer) throws -> LinkInbound {
        // Not JSON anywhere (a key no model reads included) closes the connection.
        let value = try LinkFrame.json(body)
        guard case .string(LinkMessage.MessageType.score.rawValue)? = value["type"] else { return .message(try LinkFrame.message(from: value)) }
        // A score is answered even when it cannot be read, with its id as sent when that is a string.
        let sentID: String? = if case .string(let id)? = value["body"]?["id"] { id } else { nil }
        do {
            guard case .score(let event) = try LinkJSON.decode(LinkMessage.self, from: value) else { throw LinkError.malformedFrame("not a score") }
            return .score(event, idAsSent: sentID ?? event.id.uuidString)
        } catch {
            return Self.unacceptable(error, idAsSent: sentID ?? "")
        }
    }

    /// A well-framed score that cannot be read or accepted, as the answer that says why.
    private static func unacceptable(_ error: any Error, idAsSent id: String) -> LinkInbound {
        switch error {
        case ScoreError.strokesOutOfRange: return .unacceptableScore(idAsSent: id, reason: .strokesOutOfRange, message: "\(error)")
        case ScoreError.holeOutOfRange: return .unacceptableScore(idAsSent: id, reason: .holeOutOfRange, message: "\(error)")
        case ScoreError.invalidField("deviceID", _):
            // A watch's device id has the bound it had at hello, not a stored event's (DEVICE@PHONE).
            return .unacceptableScore(idAsSent: id, reason: .invalidScore,
                                      message: "The score is not valid: \(ScoreError.invalidField("deviceID", maxLength: LinkProtocol.maxDeviceIDLength))")
        case let error as ScoreError: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(error)")
        case let number as LinkJSON.UnreadableNumber:
            // "strokes must be a whole number from 1 to 10; got 3.5"
            let bounds = ["body.hole": "hole must be a whole number from 1", "body.strokes": "strokes must be a whole number from 1 to 10"]
            let said = bounds[number.path].map { "\($0); got \(number.text)" } ?? number.description
            return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(said).")
        case let error as DecodingError:
            return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(HyzerJSON.explain(error)).")
        default: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(error).")
        }
    }
}
