import Foundation
import HyzerKit
@testable import WatchCore

enum Fixture {
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
    static let roundID = UUID(uuidString: "6F1C0000-0000-0000-0000-000000000001")!
    static let holes = [3, 3, 4, 3, 5, 3, 3, 4, 3].enumerated().map { Hole(number: $0.offset + 1, par: $0.element) }

    static func standing(_ name: String, _ position: Int?, _ relative: Int, tied: Bool = false, holes: Int = 1, discrepancy: Bool = false) -> Standing {
        Standing(playerID: "id-\(name)", name: name, position: position, tied: tied, totalStrokes: 3 * holes + relative,
                 holesPlayed: position == nil ? 0 : holes, scoreRelativeToPar: relative, currentHoleStrokes: nil, discrepancy: discrepancy)
    }

    static func snapshot(sequence: Int = 1, hubID: String = "hub", at date: Date = epoch, currentHole: Int = 2,
                         status: RoundStatus = .active, standings: [Standing]? = nil) -> StandingsSnapshot {
        StandingsSnapshot(hubID: hubID, sequence: sequence, lastUpdatedAt: date, round: RoundSnapshot(
            id: roundID, courseName: "Willow Creek", status: status, currentHole: currentHole, holeCount: 9, holes: holes,
            standings: standings ?? [standing("Jake", 1, -2), standing("Mike", 2, -1), standing("Sarah", 3, 1), standing("Amy", 4, 2)]))
    }

    static func env(_ seconds: TimeInterval = 0, size: WatchSize = .mm45) -> WatchEnvironment {
        WatchEnvironment(now: epoch.addingTimeInterval(seconds), size: size, makeID: { UUID(uuidString: "00000000-0000-0000-0000-0000000000EE")! })
    }

    /// A watch that has received `snapshot` at the epoch.
    static func state(_ snapshot: StandingsSnapshot = snapshot(), reduceMotion: Bool = false) -> WatchState {
        var state = WatchState(deviceID: "watch-1", reduceMotion: reduceMotion)
        _ = WatchMachine.reduce(&state, .snapshot(snapshot), env())
        return state
    }

    static func tapRow(_ index: Int, _ state: inout WatchState) -> [WatchEffect] {
        WatchMachine.reduce(&state, .tap(WatchLayout.rowFrame(slot: Double(index - state.scrollRow), size: .mm45).center), env())
    }
}
