import Foundation
import Testing
@testable import HyzerKit

@Suite("Standings snapshot")
struct StandingsSnapshotTests {
    static let documented = """
    {
      "schemaVersion": 1,
      "hubID": "B2D0A9F4-1111-4222-8333-944455556666",
      "sequence": 42,
      "lastUpdatedAt": "2026-11-21T10:00:00.123Z",
      "round": {
        "id": "6F1C0000-0000-0000-0000-000000000001", "courseName": "Maple Hill", "status": "active",
        "currentHole": 7, "holeCount": 18,
        "holes": [{ "number": 1, "par": 3 }],
        "standings": [
          { "playerID": "11111111-1111-1111-1111-111111111111", "name": "Jake", "position": 1, "tied": false,
            "totalStrokes": 20, "holesPlayed": 6, "scoreRelativeToPar": -2,
            "currentHoleStrokes": null, "discrepancy": false },
          { "playerID": "guest:Zed", "name": "Zed", "position": null, "tied": false,
            "totalStrokes": 0, "holesPlayed": 0, "scoreRelativeToPar": 0,
            "currentHoleStrokes": null, "discrepancy": false }
        ]
      }
    }
    """

    @Test("The documented JSON decodes field by field")
    func decodesDocumentedJSON() throws {
        let snapshot = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(Self.documented.utf8))
        #expect(snapshot.schemaVersion == 1)
        #expect(snapshot.hubID == "B2D0A9F4-1111-4222-8333-944455556666")
        #expect(snapshot.sequence == 42)
        #expect(HyzerJSON.formatTimestamp(snapshot.lastUpdatedAt) == "2026-11-21T10:00:00.123Z")
        let round = try #require(snapshot.round)
        #expect(round.id == Fixture.roundID)
        #expect(round.courseName == "Maple Hill")
        #expect(round.status == .active)
        #expect(round.currentHole == 7)
        #expect(round.holeCount == 18)
        #expect(round.holes == [Hole(number: 1, par: 3)])
        #expect(round.standings[0] == Standing(playerID: Player.jake.id, name: "Jake", position: 1, tied: false,
                                               totalStrokes: 20, holesPlayed: 6, scoreRelativeToPar: -2,
                                               currentHoleStrokes: nil, discrepancy: false))
        #expect(round.standings[1].position == nil)
    }

    @Test("Values the schema's bounds forbid are named; the documented snapshot and one a hub builds have none", arguments: [
        (#""sequence": 42"#, #""sequence": -1"#, "sequence is -1; it counts from 0"),
        (#""schemaVersion": 1"#, #""schemaVersion": 2"#, "schemaVersion is 2; this reader reads 1"),
        (#""position": 1"#, #""position": 0"#, "round.standings[0].position is 0; positions start at 1"),
        (#""name": "Zed""#, #""name": "Z\u0007d""#, "round.standings[1].name is empty or holds a control character"),
        (#""name": "Jake""#, #""name": """#, "round.standings[0].name is empty or holds a control character"),
        (#""totalStrokes": 20"#, #""totalStrokes": -20"#, "round.standings[0].totalStrokes is -20; it is 0 or more"),
        (#""currentHole": 7"#, #""currentHole": 0"#, "round.currentHole is 0; holes are numbered from 1"),
        (#""par": 3"#, #""par": 9"#, "round.holes[0].par is 9; par is 2 to 6"),
        (#""currentHoleStrokes": null, "discrepancy": false },"#, #""currentHoleStrokes": 11, "discrepancy": false },"#,
         "round.standings[0].currentHoleStrokes is 11; strokes are 1 to 10"),
    ])
    func schemaViolations(original: String, replacement: String, violation: String) throws {
        #expect(try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(Self.documented.utf8)).schemaViolation == nil)
        #expect(Self.documented.contains(original))
        let broken = Self.documented.replacingOccurrences(of: original, with: replacement)
        #expect(try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(broken.utf8)).schemaViolation == violation)
        var round = Round(course: try Course(name: "Maple Hill", holes: (1...18).map { Hole(number: $0, par: 3) }), createdAt: Date())
        try round.addPlayer(.guest(name: "Zoë"))
        try round.start()
        #expect(StandingsSnapshot(hubID: "hub", sequence: 0, lastUpdatedAt: Date(), round: RoundSnapshot(round: round, events: [])).schemaViolation == nil)
    }

    @Test("Encoding writes exactly the documented field names, nulls included, and decodes back equal")
    func encodesDocumentedFieldNames() throws {
        let snapshot = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(Self.documented.utf8))
        let data = try HyzerJSON.encoder().encode(snapshot)
        let encoded = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var original = try JSONSerialization.jsonObject(with: Data(Self.documented.utf8)) as! [String: Any]
        // Fields added since the documented example (0.9): the current hole's event and device, null here.
        var originalRound = original["round"] as! [String: Any]
        originalRound["standings"] = (originalRound["standings"] as! [[String: Any]]).map {
            $0.merging(["currentHoleEventID": NSNull(), "currentHoleDeviceID": NSNull(), "disputes": [Any]()]) { old, _ in old }
        }
        original["round"] = originalRound
        #expect(NSDictionary(dictionary: encoded).isEqual(to: original))

        #expect(Set(encoded.keys) == ["schemaVersion", "hubID", "sequence", "lastUpdatedAt", "round"])
        let round = encoded["round"] as! [String: Any]
        #expect(Set(round.keys) == ["id", "courseName", "status", "currentHole", "holeCount", "holes", "standings"])
        let standing = (round["standings"] as! [[String: Any]])[1]
        #expect(Set(standing.keys) == ["playerID", "name", "position", "tied", "totalStrokes", "holesPlayed",
                                       "scoreRelativeToPar", "currentHoleStrokes", "discrepancy", "currentHoleEventID", "currentHoleDeviceID", "disputes"])
        #expect(standing["currentHoleEventID"] is NSNull)
        #expect(standing["position"] is NSNull)
        #expect(try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: data) == snapshot)
    }

    @Test("Every millisecond timestamp reads back and prints as itself", arguments: [
        "2026-11-22T10:02:02.930Z", "2026-11-22T10:02:48.443Z", "2026-02-28T23:59:59.999Z", "1970-01-01T00:00:00.001Z",
        "0001-01-01T00:00:00.000Z", "2024-02-29T12:00:00.000Z", "9999-12-31T23:59:59.999Z",
    ])
    func timestampsRoundTrip(text: String) throws {
        let date = try #require(HyzerJSON.parseTimestamp(text))
        #expect(HyzerJSON.formatTimestamp(date) == text)
    }

    @Test("Only real UTC timestamps are read: no February 30, no offsets, no missing parts", arguments: [
        "2026-02-30T10:00:00.000Z", "2025-02-29T10:00:00.000Z", "2026-11-22T10:00:00.000+01:00", "2026-11-22T10:00:00.000",
        "2026-11-22 10:00:00.000Z", "2026-13-01T10:00:00.000Z", "2026-11-22T24:00:00.000Z", "0000-12-28T00:00:00.000Z",
        "2026-11-22T10:00:00.Z", "2026-11-22T10:00:00.1234567890Z", "26-11-22T10:00:00Z",
    ])
    func strictTimestamps(text: String) {
        #expect(HyzerJSON.parseTimestamp(text) == nil)
    }

    @Test("A timestamp without a fraction, or with up to nine digits of one, is read")
    func fractions() throws {
        let whole = try #require(HyzerJSON.parseTimestamp("2026-11-22T10:00:00Z"))
        #expect(HyzerJSON.formatTimestamp(whole) == "2026-11-22T10:00:00.000Z")
        let fine = try #require(HyzerJSON.parseTimestamp("2026-11-22T10:00:00.123456789Z"))
        #expect(HyzerJSON.formatTimestamp(fine) == "2026-11-22T10:00:00.123Z")
    }

    @Test("With no active round, round is written as null rather than left out")
    func nullRound() throws {
        let snapshot = StandingsSnapshot(hubID: "hub", sequence: 1, lastUpdatedAt: Fixture.epoch, round: nil)
        let text = String(decoding: try HyzerJSON.encoder().encode(snapshot), as: UTF8.self)
        #expect(text == #"{"hubID":"hub","lastUpdatedAt":"2026-11-18T11:06:40.000Z","round":null,"schemaVersion":1,"sequence":1}"#)
    }

    @Test("A snapshot built from a round carries its standings, current hole and status")
    func builtFromRound() {
        let round = Round.fixture(players: [.jake, .mike])
        let events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 2),
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3),
        ]
        let snapshot = RoundSnapshot(round: round, events: events)
        #expect(snapshot.currentHole == 2)
        #expect(snapshot.holeCount == 6)
        #expect(snapshot.courseName == "Maple Hill")
        #expect(snapshot.standings.map(\.name) == ["Jake", "Mike"])
        #expect(snapshot.standings.map(\.currentHoleStrokes) == [3, nil])
        #expect(snapshot.par(ofHole: 3) == 4)
    }

    @Test("A lower sequence from the same hub is older; another hub's snapshot always wins")
    func sequenceOrdering() {
        let shown = StandingsSnapshot(hubID: "A", sequence: 10, lastUpdatedAt: Fixture.epoch, round: nil)
        #expect(!StandingsSnapshot(hubID: "A", sequence: 9, lastUpdatedAt: Fixture.epoch, round: nil).supersedes(shown))
        #expect(StandingsSnapshot(hubID: "A", sequence: 11, lastUpdatedAt: Fixture.epoch, round: nil).supersedes(shown))
        #expect(StandingsSnapshot(hubID: "B", sequence: 1, lastUpdatedAt: Fixture.epoch, round: nil).supersedes(shown))
        #expect(shown.supersedes(nil))
    }
}
