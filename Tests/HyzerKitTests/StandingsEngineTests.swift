import Foundation
import Testing
@testable import HyzerKit

@Suite("Standings engine")
struct StandingsEngineTests {
    let holes = Course.fixture().holes

    @Test("A single player on a single hole shows strokes minus par")
    func singlePlayerSingleHole() {
        // Given Jake scores 2 on the par-3 first hole
        let events = [ScoreEvent.fixture(player: .jake, hole: 1, strokes: 2)]
        // When standings are computed
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.jake])
        // Then he leads alone at -1 after one hole
        #expect(standings == [
            Standing(playerID: Player.jake.id, name: "Jake", position: 1, tied: false, totalStrokes: 2,
                     holesPlayed: 1, scoreRelativeToPar: -1, currentHoleStrokes: nil, discrepancy: false),
        ])
        #expect(ScoreFormat.relativeToPar(standings[0].scoreRelativeToPar) == "-1")
    }

    @Test("Players are ranked by score relative to par, lowest first")
    func rankedByRelativeScore() {
        let events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 4),
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 2),
            ScoreEvent.fixture(player: .sarah, hole: 1, strokes: 3),
        ]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.jake, .mike, .sarah])
        #expect(standings.map(\.name) == ["Mike", "Sarah", "Jake"])
        #expect(standings.map(\.position) == [1, 2, 3])
        #expect(standings.map { ScoreFormat.relativeToPar($0.scoreRelativeToPar) } == ["-1", "E", "+1"])
    }

    @Test("Equal scores are listed alphabetically and share a position")
    func alphabeticalWithinTie() {
        let events = [
            ScoreEvent.fixture(player: .sarah, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .amy, hole: 1, strokes: 3),
        ]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.sarah, .mike, .amy])
        #expect(standings.map(\.name) == ["Amy", "Mike", "Sarah"])
        #expect(standings.map(\.position) == [1, 1, 1])
        #expect(standings.map(\.tied) == [true, true, true])
        #expect(standings.map(ScoreFormat.position(of:)) == ["T1", "T1", "T1"])
    }

    @Test("Alphabetical ignores case and accents: Émile after Eagle, Çelik before García, Łukasz among the L names (seeds/000, 3.8)")
    func alphabeticalIgnoresAccents() {
        let players = ["Zoë Åkesson", "Émile Lévesque", "Eagle Eye", "anna Low", "Çelik", "García", "Seán", "Łukasz", "Øystein", "Þór"]
            .map { Player.guest(name: $0) }
        let events = players.map { ScoreEvent.fixture(player: $0, hole: 1, strokes: 3) }
        let standings = StandingsEngine.standings(events: events, holes: holes, players: players)
        // A letter with a stroke sorts as the plain letter, as it reads: Łukasz among the L names.
        #expect(standings.map(\.name) == ["anna Low", "Çelik", "Eagle Eye", "Émile Lévesque", "García", "Łukasz", "Øystein", "Seán", "Þór",
                                           "Zoë Åkesson"])
    }

    @Test("Ties use competition ranking 1, 2, 2, 4 and players without holes come last with no position")
    func competitionRanking() {
        let guest = Player.guest(name: "Zed")
        let events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 2),  // -1
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3),  // E
            ScoreEvent.fixture(player: .amy, hole: 1, strokes: 3),   // E
            ScoreEvent.fixture(player: .sarah, hole: 1, strokes: 5), // +2
        ]
        let players = [guest, .sarah, .mike, .jake, .amy]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: players)
        #expect(standings.map(\.name) == ["Jake", "Amy", "Mike", "Sarah", "Zed"])
        #expect(standings.map(\.position) == [1, 2, 2, 4, nil])
        #expect(standings.map(\.tied) == [false, true, true, false, false])
        #expect(standings.map(ScoreFormat.position(of:)) == ["1", "T2", "T2", "4", ""])
        #expect(standings[4].holesPlayed == 0)
        #expect(standings[4].scoreRelativeToPar == 0)
    }

    @Test("An even-par player ranks above one with no holes even though both read E")
    func unplayedAfterEven() {
        let events = [ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3)]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.amy, .mike])
        #expect(standings.map(\.name) == ["Mike", "Amy"])
        #expect(standings.map(\.position) == [1, nil])
    }

    @Test("In a partial round holesPlayed counts only holes with a score, and par only for those holes")
    func partialRound() {
        let events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3),
            ScoreEvent.fixture(player: .jake, hole: 3, strokes: 3), // par 4
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 4),
        ]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.jake, .mike])
        #expect(standings.map(\.holesPlayed) == [3, 1])
        #expect(standings.map(\.totalStrokes) == [9, 4])
        #expect(standings.map(\.scoreRelativeToPar) == [-1, 1])
    }

    @Test("Only the leaf of a supersession chain counts; corrected scores are ignored")
    func supersessionLeavesOnly() {
        let first = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 5)
        let second = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 4, supersedes: first)
        let third = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 2, supersedes: second)
        let standings = StandingsEngine.standings(events: [first, second, third], holes: holes, players: [.jake])
        #expect(standings[0].totalStrokes == 2)
        #expect(standings[0].holesPlayed == 1)
        #expect(standings[0].scoreRelativeToPar == -1)
        #expect(standings[0].discrepancy == false)
        #expect(ScoreRule.currentScore(for: Player.jake.id, hole: 1, in: [first, second, third]) == third)
    }

    @Test("Shuffled createdAt values, a correction older than what it corrects, give identical standings")
    func clockSkewDoesNotMatter() {
        let original = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 5, secondsAfterEpoch: 100)
        // The correcting device's clock is ten minutes behind.
        let correction = ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3, supersedes: original, secondsAfterEpoch: -500)
        let mike = ScoreEvent.fixture(player: .mike, hole: 1, strokes: 4, secondsAfterEpoch: 7_000)
        let inOrder = StandingsEngine.standings(events: [original, correction, mike], holes: holes, players: [.jake, .mike])

        // Every relative order of the three clocks (what a random draw of skews could give), each checked.
        let skews: [Double] = [-86_400, 0, 86_400]
        let orderings = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]].map { $0.map { skews[$0] } }
        for ordering in orderings {
            let skewed = zip([original, correction, mike], ordering).map { event, skew in
                try! ScoreEvent(id: event.id, roundID: event.roundID, playerID: event.playerID, hole: event.hole,
                                strokes: event.strokes, supersedesEventID: event.supersedesEventID,
                                reportedByPlayerID: event.reportedByPlayerID, deviceID: event.deviceID,
                                source: event.source, createdAt: Fixture.epoch.addingTimeInterval(skew))
            }
            let withSkew = StandingsEngine.standings(events: skewed, holes: holes, players: [.jake, .mike])
            #expect(withSkew == inOrder, "createdAt skews \(ordering)")
        }
        #expect(inOrder.map(\.name) == ["Jake", "Mike"])
        #expect(inOrder.map(\.totalStrokes) == [3, 4])
    }

    @Test("positionChanges names each player whose position moved, from and to")
    func positionChanges() {
        let players: [Player] = [.jake, .mike, .sarah]
        let before = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 2),
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .sarah, hole: 1, strokes: 4),
        ]
        let previous = StandingsEngine.standings(events: before, holes: holes, players: players)
        let after = before + [
            ScoreEvent.fixture(player: .jake, hole: 2, strokes: 6),
            ScoreEvent.fixture(player: .mike, hole: 2, strokes: 2),
        ]
        let change = StandingsEngine.recompute(previous: previous, events: after, holes: holes, players: players, trigger: .localScore)
        // Jake -1 → +2, Mike E → -1, Sarah stays +1 but moves from 3rd to 2nd.
        #expect(change.newStandings.map(\.name) == ["Mike", "Sarah", "Jake"])
        #expect(change.positionChanges == [
            Player.jake.id: PositionChange(from: 1, to: 3),
            Player.mike.id: PositionChange(from: 2, to: 1),
            Player.sarah.id: PositionChange(from: 3, to: 2),
        ])
        #expect(change.positionChanges[Player.mike.id]?.movedUp == true)
        #expect(change.positionChanges[Player.jake.id]?.movedUp == false)
        #expect(change.previousStandings == previous)
    }

    @Test("Guests and registered players appear side by side under their names")
    func guestsAndRegistered() {
        let guest = Player.guest(name: "Holyn Handley")
        #expect(guest.id == "guest:Holyn Handley")
        #expect(guest.isGuest)
        #expect(!Player.jake.isGuest)
        let events = [
            ScoreEvent.fixture(player: guest, hole: 1, strokes: 2, reportedBy: .jake),
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3),
        ]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.jake, guest])
        #expect(standings.map(\.name) == ["Holyn Handley", "Jake"])
        #expect(standings.map(\.playerID) == ["guest:Holyn Handley", Player.jake.id])
        #expect(Player.guestName(fromID: standings[0].playerID) == "Holyn Handley")
    }

    @Test("The trigger given to a recompute is the trigger of the change", arguments: StandingsChangeTrigger.allCases)
    func triggerPreserved(trigger: StandingsChangeTrigger) {
        let events = [ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3)]
        let change = StandingsEngine.recompute(previous: [], events: events, holes: holes, players: [.jake], trigger: trigger)
        #expect(change.trigger == trigger)
        #expect(change.previousStandings == [])
        #expect(change.newStandings.count == 1)
    }

    @Test("currentHoleStrokes shows each player's score on the current hole, nil if not yet scored")
    func currentHoleStrokes() {
        let events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .jake, hole: 2, strokes: 4),
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3),
        ]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.jake, .mike], currentHole: 2)
        #expect(standings.map(\.name) == ["Mike", "Jake"])
        #expect(standings.map(\.currentHoleStrokes) == [nil, 4])
    }

    @Test("Events for players outside the round or holes outside the course do not count")
    func foreignEventsIgnored() {
        let events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 1),
            ScoreEvent.fixture(player: .jake, hole: 9, strokes: 1),
        ]
        let standings = StandingsEngine.standings(events: events, holes: holes, players: [.jake])
        #expect(standings.map(\.name) == ["Jake"])
        #expect(standings[0].holesPlayed == 1)
        #expect(standings[0].totalStrokes == 3)
    }

    @Test("No players gives empty standings; players with no events all come unranked by name")
    func noScoresYet() {
        #expect(StandingsEngine.standings(events: [], holes: holes, players: []) == [])
        let standings = StandingsEngine.standings(events: [], holes: holes, players: [.sarah, .jake])
        #expect(standings.map(\.name) == ["Jake", "Sarah"])
        #expect(standings.map(\.position) == [nil, nil])
        #expect(standings.map(\.tied) == [false, false])
    }
}
