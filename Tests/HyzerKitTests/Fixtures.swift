import Foundation
@testable import HyzerKit

extension Course {
    /// Six holes: pars 3, 3, 4, 3, 5, 3.
    static func fixture(name: String = "Maple Hill", pars: [Int] = [3, 3, 4, 3, 5, 3]) -> Course {
        try! Course(name: name, holes: pars.enumerated().map { Hole(number: $0.offset + 1, par: $0.element) })
    }
}

extension Player {
    static let jake = Player(id: "11111111-1111-1111-1111-111111111111", name: "Jake")
    static let mike = Player(id: "22222222-2222-2222-2222-222222222222", name: "Mike")
    static let sarah = Player(id: "33333333-3333-3333-3333-333333333333", name: "Sarah")
    static let amy = Player(id: "44444444-4444-4444-4444-444444444444", name: "Amy")
}

enum Fixture {
    static let roundID = UUID(uuidString: "6F1C0000-0000-0000-0000-000000000001")!
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
}

extension ScoreEvent {
    static func fixture(
        id: UUID = UUID(),
        roundID: UUID = Fixture.roundID,
        player: Player,
        hole: Int,
        strokes: Int,
        supersedes: ScoreEvent? = nil,
        reportedBy: Player? = nil,
        deviceID: String = "phone",
        source: ScoreSource = .tap,
        secondsAfterEpoch: Double = 0
    ) -> ScoreEvent {
        try! ScoreEvent(
            id: id, roundID: roundID, playerID: player.id, hole: hole, strokes: strokes,
            supersedesEventID: supersedes?.id, reportedByPlayerID: (reportedBy ?? player).id,
            deviceID: deviceID, source: source,
            createdAt: Fixture.epoch.addingTimeInterval(secondsAfterEpoch)
        )
    }
}

extension Round {
    static func fixture(course: Course = .fixture(), players: [Player]) -> Round {
        var round = Round(id: Fixture.roundID, course: course, createdAt: Fixture.epoch)
        for player in players { try! round.addPlayer(player) }
        try! round.start()
        return round
    }
}
