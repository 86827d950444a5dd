import Foundation
import Testing
@testable import HyzerKit

@Suite("Round lifecycle")
struct RoundTests {
    let twoHoles = Course.fixture(pars: [3, 4])

    @Test("setup → active → awaitingFinalization → completed as every player scores every hole")
    func lifecycle() throws {
        var round = Round(id: Fixture.roundID, course: twoHoles, createdAt: Fixture.epoch)
        #expect(round.status == .setup)
        try round.addPlayer(.jake)
        try round.addPlayer(.guest(name: "Zed"))
        try round.start()
        #expect(round.status == .active)

        var events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .guest(name: "Zed"), hole: 1, strokes: 4),
            ScoreEvent.fixture(player: .jake, hole: 2, strokes: 4),
        ]
        round.updateProgress(events: events)
        #expect(round.status == .active)
        #expect(round.missingScores(events: events) == 1)
        #expect(throws: RoundError.incomplete(missingScores: 1)) { try round.finish(events: events) }

        events.append(.fixture(player: .guest(name: "Zed"), hole: 2, strokes: 4))
        round.updateProgress(events: events)
        #expect(round.status == .awaitingFinalization)
        try round.finish(events: events)
        #expect(round.status == .completed)
        #expect(throws: ScoreError.roundNotAcceptingScores(status: .completed)) {
            try round.validate(.fixture(player: .jake, hole: 1, strokes: 3))
        }
    }

    @Test("The player list is fixed once the round is active")
    func playersFixed() throws {
        var round = Round.fixture(players: [.jake])
        #expect(throws: RoundError.playersFixed(status: .active)) { try round.addPlayer(.mike) }
        #expect(RoundError.playersFixed(status: .active).description
            == "The player list is fixed once a round starts (this round is active).")
    }

    @Test("A round needs a player to start, and each player only once")
    func startNeedsPlayers() throws {
        var round = Round(course: twoHoles, createdAt: Fixture.epoch)
        #expect(throws: RoundError.noPlayers) { try round.start() }
        try round.addPlayer(.jake)
        #expect(throws: RoundError.duplicatePlayer("Jake")) { try round.addPlayer(.jake) }
    }

    @Test("The current hole is the first hole not scored by everyone, unless the phone moved it")
    func currentHole() throws {
        var round = Round.fixture(players: [.jake, .mike])
        let events = [
            ScoreEvent.fixture(player: .jake, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .mike, hole: 1, strokes: 3),
            ScoreEvent.fixture(player: .jake, hole: 2, strokes: 3),
        ]
        #expect(round.currentHole(events: events) == 2)
        try round.moveToHole(5)
        #expect(round.currentHole(events: events) == 5)
        #expect(throws: RoundError.holeOutOfRange(hole: 19, holeCount: 6)) { try round.moveToHole(19) }
    }

    @Test("A course file with holes out of order or a par outside 2...6 is refused with a reason")
    func courseValidation() {
        #expect(throws: CourseError.holesNotNumberedInOrder(course: "X", position: 2, found: 3)) {
            try Course(name: "X", holes: [Hole(number: 1, par: 3), Hole(number: 3, par: 3)])
        }
        #expect(throws: CourseError.parOutOfRange(course: "X", hole: 1, par: 7)) {
            try Course(name: "X", holes: [Hole(number: 1, par: 7)])
        }
        #expect(CourseError.parOutOfRange(course: "X", hole: 1, par: 7).description
            == "Course \"X\": hole 1 has par 7; par must be between 2 and 6.")
    }
}
