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

    /// Just enough of a frame to answer it: its type, the score's id as written and the keys its
    /// body has.
    private struct Peek: Decodable {
        let type: String
        /// The body's `id` when it is a string; nil for anything else.
        let id: String?
        /// The body's keys (empty when it is not an object).
        let bodyKeys: [String]

        private struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            type = try container.decode(String.self, forKey: Key(stringValue: "type"))
            let body = try? container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "body"))
            id = (try? body?.decodeIfPresent(String.self, forKey: Key(stringValue: "id"))) ?? nil
            bodyKeys = body?.allKeys.map(\.stringValue) ?? []
        }
    }

    /// A score's fields (`score-event.schema.json`: no others).
    static let scoreFields: Set<String> = ["id", "roundID", "playerID", "hole", "strokes", "supersedesEventID", "reportedByPlayerID",
                                           "deviceID", "source", "createdAt"]

    public static func inbound(in body: ByteBuffer) throws -> LinkInbound {
        if let (event, id) = body.withUnsafeReadableBytes(CanonicalFrames.score) { return .score(event, idAsSent: id) }
        // Not JSON anywhere (a key no model reads included) closes the connection, before the
        // decoder, which would read some of it as a number it cannot hold, or not at all.
        try LinkFrame.requireJSON(body)
        let data = Data(body.readableBytesView)
        do {
            let message = try HyzerJSON.decoder().decode(LinkMessage.self, from: data)
            guard case .score(let event) = message else { return .message(message) }
            let peek = try? HyzerJSON.decoder().decode(Peek.self, from: data)
            let idAsSent = peek?.id ?? event.id.uuidString
            let unknown = (peek?.bodyKeys ?? []).filter { !scoreFields.contains($0) }.sorted()
            guard unknown.isEmpty else {
                let fields = unknown.map { "body.\($0)" }.joined(separator: ", ")
                let message = "The score is not valid: unknown field\(unknown.count == 1 ? "" : "s") \(fields); a score has exactly "
                    + "id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source and createdAt."
                return .unacceptableScore(idAsSent: idAsSent, reason: .invalidScore, message: message)
            }
            return .score(event, idAsSent: idAsSent)
        } catch {
            guard let peek = try? HyzerJSON.decoder().decode(Peek.self, from: data), peek.type == LinkMessage.MessageType.score.rawValue else {
                throw Self.malformed(error)
            }
            let id = peek.id ?? ""
            switch error {
            case ScoreError.strokesOutOfRange: return .unacceptableScore(idAsSent: id, reason: .strokesOutOfRange, message: "\(error)")
            case ScoreError.holeOutOfRange: return .unacceptableScore(idAsSent: id, reason: .holeOutOfRange, message: "\(error)")
            case let error as ScoreError: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: error.description)
            case let error as DecodingError:
                let explained = HyzerJSON.explain(error)
                // The frame is JSON (checked above), so what Foundation calls "not valid JSON" is
                // a number it cannot hold: say which.
                if explained == "not valid JSON", let number = Self.unrepresentableNumber(in: data) {
                    return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(number).")
                }
                return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(explained).")
            default: return .unacceptableScore(idAsSent: id, reason: .invalidScore, message: "The score is not valid: \(error).")
            }
        }
    }

    /// "strokes must be a whole number from 1 to 10; got 3.5": the body's number that no integer
    /// holds (a fraction, or past 64 bits), which Foundation's decoder reports only as invalid JSON.
    static func unrepresentableNumber(in data: Data) -> String? {
        let allowed = ["hole": "a whole number from 1", "strokes": "a whole number from 1 to 10"]
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let body = object["body"] as? [String: Any] else {
            return "a number in it is too large to read (hole and strokes are small whole numbers)"
        }
        for key in ["strokes", "hole"] {
            guard let number = body[key] as? NSNumber, !(number is Bool) else { continue }
            let value = number.doubleValue
            if value.rounded() != value || abs(value) >= 9.2e18 || !value.isFinite {
                return "\(key) must be \(allowed[key]!); got \(number)"
            }
        }
        return nil
    }

    private static func malformed(_ error: any Error) -> LinkError {
        switch error {
        case let error as DecodingError: .malformedFrame(HyzerJSON.explain(error))
        case let error as ScoreError: .malformedFrame(error.description)
        default: .malformedFrame("\(error)")
        }
    }
}
