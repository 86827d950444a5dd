import Foundation
import HyzerHarness
import HyzerKit
import HyzerLink
import Testing
@testable import WatchCore

/// The face as a designer signs it off: every size × text size × screen × state, checked by
/// `LayoutCheck` (no text over text or off the display, nothing cut through its letters, controls
/// of 44 pt). A failing combination names itself and writes its picture (SVG) to say what is wrong.
@Suite("The face at every size, text size, screen and state")
struct LayoutSweepTests {
    static let names = ["Jake", "Holyn Handley-Montgomery", "山田太郎", "Mike", "Sarah", "Alexandria Ocasio"]

    /// A round of 13, whose places take two digits and whose last is +20 (at 41 mm in the largest
    /// text, "13" and "+20" were drawn one over the other).
    static let crowded = names + ["Kim", "Wolfgang Amadeus", "Ana", "Bo", "Cy", "Di", "Maximilian Ed"]

    static func snapshot(sequence: Int, round: Bool = true, players: [String] = names) -> StandingsSnapshot {
        let standings = players.enumerated().map { index, name in
            Standing(playerID: "id-\(index)", name: name, position: index + 1, tied: false, totalStrokes: 30 + index * 3, holesPlayed: 9,
                     scoreRelativeToPar: index == 12 ? 20 : index * 3 - 2 + (index == 5 ? 9 : 0), currentHoleStrokes: 3, discrepancy: false)
        }
        return StandingsSnapshot(hubID: "hub", sequence: sequence, lastUpdatedAt: Fixture.epoch, round: round ? RoundSnapshot(
            id: Fixture.roundID, courseName: "Willow Creek", status: .active, currentHole: 9, holeCount: 9, holes: Fixture.holes,
            standings: standings) : nil)
    }

    enum Screen: String, CaseIterable { case leaderboard, crown, voice, final, noRound = "no-round", watchFace = "watch-face" }
    enum Condition: String, CaseIterable {
        case fresh, stale, noPhone = "no-phone", wristDown = "wrist-down", reduceMotion = "reduce-motion"
        /// The phone away and a score just saved: the "Saved" banner, the row's mark, "1 to send".
        case saved
        /// A score the phone refused: a two-line banner ("Jake · hole 4: round is over").
        case refused
        /// A round of 13 (`crowded`), scrolled to its end.
        case crowded
    }

    /// The face on `screen` in `condition`, a second after it was set up (motion settled).
    static func face(_ screen: Screen, _ condition: Condition, size: WatchSize, textSize: TextSize) -> DisplayList {
        var state = WatchState(deviceID: "watch", wearerName: "Holyn Handley-Montgomery", reduceMotion: condition == .reduceMotion, textSize: textSize)
        let env = Fixture.env(0, size: size)
        _ = WatchMachine.reduce(&state, .reachability(condition != .noPhone && condition != .saved), env)
        let players = condition == .crowded ? crowded : names
        _ = WatchMachine.reduce(&state, .snapshot(snapshot(sequence: 1, round: screen != .noRound, players: players)), env)
        if condition == .crowded { state.scrollRow = players.count - WatchLayout.visibleRows(size: size, textSize: textSize) }
        switch screen {
        case .leaderboard, .noRound: break
        case .crown: _ = WatchMachine.reduce(&state, .tap(WatchLayout.rowFrame(slot: 0, size: size, textSize: textSize).center), env)
        case .voice: _ = WatchMachine.reduce(&state, .voice("Jake 3, Holyn 4, Yamada 5"), env)
        case .final: _ = WatchMachine.reduce(&state, .snapshot(snapshot(sequence: 2, round: false, players: players)), env)
        case .watchFace: _ = WatchMachine.reduce(&state, .app(foreground: false), env)
        }
        if condition == .wristDown { _ = WatchMachine.reduce(&state, .wrist(up: false), env) }
        if condition == .saved, screen == .leaderboard {
            _ = WatchMachine.reduce(&state, .tap(WatchLayout.rowFrame(slot: 0, size: size, textSize: textSize).center), env)
            for effect in WatchMachine.reduce(&state, .save, env) {
                if case .enqueue(let event) = effect { _ = WatchMachine.reduce(&state, .pending([event]), env) }
            }
        }
        if condition == .refused {
            state.banner = Banner(text: "Holyn Handley-Montgomery · hole 9: round is over", style: .failure, until: Fixture.env(60).now)
        }
        // The voice overlay saves itself after 1.5 s and a banner lasts 2 s: they are looked at before.
        let seconds: TimeInterval = screen == .voice || condition == .saved ? 1 : condition == .stale ? 120 : 3
        _ = WatchMachine.reduce(&state, .clock, Fixture.env(seconds, size: size))
        return WatchLayout.displayList(state, now: Fixture.env(seconds, size: size).now, size: size, measurer: .estimate)
    }

    @Test("With the phone away, the footer says how many scores wait at every size and text size (at xxxl it said only \"No phone\")")
    func awayCountAtEverySize() {
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                var state = WatchState(deviceID: "watch", textSize: textSize)
                let env = Fixture.env(0, size: size)
                _ = WatchMachine.reduce(&state, .reachability(false), env)
                _ = WatchMachine.reduce(&state, .snapshot(Self.snapshot(sequence: 1, round: true, players: Self.names)), env)
                _ = WatchMachine.reduce(&state, .tap(WatchLayout.rowFrame(slot: 0, size: size, textSize: textSize).center), env)
                for effect in WatchMachine.reduce(&state, .save, env) {
                    if case .enqueue(let event) = effect { _ = WatchMachine.reduce(&state, .pending([event]), env) }
                }
                // After the "Saved" banner, which takes the footer band for its seconds.
                let later = Fixture.env(10, size: size)
                _ = WatchMachine.reduce(&state, .clock, later)
                let texts = WatchLayout.displayList(state, now: later.now, size: size, measurer: .estimate).texts
                #expect(texts.contains("No phone") && texts.contains("· 1 to send"), "\(size) \(textSize): \(texts.suffix(3))")
            }
        }
    }

    @Test("No text over text or off the display, nothing cut through its letters, every control 44 pt", arguments: Screen.allCases)
    func sweep(screen: Screen) async throws {
        try await offThePool {
            var failures: [String] = []
            let pictures = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-layout-sweep")
            for size in WatchSize.allCases {
                for textSize in TextSize.allCases {
                    for condition in Condition.allCases {
                        let list = Self.face(screen, condition, size: size, textSize: textSize)
                        let problems = LayoutCheck.problems(list, measurer: .estimate)
                        guard !problems.isEmpty else { continue }
                        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
                        let picture = pictures.appendingPathComponent("\(screen.rawValue)-\(size.rawValue)-\(textSize.rawValue)-\(condition.rawValue).svg")
                        try LayoutCheck.svg(list, measurer: .estimate).write(to: picture, atomically: true, encoding: .utf8)
                        failures.append("\(screen.rawValue) \(size.rawValue) mm \(textSize.rawValue) \(condition.rawValue): \(problems.joined(separator: "; ")) (\(picture.path))")
                    }
                }
            }
            #expect(failures.isEmpty, "\(failures.count) combinations:\n\(failures.prefix(12).joined(separator: "\n"))")
        }
    }
}
