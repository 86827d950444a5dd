import Foundation
import Testing
import HyzerKit
@testable import HyzerFraming
@testable import HyzerLink

@Suite("Link messages")
struct LinkMessageTests {
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
    static let samples: [LinkMessage] = [
        .hello(Hello(deviceID: "watch-1", token: "secret")),
        .welcome(Welcome(hubID: "hub", heartbeatIntervalMillis: 1000)),
        .refused(Refusal(reason: .wrongToken, message: "Wrong pairing token.")),
        .score(try! ScoreEvent(roundID: UUID(), playerID: "11111111-1111-1111-1111-111111111111", hole: 1, strokes: 3,
                               reportedByPlayerID: "11111111-1111-1111-1111-111111111111", deviceID: "watch-1", source: .crown,
                               createdAt: epoch)),
        .ack(Ack(eventID: UUID(), alreadyStored: true)),
        .rejected(Rejection(eventID: UUID(), reason: .strokesOutOfRange, message: "Strokes must be between 1 and 10; got 11.")),
        .standings(StandingsSnapshot(hubID: "hub", sequence: 3, lastUpdatedAt: epoch, round: nil)),
        .heartbeat(Heartbeat(sentAt: epoch)),
    ]

    @Test("Every message round-trips through JSON with its type tag", arguments: samples)
    func roundTrip(message: LinkMessage) throws {
        let data = try HyzerJSON.encoder().encode(message)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(object["type"] as? String == message.type.rawValue)
        #expect(object["body"] != nil)
        #expect(try HyzerJSON.decoder().decode(LinkMessage.self, from: data) == message)
    }

    @Test("A hello frame has the documented shape")
    func helloShape() throws {
        let text = String(decoding: try HyzerJSON.encoder().encode(LinkMessage.hello(Hello(deviceID: "w", token: "t"))), as: UTF8.self)
        #expect(text == #"{"body":{"deviceID":"w","protocolVersion":1,"token":"t"},"type":"hello"}"#)
    }

    @Test("An unknown message type does not decode")
    func unknownType() {
        #expect(throws: DecodingError.self) {
            try HyzerJSON.decoder().decode(LinkMessage.self, from: Data(#"{"type":"bogus","body":{}}"#.utf8))
        }
    }
}
