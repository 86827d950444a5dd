import Foundation
import Testing
@testable import HyzerKit

@Suite("Score events")
struct ScoreEventTests {
    @Test("Strokes 0 and 11 are refused with a message naming the allowed range", arguments: [0, 11, -3, 100])
    func strokesOutOfRange(strokes: Int) {
        #expect(throws: ScoreError.strokesOutOfRange(strokes)) {
            try ScoreEvent(roundID: Fixture.roundID, playerID: Player.jake.id, hole: 1, strokes: strokes,
                           reportedByPlayerID: Player.jake.id, deviceID: "phone", source: .tap, createdAt: Fixture.epoch)
        }
        #expect(ScoreError.strokesOutOfRange(strokes).description == "Strokes must be between 1 and 10; got \(strokes).")
    }

    @Test("Strokes 1 and 10 are accepted", arguments: [1, 10])
    func strokesAtLimits(strokes: Int) throws {
        let event = try ScoreEvent(roundID: Fixture.roundID, playerID: Player.jake.id, hole: 1, strokes: strokes,
                                   reportedByPlayerID: Player.jake.id, deviceID: "phone", source: .tap, createdAt: Fixture.epoch)
        #expect(event.strokes == strokes)
    }

    @Test("Decoding a ScoreEvent with 11 strokes fails: no input path bypasses the range")
    func decodingValidates() {
        let json = """
        {"id":"00000000-0000-0000-0000-0000000000AA","roundID":"6F1C0000-0000-0000-0000-000000000001",
         "playerID":"p","hole":1,"strokes":11,"supersedesEventID":null,"reportedByPlayerID":"p",
         "deviceID":"watch","source":"crown","createdAt":"2026-11-21T10:00:00.123Z"}
        """
        #expect(throws: ScoreError.strokesOutOfRange(11)) {
            try HyzerJSON.decoder().decode(ScoreEvent.self, from: Data(json.utf8))
        }
    }

    @Test("A ScoreEvent encodes every documented field, null included, and decodes back equal")
    func jsonRoundTrip() throws {
        let event = ScoreEvent.fixture(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000AA")!,
                                       player: .jake, hole: 4, strokes: 3, deviceID: "watch-1", source: .crown,
                                       secondsAfterEpoch: 0.123)
        let data = try HyzerJSON.encoder().encode(event)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(Set(object.keys) == ["id", "roundID", "playerID", "hole", "strokes", "supersedesEventID",
                                     "reportedByPlayerID", "deviceID", "source", "createdAt"])
        #expect(object["supersedesEventID"] is NSNull)
        #expect(object["source"] as? String == "crown")
        #expect(object["createdAt"] as? String == "2026-11-18T11:06:40.123Z")
        #expect(try HyzerJSON.decoder().decode(ScoreEvent.self, from: data) == event)
    }

    @Test("A round refuses scores for unknown players, holes off the course and other rounds")
    func roundValidation() throws {
        let round = Round.fixture(players: [.jake])
        #expect(throws: ScoreError.unknownPlayer(Player.mike.id)) {
            try round.validate(.fixture(player: .mike, hole: 1, strokes: 3))
        }
        #expect(throws: ScoreError.holeOutOfRange(hole: 7, holeCount: 6)) {
            try round.validate(.fixture(player: .jake, hole: 7, strokes: 3))
        }
        #expect(ScoreError.holeOutOfRange(hole: 7, holeCount: 6).description == "Hole 7 is not on this course; holes are 1...6.")
        let other = UUID()
        #expect(throws: ScoreError.wrongRound(expected: round.id, got: other)) {
            try round.validate(.fixture(roundID: other, player: .jake, hole: 1, strokes: 3))
        }
        try round.validate(.fixture(player: .jake, hole: 6, strokes: 3))
    }
}
