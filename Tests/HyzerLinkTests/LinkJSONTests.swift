import Foundation
import HyzerHarness
import HyzerKit
@testable import HyzerFraming
@testable import HyzerLink
import NIOCore
import Testing

/// The link's one JSON reader: strict syntax, and decoding held to Foundation's `JSONDecoder` as
/// its reference on random and mutated frames.
@Suite("The link's JSON reader")
struct LinkJSONTests {
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

    /// Foundation's decoder, the reference the link's reader is held to.
    static func decoded(_ body: [UInt8]) -> LinkMessage? { try? HyzerJSON.decoder().decode(LinkMessage.self, from: Data(body)) }

    /// The link's reader.
    static func read(_ body: [UInt8]) -> LinkMessage? { try? LinkJSON.decode(LinkMessage.self, from: LinkJSON.parse(body)) }

    static func problem(_ bytes: [UInt8]) -> String? {
        do { _ = try LinkJSON.parse(bytes); return nil } catch { return error.description }
    }

    /// Whether a number in `value` is written with a point or an exponent (`3.0`, `1e2`).
    static func hasNumberNotWrittenAsInteger(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let text): Int(text) == nil
        case .array(let elements): elements.contains(where: hasNumberNotWrittenAsInteger)
        case .object(let members): members.contains { hasNumberNotWrittenAsInteger($0.value) }
        default: false
        }
    }

    /// A number written with a fraction or an exponent and past 2^53 (`755943208312147908E0`):
    /// the link reads it exactly, as written (PROTOCOL.md); Foundation's decoder reads it as a
    /// Double first, and rounds it.
    static func hasNumberFoundationRounds(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let text): Int(text) == nil && (Double(text).map { abs($0) >= 0x1p53 } ?? false)
        case .array(let elements): elements.contains(where: hasNumberFoundationRounds)
        case .object(let members): members.contains { hasNumberFoundationRounds($0.value) }
        default: false
        }
    }

    @Test("Valid JSON texts pass", arguments: [
        #"{}"#, #"[]"#, #" {"a" : [1, -0, 0.5, 1e9, 1E+2, -3.25e-7, true, false, null] } "#, "\t\r\n\"x\"\n",
        #"{"a":"\u00e9\n\t\"\\\/\b\f\r","b":"\ud83d\ude00"}"#, "\"\u{E9}\u{4E2D}\u{1F600}\"", #"0"#, #"-12"#,
        String(repeating: "[", count: 64) + String(repeating: "]", count: 64),
    ])
    func valid(text: String) {
        #expect(Self.problem(Array(text.utf8)) == nil)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "Foundation reads it too")
    }

    @Test("Anything else names what is wrong and where", arguments: [
        ([UInt8](), "the text ends where a value was expected at byte 0"),
        (Array(#"{"a":1,}"#.utf8), "'}' where a key (a string) was expected at byte 7"),
        (Array(#"{"a" 1}"#.utf8), "'1' where ':' after a key was expected at byte 5"),
        (Array(#"[1 2]"#.utf8), "'2' where ',' or ']' in an array was expected at byte 3"),
        (Array(#"{"a":1} x"#.utf8), "more after the end of the JSON value at byte 8"),
        (Array(#"03"#.utf8), "a number with a leading zero at byte 0"),
        (Array(#"[-]"#.utf8), "a '-' without digits after it at byte 1"),
        (Array(#"3."#.utf8), "a number with no digits after its '.' at byte 0"),
        (Array(#"3e"#.utf8), "a number with no digits in its exponent at byte 0"),
        (Array(#"+1"#.utf8), "'+' where a value was expected at byte 0"),
        (Array(#"[NaN]"#.utf8), "'N' where a value was expected at byte 1"),
        (Array(#"tru"#.utf8), "'t' where a value was expected at byte 0"),
        (Array(#""a"#.utf8), "a string that is not closed at byte 2"),
        (Array("\"a\u{7}\"".utf8), "a raw control character (0x07) inside a string (write it as \\u0007) at byte 2"),
        (Array("\"a\tb\"".utf8), "a raw control character (0x09) inside a string (write it as \\u0009) at byte 2"),
        ([0x22, 0xFF, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),
        ([0x22, 0xC0, 0xAF, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),          // overlong "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),    // an encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),  // past U+10FFFF
        ([0x22, 0xE2, 0x82, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),          // cut short
        ([0xEF, 0xBB, 0xBF] + Array("{}".utf8), "byte 0xEF where a value was expected at byte 0"),  // a byte order mark
        (Array(#""\x""#.utf8), #"an unknown escape '\x' (allowed: \" \\ \/ \b \f \n \r \t \uXXXX) at byte 1"#),
        (Array(#""\u12""#.utf8), #"a \u escape without four hex digits at byte 1"#),
        (Array(#""\ud800""#.utf8), #"a high surrogate (\uD800) not followed by a low one at byte 1"#),
        (Array(#""\ud800\u0041""#.utf8), #"a high surrogate (\uD800) not followed by a low one at byte 1"#),
        (Array(#""\udc00""#.utf8), #"a low surrogate (\uDC00) with no high surrogate before it at byte 1"#),
        (Array(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).map { $0.asciiValue! },
         "arrays and objects nested deeper than 64 levels at byte 64"),
    ] as [([UInt8], String)])
    func invalid(bytes: [UInt8], problem: String) {
        #expect(Self.problem(bytes) == problem)
    }

    @Test("A number is whole as written, not as a Double reads it", arguments: [
        ("3", true), ("-3", true), ("0", true), ("-0", true), ("3.0", true), ("3e0", true), ("30e-1", true), ("0.3e1", true), ("3E+2", true),
        ("1e400", true), ("0e-999", true), ("0.000", true), ("3.5", false), ("3.000000000000000000001", false), ("2.99999999999999999999", false),
        ("1e-400", false), ("0.5e1", true), ("0.55e1", false), ("35e-1", false), ("-0.1", false),
    ])
    func wholeNumbers(text: String, whole: Bool) {
        #expect(LinkJSON.isWholeNumber(text) == whole)
    }

    @Test("Strings are read with their escapes, numbers as written, a repeated key as Foundation's decoder reads it")
    func values() throws {
        let value = try LinkJSON.parse(Array(#"{"a\u0062":["\u00e9\n\"\\\/x\ud83d\ude00",1.50,-0,true,null],"k":1,"k":2}"#.utf8))
        #expect(value["ab"] == .array([.string("é\n\"\\/x😀"), .number("1.50"), .number("-0"), .bool(true), .null]))
        struct K: Decodable { let k: Int }
        let foundation = try HyzerJSON.decoder().decode(K.self, from: Data(#"{"k":1,"k":2}"#.utf8)).k
        #expect(try LinkJSON.decode(K.self, from: value).k == foundation)
    }

    @Test("Standings as the hub writes them read as Foundation's decoder reads them")
    func standings() throws {
        var random = try SeededRandom.fromEnvironment(for: "link JSON standings")
        for _ in 0..<400 {
            let body = try Self.body(.standings(Self.snapshot(&random)))
            let decoded = try #require(Self.decoded(body))
            #expect(Self.read(body) == decoded, "\(String(decoding: body, as: UTF8.self))")
            var buffer = ByteBuffer(bytes: body)
            #expect(try LinkFrame.message(in: buffer.readSlice(length: body.count)!) == decoded)
        }
    }

    @Test("Scores as a watch writes them read as Foundation's decoder reads them, with the id as sent (lowercase kept)")
    func scores() throws {
        var random = try SeededRandom.fromEnvironment(for: "link JSON scores")
        for _ in 0..<400 {
            let event = try Self.score(&random)
            let body = try Self.body(.score(event))
            // Against the decoder's reading (a time read back may differ from the Date written in its last bit).
            guard case .score(let decoded) = try #require(Self.decoded(body)) else { Issue.record("not a score"); continue }
            #expect(Self.read(body) == .score(decoded))
            #expect(try HubFrameDecoder.inbound(in: ByteBuffer(bytes: body)) == .score(decoded, idAsSent: event.id.uuidString))
        }
        let event = try Self.score(&random)
        let lower = try Self.body(.score(event)).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            .replacingOccurrences(of: event.id.uuidString, with: event.id.uuidString.lowercased())
        guard case .score(let decoded) = try #require(Self.decoded(Array(lower.utf8))) else { Issue.record("not a score"); return }
        #expect(try HubFrameDecoder.inbound(in: ByteBuffer(string: lower)) == .score(decoded, idAsSent: event.id.uuidString.lowercased()))
    }

    @Test("Thousands of mutated frames: what the link's reader reads, Foundation's decoder reads the same; it refuses more only where the link is stricter")
    func mutated() async throws {
        try await offThePool {
            var random = try SeededRandom.fromEnvironment(for: "link JSON mutations")
            let alphabet = Array(#"{}[],:"\0123456789-.eEtrufalsn aZ/é"#.utf8) + [0x00, 0x07, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xFF]
            var agreed = 0
            for index in 0..<6_000 {
                var body = index % 2 == 0 ? try Self.body(.standings(Self.snapshot(&random))) : try Self.body(.score(Self.score(&random)))
                for _ in 0...Int.random(in: 0...2, using: &random) {
                    let at = Int.random(in: 0..<body.count, using: &random)
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: body[at] = alphabet.randomElement(using: &random)!
                    case 1: body.remove(at: at)
                    default: body.insert(alphabet.randomElement(using: &random)!, at: at)
                    }
                }
                let read = Self.read(body), decoded = Self.decoded(body)
                let text = String(decoding: body, as: UTF8.self)
                if let read {
                    agreed += 1
                    // Foundation, the reference, rounds a large number written with an exponent; the link does not.
                    let rounded = (try? LinkJSON.parse(body)).map(Self.hasNumberFoundationRounds) ?? false
                    #expect(read == decoded || rounded, "read differently from Foundation (replay with the seed above): \(text)")
                } else if decoded != nil {
                    // Refused where Foundation reads: only for what the link states it is stricter about
                    // (syntax Foundation lets through, a number not whole as written).
                    let stricter = (try? LinkJSON.parse(body)).map(Self.hasNumberNotWrittenAsInteger) ?? true
                    #expect(stricter, "refused what Foundation reads, for no reason the link states: \(text)")
                }
            }
            #expect(agreed > 100)
        }
    }
}
