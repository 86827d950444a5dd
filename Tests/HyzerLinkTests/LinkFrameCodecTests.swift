import Foundation
import HyzerKit
@testable import HyzerFraming
@testable import HyzerLink
import NIOCore
import NIOEmbedded
import Testing

@Suite("Link frame codec")
struct LinkFrameCodecTests {
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
    static let event = try! ScoreEvent(
        id: UUID(uuidString: "00000000-0000-0000-0000-0000000000AA")!, roundID: UUID(), playerID: "p", hole: 3, strokes: 4,
        reportedByPlayerID: "p", deviceID: "watch-1", source: .crown, createdAt: epoch)
    static let snapshot = StandingsSnapshot(
        hubID: "hub", sequence: 7, lastUpdatedAt: epoch,
        round: RoundSnapshot(id: UUID(), courseName: "Maple Hill", status: .active, currentHole: 2, holeCount: 18,
                             holes: [Hole(number: 1, par: 3)],
                             standings: [Standing(playerID: "p", name: "Jake", position: 1, tied: false, totalStrokes: 3,
                                                  holesPlayed: 1, scoreRelativeToPar: 0, currentHoleStrokes: nil, discrepancy: false)]))

    static let messages: [LinkMessage] = [
        .hello(Hello(deviceID: "watch-1", token: "secret")),
        .welcome(Welcome(hubID: "hub", heartbeatIntervalMillis: 1000)),
        .refused(Refusal(reason: .wrongToken, message: "Wrong pairing token.")),
        .score(event),
        .ack(Ack(eventID: event.id, alreadyStored: false)),
        .rejected(Rejection(eventID: event.id, reason: .unknownPlayer, message: "No.")),
        .standings(snapshot),
        .heartbeat(Heartbeat(sentAt: epoch, sequence: 7)),
    ]

    /// A frame around any bytes: big-endian length, then the bytes.
    static func frame(_ body: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + body
    }

    static func decoder() -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(LinkFrameDecoder(maxFrameBytes: 4096)))
    }

    @Test("A frame is a 4-byte big-endian length and the JSON message")
    func frameLayout() throws {
        let bytes = try LinkFrame.encode(.heartbeat(Heartbeat(sentAt: Self.epoch)))
        let body = Array(#"{"body":{"sentAt":"2026-11-18T11:06:40.000Z"},"type":"heartbeat"}"#.utf8)
        #expect(bytes == Self.frame(body))
        #expect(bytes.prefix(4) == [0, 0, 0, 65])
    }

    @Test("A standings push, written directly, is the frame the JSON encoder makes of the message, byte for byte")
    func standingsFrameAsEncoded() throws {
        let empty = StandingsSnapshot(hubID: "h\"/ü", sequence: 0, lastUpdatedAt: Self.epoch, round: nil)
        for snapshot in [Self.snapshot, empty] {
            let body = try HyzerJSON.encoder().encode(LinkMessage.standings(snapshot))
            #expect(try LinkFrame.encode(.standings(snapshot)) == Self.frame(Array(body)))
            var buffer = ByteBuffer(bytes: try LinkFrame.encode(.standings(snapshot)))
            #expect(try LinkFrame.decode(from: &buffer, maxFrameBytes: 4096) == .standings(snapshot))
        }
    }

    @Test("A score, written directly, is the frame the JSON encoder makes of the message, byte for byte")
    func scoreFrameAsEncoded() throws {
        let awkward = try ScoreEvent(roundID: UUID(), playerID: "guest:Zoë \"Q\" a/b \\", hole: 18, strokes: 10,
                                     supersedesEventID: Self.event.id, reportedByPlayerID: "p", deviceID: "李-🥏", source: .voice,
                                     createdAt: Self.epoch.addingTimeInterval(0.123))
        for event in [Self.event, awkward] {
            let body = try HyzerJSON.encoder().encode(LinkMessage.score(event))
            #expect(try LinkFrame.encode(.score(event)) == Self.frame(Array(body)))
            var buffer = ByteBuffer(bytes: try LinkFrame.encode(.score(event)))
            #expect(try LinkFrame.decode(from: &buffer, maxFrameBytes: 4096) == .score(event))
        }
    }

    @Test("The hub's encoder encodes a push once for all its watches, and never sends one watch's frame for other standings")
    func pushFramesShared() throws {
        let cache = PushFrameCache()
        let next = StandingsSnapshot(hubID: "hub", sequence: 8, lastUpdatedAt: Self.epoch, round: Self.snapshot.round)
        func encoded(_ message: LinkMessage) throws -> [UInt8] {
            Array(try LinkFrameWriter(pushFrames: cache).frame(for: message).readableBytesView)
        }
        // Each watch's connection has its own encoder; they share the cache.
        #expect(try encoded(.standings(Self.snapshot)) == LinkFrame.encode(.standings(Self.snapshot)))
        #expect(try encoded(.standings(Self.snapshot)) == LinkFrame.encode(.standings(Self.snapshot)))
        #expect(cache.frame(for: Self.snapshot) != nil)
        // Other standings (the next sequence), and any other message, are their own frames.
        #expect(try encoded(.standings(next)) == LinkFrame.encode(.standings(next)))
        #expect(try encoded(.standings(Self.snapshot)) == LinkFrame.encode(.standings(Self.snapshot)))
        #expect(try encoded(.heartbeat(Heartbeat(sentAt: Self.epoch))) == LinkFrame.encode(.heartbeat(Heartbeat(sentAt: Self.epoch))))
    }

    @Test("Every message, split at every byte position, decodes to itself exactly once", arguments: messages)
    func splitAtEveryByte(message: LinkMessage) throws {
        let bytes = try LinkFrame.encode(message)
        for split in 0...bytes.count {
            let channel = Self.decoder()
            try channel.writeInbound(ByteBuffer(bytes: bytes[..<split]))
            if split < bytes.count {
                #expect(try channel.readInbound(as: LinkMessage.self) == nil, "decoded early at split \(split)")
            }
            try channel.writeInbound(ByteBuffer(bytes: bytes[split...]))
            let decoded = try channel.readInbound(as: LinkMessage.self)
            #expect(decoded == message, "split at \(split)")
            #expect(try channel.readInbound(as: LinkMessage.self) == nil)
            #expect(try channel.finish().isClean)
        }
    }

    @Test("All messages back to back, fed one byte at a time, come out in order")
    func byteByByte() throws {
        let bytes = try Self.messages.flatMap { try LinkFrame.encode($0) }
        let channel = Self.decoder()
        var decoded: [LinkMessage] = []
        for byte in bytes {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            while let message = try channel.readInbound(as: LinkMessage.self) { decoded.append(message) }
        }
        #expect(decoded == Self.messages)
    }

    @Test("A frame longer than the limit is refused as soon as its length is read")
    func oversized() {
        let channel = Self.decoder()
        #expect(throws: LinkError.frameTooLarge(length: 5000, max: 4096)) {
            try channel.writeInbound(ByteBuffer(bytes: [0, 0, 0x13, 0x88]))
        }
        #expect(LinkError.frameTooLarge(length: 5000, max: 4096).description == "frame of 5000 bytes exceeds the 4096-byte limit")
    }

    @Test("Garbage, an empty frame, a wrong message and an invalid score are malformed frames", arguments: [
        ([UInt8]("not json".utf8), LinkError.malformedFrame("not valid JSON: 'n' where a value was expected at byte 0")),
        ([UInt8](#"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000Z","x":"\ud800"}}"#.utf8),
         LinkError.malformedFrame(#"not valid JSON: a high surrogate (\uD800) not followed by a low one at byte 69"#)),
        ([UInt8](#"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000Z","sequence":1.5}}"#.utf8),
         LinkError.malformedFrame("body.sequence must be a whole number; got 1.5")),
        ([UInt8](#"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000Z","sequence":1e400}}"#.utf8),
         LinkError.malformedFrame("body.sequence is too large to read; got 1e400")),
        ([UInt8](#"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000Z","sequence":2.0000000000000000000001}}"#.utf8),
         LinkError.malformedFrame("body.sequence must be a whole number; got 2.0000000000000000000001")),
        ([UInt8](#"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000Z","sequence":-1}}"#.utf8),
         LinkError.malformedFrame("body.sequence must be 0 or more; got -1")),
        ([UInt8](#"{"type":"welcome","body":{"protocolVersion":1,"hubID":"h","heartbeatIntervalMillis":10}}"#.utf8),
         LinkError.malformedFrame("body.heartbeatIntervalMillis must be 50 or more; got 10")),
        ([UInt8](#"{"type":"hello","body":{"deviceID":"w","protocolVersion":1e-400,"token":"t"}}"#.utf8),
         LinkError.malformedFrame("body.protocolVersion must be a whole number; got 1e-400")),
        ([UInt8](#"{"type":"bogus","body":{}}"#.utf8), LinkError.malformedFrame("unreadable value at type")),
        ([UInt8](#"{"type":"hello","body":{"deviceID":"w"}}"#.utf8), LinkError.malformedFrame("missing \"protocolVersion\" at body")),
        ([UInt8](#"{"type":"score","body":{"id":"00000000-0000-0000-0000-0000000000AA","roundID":"00000000-0000-0000-0000-0000000000AB","playerID":"p","hole":1,"strokes":11,"supersedesEventID":null,"reportedByPlayerID":"p","deviceID":"w","source":"crown","createdAt":"2026-11-21T10:00:00.000Z"}}"#.utf8),
         LinkError.malformedFrame("Strokes must be between 1 and 10; got 11.")),
    ])
    func malformed(body: [UInt8], error: LinkError) {
        let channel = Self.decoder()
        #expect(throws: error) {
            try channel.writeInbound(ByteBuffer(bytes: Self.frame(body)))
        }
    }

    @Test("The hub refuses a heartbeat whose sequence is below 0 as a malformed frame, as the watch does, and takes 0")
    func hubHeartbeatBound() throws {
        let negative = #"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000Z","sequence":-1}}"#
        #expect(throws: LinkError.malformedFrame("body.sequence must be 0 or more; got -1")) {
            try HubFrameDecoder.inbound(in: ByteBuffer(string: negative))
        }
        let zero = #"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000Z","sequence":0}}"#
        #expect(try HubFrameDecoder.inbound(in: ByteBuffer(string: zero)) == .message(.heartbeat(Heartbeat(sentAt: HyzerJSON.parseTimestamp("2026-11-21T10:00:00.000Z")!, sequence: 0))))
    }

    @Test("A zero-length frame is refused")
    func emptyFrame() {
        let channel = Self.decoder()
        #expect(throws: LinkError.emptyFrame) { try channel.writeInbound(ByteBuffer(bytes: [0, 0, 0, 0])) }
    }

    @Test("A connection that ends inside a frame reports the truncation")
    func truncated() throws {
        let channel = Self.decoder()
        let bytes = try LinkFrame.encode(.hello(Hello(deviceID: "w", token: "t")))
        try channel.writeInbound(ByteBuffer(bytes: bytes.prefix(10)))
        #expect(throws: LinkError.truncatedFrame(expected: bytes.count, received: 10)) { try channel.finish() }
    }

    @Test("The writer writes exactly what LinkFrame.encode produces")
    func encoder() throws {
        let channel = EmbeddedChannel(handler: LinkFrameWriter())
        for message in Self.messages {
            try channel.writeOutbound(message)
            let buffer = try #require(try channel.readOutbound(as: ByteBuffer.self))
            #expect(Array(buffer.readableBytesView) == (try LinkFrame.encode(message)))
        }
    }

    @Test("Link addresses parse unix:PATH and tcp:HOST:PORT and explain anything else")
    func addresses() throws {
        #expect(try LinkAddress(parsing: "unix:/tmp/x/link.sock") == .unix(path: "/tmp/x/link.sock"))
        #expect(try LinkAddress(parsing: "tcp:127.0.0.1:7420") == .tcp(host: "127.0.0.1", port: 7420))
        #expect(try LinkAddress(parsing: "tcp:[::1]:7420") == .tcp(host: "::1", port: 7420))
        for bad in ["", "unix:", "tcp:host", "tcp::80", "http://x"] {
            #expect(throws: LinkError.invalidAddress(bad)) { try LinkAddress(parsing: bad) }
        }
        #expect(throws: LinkError.portOutOfRange("tcp:host:99999", port: "99999")) { try LinkAddress(parsing: "tcp:host:99999") }
        #expect(LinkError.invalidAddress("x").description
            == "\"x\" is not a link address; use unix:PATH or tcp:HOST:PORT (e.g. unix:/tmp/hyzer/hub/link.sock, tcp:127.0.0.1:7420).")
    }
}
