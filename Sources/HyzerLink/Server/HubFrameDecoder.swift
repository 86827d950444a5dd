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
        do {
            let message = try HyzerJSON.decoder().decode(LinkMessage.self, from: data)
            guard case .score(let event) = message else {
                if let rounded = LinkFrame.roundedInteger(in: body) { throw LinkError.malformedFrame(rounded) }
                return .message(message)
            }
            let peek = try? HyzerJSON.decoder().decode(Peek.self, from: data)
            let idAsSent = peek?.id ?? event.id.uuidString
            // A Double reads 3.000000000000000000001 as 3: a score's numbers are read as written.
            if let unfit = Self.notWhole(in: body, fields: ["hole", "strokes"]) {
                return .unacceptableScore(idAsSent: idAsSent, reason: .invalidScore, message: "The score is not valid: \(unfit).")
            }
            return .score(event, idAsSent: idAsSent)
        } catch {
            guard let peek = try? HyzerJSON.decoder().decode(Peek.self, from: data), peek.type == LinkMessage.MessageType.score.rawValue else {
                throw Self.malformed(error, body: body)
            }
            let id = peek.id ?? ""
            // Read as written first: 1e-400 is no stroke count, though a Double reads it as 0.
            if let unfit = Self.notWhole(in: body, fields: ["hole", "strokes"]) {
                return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(unfit).")
            }
            switch error {
            case ScoreError.strokesOutOfRange: return .unacceptableScore(idAsSent: id, reason: .strokesOutOfRange, message: "\(error)")
            case ScoreError.holeOutOfRange: return .unacceptableScore(idAsSent: id, reason: .holeOutOfRange, message: "\(error)")
            case let error as ScoreError: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: error.description)
            case let error as DecodingError:
                let explained = HyzerJSON.explain(error)
                // The frame is JSON (checked above), so what Foundation calls "not valid JSON" is
                // a number it cannot hold: say which.
                if explained == "not valid JSON" {
                    let number = LinkFrame.unfitNumber(in: body) ?? "a number in it cannot be read (hole and strokes are small whole numbers)"
                    return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(number).")
                }
                return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(explained).")
            default: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(error).")
            }
        }
    }

    /// "strokes must be a whole number from 1 to 10; got 3.5": the first of a score's `fields`
    /// whose number, as written, is not a whole one (or no Int holds it).
    static func notWhole(in body: ByteBuffer, fields: [String]) -> String? {
        let allowed = ["hole": "a whole number from 1", "strokes": "a whole number from 1 to 10"]
        return body.withUnsafeReadableBytes { bytes in
            for (path, text) in JSONSyntax.numbers(in: bytes) {
                guard path.hasPrefix("body."), case let field = String(path.dropFirst(5)), fields.contains(field) else { continue }
                if !JSONSyntax.isWholeNumber(text) || (Int(text) == nil && !(Double(text).map { abs($0) < 9.2e18 } ?? false)) {
                    return "\(field) must be \(allowed[field] ?? "a whole number"); got \(text)"
                }
            }
            return nil
        }
    }

    private static func malformed(_ error: any Error, body: ByteBuffer) -> LinkError {
        switch error {
        case let error as DecodingError:
            // The frame is JSON (checked first): "not valid JSON" from the decoder is a number.
            .malformedFrame(HyzerJSON.explain(error) == "not valid JSON" ? LinkFrame.unfitNumber(in: body) ?? "not valid JSON" : HyzerJSON.explain(error))
        case let error as ScoreError: .malformedFrame(error.description)
        case let error as LinkError: error
        default: .malformedFrame("\(error)")
        }
    }
}
