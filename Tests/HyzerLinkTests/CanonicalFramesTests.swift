import Foundation
import HyzerKit
@testable import HyzerFraming
@testable import HyzerLink
import NIOCore
import Testing

/// The score and standings frames read without Foundation's decoder must read exactly as the
/// decoder does, or not at all (then the decoder reads them).
@Suite("Score and standings frames read directly")
struct CanonicalFramesTests {
    static let pieces = ["Jake", "O'Connor", "Zoë", "李", "🥏", "a/b", "\"Q\"", "back\\slash", "tab\there", "\u{01}", "\u{7F}", "", " "]

    static func text(_ random: inout some RandomNumberGenerator) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// Text with nothing a JSON writer escapes.
    static func plain(_ random: inout some RandomNumberGenerator) -> String {
        text(&random).filter { $0 >= " " && $0 != "\u{7F}" && $0 != "\\" && $0 != "\"" }
    }

    static func snapshot(_ random: inout some RandomNumberGenerator) -> StandingsSnapshot {
        let holes = (1...Int.random(in: 1...27, using: &random)).map { Hole(number: $0, par: Int.random(in: 2...6, using: &random)) }
        let standings = (0..<Int.random(in: 0...8, using: &random)).map { index in
            Standing(playerID: Bool.random(using: &random) ? UUID().uuidString : "guest:" + text(&random), name: text(&random),
                     position: Bool.random(using: &random) ? index + 1 : nil, tied: Bool.random(using: &random),
                     totalStrokes: Int.random(in: 0...300, using: &random), holesPlayed: Int.random(in: 0...27, using: &random),
                     scoreRelativeToPar: Int.random(in: -40...200, using: &random),
                     currentHoleStrokes: Bool.random(using: &random) ? Int.random(in: 1...10, using: &random) : nil,
                     discrepancy: Bool.random(using: &random), currentHoleEventID: Bool.random(using: &random) ? UUID() : nil,
                     currentHoleDeviceID: Bool.random(using: &random) ? text(&random) : nil)
        }
        let round = Int.random(in: 0...9, using: &random) > 0 ? RoundSnapshot(
            id: UUID(), courseName: text(&random), status: RoundStatus.allCases.randomElement(using: &random)!,
            currentHole: Int.random(in: 1...holes.count, using: &random), holeCount: holes.count, holes: holes, standings: standings) : nil
        return StandingsSnapshot(hubID: text(&random), sequence: Int.random(in: 0...Int.max, using: &random),
                                 lastUpdatedAt: Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800_000, using: &random)) / 1000),
                                 round: round)
    }

    static func score(_ random: inout some RandomNumberGenerator) throws -> ScoreEvent {
        try ScoreEvent(roundID: UUID(), playerID: Bool.random(using: &random) ? UUID().uuidString : "guest:" + plain(&random) + "x",
                       hole: Int.random(in: 1...27, using: &random), strokes: Int.random(in: 1...10, using: &random),
                       supersedesEventID: Bool.random(using: &random) ? UUID() : nil, reportedByPlayerID: "p",
                       deviceID: "watch-" + plain(&random), source: ScoreSource.allCases.randomElement(using: &random)!,
                       createdAt: Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800_000, using: &random)) / 1000))
    }

    static func body(_ message: LinkMessage) throws -> [UInt8] { Array(try HyzerJSON.encoder().encode(message)) }

    /// What the decoder makes of a frame body, as the link reads it.
    static func decoded(_ body: [UInt8]) -> LinkMessage? { try? HyzerJSON.decoder().decode(LinkMessage.self, from: Data(body)) }

    @Test("Standings as the hub writes them read as the decoder reads them; names with escapes are left to the decoder")
    func standings() throws {
        var random = SystemRandomNumberGenerator()
        var direct = 0
        for _ in 0..<400 {
            let snapshot = Self.snapshot(&random)
            let body = try Self.body(.standings(snapshot))
            let read = body.withUnsafeBytes(CanonicalFrames.standings)
            // Against the decoder's reading (a time read back may differ from the Date written in its last bit).
            let decoded = try #require(Self.decoded(body))
            if let read {
                direct += 1
                #expect(.standings(read) == decoded)
            } else {
                #expect(body.contains(UInt8(ascii: "\\")), "a plain frame was left to the decoder: \(String(decoding: body, as: UTF8.self))")
            }
            var buffer = ByteBuffer(bytes: body)
            #expect(try LinkFrame.message(in: buffer.readSlice(length: body.count)!) == decoded)
        }
        #expect(direct > 20)
    }

    @Test("Scores as a watch writes them read as the decoder reads them, with the id as sent (lowercase kept)")
    func scores() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let event = try Self.score(&random)
            let body = try Self.body(.score(event))
            let read = try #require(body.withUnsafeBytes(CanonicalFrames.score), "\(String(decoding: body, as: UTF8.self))")
            #expect(.score(read.event) == Self.decoded(body))
            #expect(read.idAsSent == event.id.uuidString)
        }
        let event = try Self.score(&random)
        let lower = try Self.body(.score(event)).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            .replacingOccurrences(of: event.id.uuidString, with: event.id.uuidString.lowercased())
        let read = try #require(Array(lower.utf8).withUnsafeBytes(CanonicalFrames.score))
        #expect(.score(read.event) == Self.decoded(Array(lower.utf8)) && read.idAsSent == event.id.uuidString.lowercased())
        #expect(try HubFrameDecoder.inbound(in: ByteBuffer(string: lower)) == .score(read.event, idAsSent: event.id.uuidString.lowercased()))
    }

    @Test("A score the model refuses, or one written some other way, is left to the decoder, which explains it")
    func leftToDecoder() throws {
        let id = "0192F3A4-0000-7000-8000-000000000001", round = "0192F3A4-0000-7000-8000-000000000002"
        func frame(_ fields: String) -> String { "{\"body\":{" + fields + "},\"type\":\"score\"}" }
        let good = #""createdAt":"2026-11-24T10:00:00.000Z","deviceID":"watch","hole":3,"id":"\#(id)","playerID":"p","reportedByPlayerID":"p","roundID":"\#(round)","source":"crown","strokes":4,"supersedesEventID":null"#
        #expect(Array(frame(good).utf8).withUnsafeBytes(CanonicalFrames.score) != nil)
        for fields in [good.replacingOccurrences(of: #""strokes":4"#, with: #""strokes":11"#),
                       good.replacingOccurrences(of: #""strokes":4"#, with: #""strokes":4.0"#),
                       good.replacingOccurrences(of: #""strokes":4"#, with: #""strokes":04"#),
                       good.replacingOccurrences(of: #""hole":3"#, with: #""hole":-0"#),
                       good + #","strokes":4"#, good + #","extra":1"#, good.replacingOccurrences(of: #""p""#, with: #""\u0070""#),
                       good.replacingOccurrences(of: ":", with: ": "), good.replacingOccurrences(of: #""crown""#, with: #""wrist""#),
                       // The schema requires it (null for a first score): the decoder says it is missing.
                       good.replacingOccurrences(of: #","supersedesEventID":null"#, with: "")] {
            #expect(Array(frame(fields).utf8).withUnsafeBytes(CanonicalFrames.score) == nil, "\(fields)")
        }
        // Out of range: still answered as before, from the decoder's reading.
        let inbound = try HubFrameDecoder.inbound(in: ByteBuffer(string: frame(good.replacingOccurrences(of: #""strokes":4"#, with: #""strokes":11"#))))
        guard case .unacceptableScore(let idAsSent, .strokesOutOfRange, _) = inbound else { Issue.record("\(inbound)"); return }
        #expect(idAsSent == id)
    }

    @Test("Thousands of mutated frames: whatever the direct reader accepts, the decoder reads the same")
    func mutated() throws {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[],:"\0123456789-.eEtrufalsn aZ/é"#.utf8)
        var accepted = 0
        for index in 0..<6_000 {
            let standings = index % 2 == 0
            var body = standings ? try Self.body(.standings(Self.snapshot(&random))) : try Self.body(.score(Self.score(&random)))
            for _ in 0...Int.random(in: 0...2, using: &random) {
                let at = Int.random(in: 0..<body.count, using: &random)
                switch Int.random(in: 0...2, using: &random) {
                case 0: body[at] = alphabet.randomElement(using: &random)!
                case 1: body.remove(at: at)
                default: body.insert(alphabet.randomElement(using: &random)!, at: at)
                }
            }
            if standings {
                guard let read = body.withUnsafeBytes(CanonicalFrames.standings) else { continue }
                accepted += 1
                #expect(Self.decoded(body) == .standings(read), "\(String(decoding: body, as: UTF8.self))")
            } else {
                guard let read = body.withUnsafeBytes(CanonicalFrames.score) else { continue }
                accepted += 1
                #expect(Self.decoded(body) == .score(read.event), "\(String(decoding: body, as: UTF8.self))")
            }
        }
        #expect(accepted > 100)
    }

    @Test("A string's text is plain (no backslash, no control character) exactly when every byte is, at every length and position")
    func plainText() {
        var random = SystemRandomNumberGenerator()
        let awkward: [UInt8] = [0x00, 0x1F, 0x20, 0x5C, 0x5B, 0x5D, 0x7F, 0x80, 0xA0, 0xDC, 0xFF, UInt8(ascii: "a")]
        for length in 0...40 {
            for _ in 0..<200 {
                var text = (0..<length).map { _ in UInt8.random(in: 0x20...0xFF, using: &random) }.map { $0 == 0x5C ? 0x5D : $0 }
                if length > 0, Bool.random(using: &random) { text[Int.random(in: 0..<length, using: &random)] = awkward.randomElement(using: &random)! }
                let expected = text.allSatisfy { $0 != 0x5C && $0 >= 0x20 }
                #expect(text.withUnsafeBytes(CompactJSONReader.isPlain) == expected, "\(text)")
            }
        }
    }
}
