import Foundation
import HyzerHarness
import HyzerKit
import Testing

@Suite("standings.json and the standings push written directly")
struct SnapshotJSONTests {
    /// Text a name may hold, the awkward parts included: quotes, backslashes, slashes, control
    /// characters, non-ASCII letters and emoji, nothing at all.
    static let pieces = ["Jake", "O'Connor", "Mary-Kate", "\"Q\"", "back\\slash", "a/b", "tab\there", "new\nline", "\r", "\u{01}", "\u{08}\u{0C}",
                         "\u{1F}", "\u{7F}", "é", "Zoë", "李", "🥏", "\u{2028}", "", " ", "</script>"]

    static func randomText(_ random: inout some RandomNumberGenerator) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func randomSnapshot(_ random: inout some RandomNumberGenerator) -> StandingsSnapshot {
        let holes = (1...Int.random(in: 1...27, using: &random)).map { Hole(number: $0, par: Int.random(in: 2...6, using: &random)) }
        let standings = (0..<Int.random(in: 0...12, using: &random)).map { index in
            Standing(playerID: Bool.random(using: &random) ? UUID().uuidString : "guest:" + randomText(&random), name: randomText(&random),
                     position: Bool.random(using: &random) ? index + 1 : nil, tied: Bool.random(using: &random),
                     totalStrokes: Int.random(in: 0...300, using: &random), holesPlayed: Int.random(in: 0...27, using: &random),
                     scoreRelativeToPar: Int.random(in: -40...200, using: &random),
                     currentHoleStrokes: Bool.random(using: &random) ? Int.random(in: 1...10, using: &random) : nil,
                     discrepancy: Bool.random(using: &random),
                     currentHoleEventID: Bool.random(using: &random) ? UUID() : nil,
                     currentHoleDeviceID: Bool.random(using: &random) ? randomText(&random) : nil,
                     disputes: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                         HoleDispute(hole: Int.random(in: 1...27, using: &random), claims: (0..<Int.random(in: 2...3, using: &random)).map { _ in
                             ScoreClaim(eventID: UUID(), strokes: Int.random(in: 1...10, using: &random), deviceID: randomText(&random),
                                        reportedByPlayerID: randomText(&random))
                         })
                     })
        }
        let round = Bool.random(using: &random) && Int.random(in: 0...9, using: &random) > 0 ? RoundSnapshot(
            id: UUID(), courseName: randomText(&random), status: RoundStatus.allCases.randomElement(using: &random)!,
            currentHole: Int.random(in: 1...holes.count, using: &random), holeCount: holes.count, holes: holes, standings: standings) : nil
        return StandingsSnapshot(hubID: Bool.random(using: &random) ? UUID().uuidString : randomText(&random), sequence: Int.random(in: 0...Int.max, using: &random),
                                 lastUpdatedAt: Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800_000, using: &random)) / 1000), round: round)
    }

    @Test("Byte for byte what the pretty encoder writes, for 500 random snapshots (with and without a round, empty standings, awkward text)")
    func sameAsEncoder() async throws {
        try await offThePool {
            var random = SystemRandomNumberGenerator()
            let encoder = HyzerJSON.encoder(pretty: true)
            for _ in 0..<500 {
                let snapshot = Self.randomSnapshot(&random)
                let expected = try encoder.encode(snapshot)
                let written = snapshot.prettyJSON()
                #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n---\n\(String(decoding: expected, as: UTF8.self))")
                if written != expected { break }
                #expect(try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: written).prettyJSON() == written)
            }
        }
    }

    @Test("Compact: byte for byte what the link's encoder writes, for 500 random snapshots")
    func compactSameAsEncoder() throws {
        var random = SystemRandomNumberGenerator()
        let encoder = HyzerJSON.encoder()
        for _ in 0..<500 {
            let snapshot = Self.randomSnapshot(&random)
            let expected = try encoder.encode(snapshot)
            let written = Data(snapshot.compactJSON())
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n---\n\(String(decoding: expected, as: UTF8.self))")
            if written != expected { break }
        }
    }

    static func randomEvent(_ random: inout some RandomNumberGenerator) -> ScoreEvent? {
        func id() -> String { Bool.random(using: &random) ? UUID().uuidString : "guest:" + randomText(&random) }
        return try? ScoreEvent(
            id: Bool.random(using: &random) ? UUID() : nil, roundID: UUID(), playerID: id(), hole: Int.random(in: 1...Int.max, using: &random),
            strokes: Int.random(in: 1...10, using: &random), supersedesEventID: Bool.random(using: &random) ? UUID() : nil,
            reportedByPlayerID: id(), deviceID: randomText(&random), source: ScoreSource.allCases.randomElement(using: &random)!,
            createdAt: Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800_000, using: &random)) / 1000))
    }

    @Test("A score event: byte for byte what the encoder writes (the outbox record, the link's score), for 1,000 random events")
    func eventSameAsEncoder() throws {
        var random = SystemRandomNumberGenerator()
        let encoder = HyzerJSON.encoder()
        var compared = 0
        while compared < 1_000 {
            guard let event = Self.randomEvent(&random) else { continue }
            compared += 1
            let expected = try encoder.encode(event)
            let written = Data(event.compactJSON())
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n---\n\(String(decoding: expected, as: UTF8.self))")
            if written != expected { break }
            #expect(try HyzerJSON.decoder().decode(ScoreEvent.self, from: written).compactJSON() == Array(written))
        }
    }

    @Test("Ids are read as the schemas write them: any case, but a space, a sign or 0x in one is refused (Foundation's sscanf read \" 1111111-…\" as 11111101-…)")
    func strictIDs() throws {
        let event = try ScoreEvent(roundID: UUID(), playerID: "p", hole: 1, strokes: 3, supersedesEventID: UUID(), reportedByPlayerID: "p",
                                   deviceID: "w", source: .crown, createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        let snapshot = StandingsSnapshot(hubID: "h", sequence: 1, lastUpdatedAt: event.createdAt, round: RoundSnapshot(
            id: event.roundID, courseName: "C", status: .active, currentHole: 1, holeCount: 1, holes: [Hole(number: 1, par: 3)],
            standings: [Standing(playerID: "p", name: "P", position: 1, tied: false, totalStrokes: 3, holesPlayed: 1, scoreRelativeToPar: 0,
                                 currentHoleStrokes: 3, discrepancy: false, currentHoleEventID: event.id, currentHoleDeviceID: "w")]))
        let eventText = String(decoding: event.compactJSON(), as: UTF8.self), snapshotText = String(decoding: snapshot.compactJSON(), as: UTF8.self)
        // Lower case reads as the same ids.
        let lower = [event.id, event.roundID, event.supersedesEventID!].reduce(eventText) { $0.replacingOccurrences(of: $1.uuidString, with: $1.uuidString.lowercased()) }
        #expect(try HyzerJSON.decoder().decode(ScoreEvent.self, from: Data(lower.utf8)).compactJSON() == event.compactJSON())
        #expect(try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(snapshotText.replacingOccurrences(of: event.roundID.uuidString, with: event.roundID.uuidString.lowercased()).utf8)) == snapshot)
        for id in [event.id, event.roundID, event.supersedesEventID!] {
            for loose in [" " + id.uuidString.dropFirst(), "+" + id.uuidString.dropFirst(), "0x" + id.uuidString.dropFirst(2), "{\(id.uuidString)}"] {
                #expect(throws: DecodingError.self, "\(loose)") {
                    try HyzerJSON.decoder().decode(ScoreEvent.self, from: Data(eventText.replacingOccurrences(of: id.uuidString, with: loose).utf8))
                }
            }
        }
        for id in [event.roundID, event.id] {
            let loose = " " + id.uuidString.dropFirst()
            #expect(throws: DecodingError.self, "\(loose)") {
                try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(snapshotText.replacingOccurrences(of: id.uuidString, with: loose).utf8))
            }
        }
    }
}
