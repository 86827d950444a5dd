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

    /// Just enough of a frame to answer it: its type and the score's id as written.
    private struct Peek: Decodable {
        let type: String
        /// The body's `id` when it is a string; nil for anything else.
        let id: String?

        private enum Keys: String, CodingKey { case type, body, id }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            type = try container.decode(String.self, forKey: .type)
            let body = try? container.nestedContainer(keyedBy: Keys.self, forKey: .body)
            id = (try? body?.decodeIfPresent(String.self, forKey: .id)) ?? nil
        }
    }

    public static func inbound(in body: ByteBuffer) throws -> LinkInbound {
        if let (event, id) = body.withUnsafeReadableBytes(CanonicalFrames.score) { return .score(event, idAsSent: id) }
        // Not JSON anywhere (a key no model reads included) closes the connection, before the
        // decoder, which would read some of it as a number it cannot hold, or not at all.
        try LinkFrame.requireJSON(body)
        let data = Data(body.readableBytesView)
        let peek = try? HyzerJSON.decoder().decode(Peek.self, from: data)
        let isScore = peek?.type == LinkMessage.MessageType.score.rawValue
        // A score's numbers are read as written, before the decoder: a Double reads
        // 3.000000000000000000001 as 3 and 1e-400 as 0.
        if isScore, let unfit = Self.notWhole(in: body) {
            return .unacceptableScore(idAsSent: peek?.id ?? "", reason: .invalidScore, message: "The score is not valid: \(unfit).")
        }
        let message: LinkMessage
        do {
            message = try HyzerJSON.decoder().decode(LinkMessage.self, from: data)
        } catch {
            guard isScore else { throw Self.malformed(error, body: body) }
            return Self.unacceptable(error, idAsSent: peek?.id ?? "", body: body)
        }
        guard case .score(let event) = message else {
            if let rounded = LinkFrame.numberProblem(in: body, among: LinkFrame.integerFields) { throw LinkError.malformedFrame(rounded) }
            if let problem = LinkFrame.boundProblem(in: message) { throw LinkError.malformedFrame(problem) }
            return .message(message)
        }
        return .score(event, idAsSent: peek?.id ?? event.id.uuidString)
    }

    /// A well-framed score the decoder refused, as the answer that says why.
    private static func unacceptable(_ error: any Error, idAsSent id: String, body: ByteBuffer) -> LinkInbound {
        switch error {
        case ScoreError.strokesOutOfRange: return .unacceptableScore(idAsSent: id, reason: .strokesOutOfRange, message: "\(error)")
        case ScoreError.holeOutOfRange: return .unacceptableScore(idAsSent: id, reason: .holeOutOfRange, message: "\(error)")
        case ScoreError.invalidField("deviceID", _):
            // A watch's device id has the bound it had at hello, not a stored event's (DEVICE@PHONE).
            return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: ScoreError.invalidField("deviceID", maxLength: LinkProtocol.maxDeviceIDLength).description)
        case let error as ScoreError: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: error.description)
        case let error as DecodingError:
            let explained = HyzerJSON.explain(error)
            // The frame is JSON (checked first), so what Foundation calls "not valid JSON" is a
            // number it cannot hold: say which.
            if explained == "not valid JSON" {
                let number = LinkFrame.numberProblem(in: body) ?? "a number in it cannot be read (hole and strokes are small whole numbers)"
                return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(number).")
            }
            return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(explained).")
        default: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(error).")
        }
    }

    /// "strokes must be a whole number from 1 to 10; got 3.5": a score's hole or strokes whose
    /// number, as written, is not a whole one (or no Int holds it).
    static func notWhole(in body: ByteBuffer) -> String? {
        let allowed = ["body.hole": ("hole", "a whole number from 1"), "body.strokes": ("strokes", "a whole number from 1 to 10")]
        return LinkFrame.unreadableInteger(in: body, among: Set(allowed.keys)).map { number in
            let (field, bound) = allowed[number.path]!
            return "\(field) must be \(bound); got \(number.text)"
        }
    }

    private static func malformed(_ error: any Error, body: ByteBuffer) -> LinkError {
        switch error {
        case let error as DecodingError:
            // The frame is JSON (checked first): "not valid JSON" from the decoder is a number.
            .malformedFrame(HyzerJSON.explain(error) == "not valid JSON" ? LinkFrame.numberProblem(in: body) ?? "not valid JSON" : HyzerJSON.explain(error))
        case let error as ScoreError: .malformedFrame(error.description)
        case let error as LinkError: error
        default: .malformedFrame("\(error)")
        }
    }
}
