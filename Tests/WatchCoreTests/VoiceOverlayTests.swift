import Foundation
import HyzerKit
import Testing
@testable import WatchCore

/// The voice confirmation overlay as the state machine runs it (seeds/001, component 4): the
/// fixture round is on hole 2, par 3, with Jake, Mike, Sarah and Amy.
@Suite("Voice on the wrist")
struct VoiceOverlayTests {
    static func overlay(_ state: WatchState) -> VoiceOverlay? {
        if case .voice(let overlay) = state.screen { overlay } else { nil }
    }

    static func tapVoiceRow(_ index: Int, _ state: inout WatchState, at seconds: TimeInterval) -> [WatchEffect] {
        let count = overlay(state)?.rows.count ?? 0
        return WatchMachine.reduce(&state, .tap(WatchLayout.voiceRowFrame(index, of: count, size: .mm45).center), Fixture.env(seconds))
    }

    @Test("A transcript opens the overlay with a pulse and the spec's announcement; 1.5 s later the scores save through the outbox")
    func autoCommit() {
        var state = Fixture.state()
        let shown = WatchMachine.reduce(&state, .voice("um Jake's 4, Mikey birdie"), Fixture.env(1))
        #expect(state.screenName == "voice")
        #expect(shown == [.haptic(.notification, value: nil),
                          .announce("Voice scores confirmed. Jake 4. Mike 2. Auto-saving in 1.5 seconds. Tap any score to correct.")])
        #expect(Self.overlay(state)?.rows.map(\.isReady) == [true, true])
        #expect(WatchMachine.reduce(&state, .clock, Fixture.env(2.4)) == [], "not due before 1.5 s")
        let saved = WatchMachine.reduce(&state, .clock, Fixture.env(2.5))
        let events = saved.compactMap { if case .enqueue(let event) = $0 { event } else { nil } }
        #expect(events.map { "\($0.playerID) \($0.hole) \($0.strokes) \($0.source.rawValue)" } == ["id-Jake 2 4 voice", "id-Mike 2 2 voice"])
        #expect(saved.contains(.haptic(.success, value: nil)))
        #expect(saved.last == .announce("Saved. Jake 4, Mike 2 on hole 2."))
        #expect(state.screenName == "leaderboard")
        #expect(state.pendingScores.count == 2)
    }

    @Test("Tapping a row pauses the countdown; each crown detent corrects it and starts the 1.5 s again")
    func correction() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .voice("Jake 4, Sarah 2"), Fixture.env(0))
        let tapped = Self.tapVoiceRow(1, &state, at: 1)
        #expect(tapped == [.announce("Score for Sarah. Current value 2. Use Digital Crown to adjust.")])
        #expect(Self.overlay(state)?.deadline == nil)
        #expect(WatchMachine.reduce(&state, .clock, Fixture.env(5)) == [], "paused while the tapped row waits")
        #expect(WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env(6)) == [.haptic(.tick, value: 3), .announce("Score: 3")])
        #expect(Self.overlay(state)?.deadline == Fixture.epoch.addingTimeInterval(7.5))
        _ = WatchMachine.reduce(&state, .clock, Fixture.env(7.5))
        #expect(state.pendingScores.map(\.strokes) == [4, 3])
    }

    @Test("An unsure name is marked, holds the countdown (as the page's overlay does) and is not saved unless tapped; tapping it picks who it could be")
    func unresolved() {
        let standings = [Fixture.standing("Jon", 1, 0), Fixture.standing("John", 2, 0), Fixture.standing("Amy", 3, 0)]
        var state = Fixture.state(Fixture.snapshot(standings: standings))
        let shown = WatchMachine.reduce(&state, .voice("Jon 4, Amy 3, Bob 5"), Fixture.env(0))
        #expect(shown.last == .announce("Voice scores confirmed. Jon, could be Jon or John, not saved unless tapped. Amy 3. Bob, not a player in this round. Tap each unsure name to choose who; nothing saves by itself until then. Save saves the others."))
        #expect(Self.overlay(state)?.rows.map(\.isReady) == [false, true, false])
        // The 1.5 s do not run while a name is unsure: nothing saves by itself, Amy's 3 included.
        _ = WatchMachine.reduce(&state, .clock, Fixture.env(0.4))
        #expect(Self.overlay(state)?.deadline == nil && state.pendingScores.isEmpty)
        // Without an unsure name, a name that is no player's does not hold them.
        var plain = Fixture.state(Fixture.snapshot(standings: standings))
        _ = WatchMachine.reduce(&plain, .voice("Amy 3, Bob 5"), Fixture.env(0))
        #expect(Self.overlay(plain)?.deadline != nil)
        _ = Self.tapVoiceRow(0, &state, at: 0.5)
        #expect(Self.overlay(state)?.rows[0].player?.name == "Jon")
        _ = Self.tapVoiceRow(0, &state, at: 0.6)
        #expect(Self.overlay(state)?.rows[0].player?.name == "John")
        let saved = WatchMachine.reduce(&state, .save, Fixture.env(1))
        #expect(state.pendingScores.map(\.playerID) == ["id-John", "id-Amy"])
        #expect(saved.last == .announce("Saved. John 4, Amy 3 on hole 2. Not saved: Bob."))
    }

    @Test("With no row ready to save the overlay offers no Save, says what to do instead, and a Save there closes nothing")
    func nothingReady() {
        let standings = [Fixture.standing("Jon", 1, 0), Fixture.standing("John", 2, 0), Fixture.standing("Amy", 3, 0)]
        var state = Fixture.state(Fixture.snapshot(standings: standings))
        _ = WatchMachine.reduce(&state, .voice("Jon 4, Bob 5"), Fixture.env(0))
        #expect(Self.overlay(state)?.canSave == false && Self.overlay(state)?.deadline == nil)
        let texts = WatchLayout.displayList(state, now: Fixture.env(0.5).now, size: .mm45, measurer: .estimate).texts
        #expect(!texts.contains("Save") && texts.contains { $0.hasPrefix("Tap a name") }, "\(texts)")
        #expect(WatchMachine.reduce(&state, .save, Fixture.env(1)).isEmpty)
        _ = WatchMachine.reduce(&state, .tap(WatchLayout.voiceSaveButton(size: .mm45).center), Fixture.env(1.2))
        #expect(Self.overlay(state) != nil && state.pendingScores.isEmpty)
    }

    @Test("Back discards the overlay with nothing saved; nonsense says so and never auto-saves")
    func discardAndNonsense() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .voice("Jake 4"), Fixture.env(0))
        #expect(WatchMachine.reduce(&state, .back, Fixture.env(0.5)) == [.announce("Voice scores discarded. Nothing saved.")])
        #expect(WatchMachine.reduce(&state, .clock, Fixture.env(3)) == [])
        #expect(state.pendingScores.isEmpty)
        let nonsense = WatchMachine.reduce(&state, .voice("the wind is crazy today"), Fixture.env(4))
        #expect(nonsense == [.haptic(.failure, value: nil), .announce("Didn't catch that. Try again.")])
        #expect(Self.overlay(state)?.failed == true)
        #expect(Self.overlay(state)?.deadline == nil)
        #expect(WatchMachine.reduce(&state, .save, Fixture.env(10)) == [])
        #expect(state.pendingScores.isEmpty)
    }

    @Test("A voice score over the hole's existing score corrects it, as the crown does")
    func correctsExisting() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .voice("Jake 4"), Fixture.env(0))
        _ = WatchMachine.reduce(&state, .clock, Fixture.env(2))
        let first = state.pendingScores[0]
        _ = WatchMachine.reduce(&state, .voice("Jake 5"), Fixture.env(3))
        _ = WatchMachine.reduce(&state, .clock, Fixture.env(5))
        #expect(state.pendingScores.count == 2)
        #expect(state.pendingScores[1].supersedesEventID == first.id)
    }

    @Test("The overlay draws each row with its score and a ? on what is unresolved")
    func drawn() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .voice("Jake 4, Sara birdie, Bob 5"), Fixture.env(0))
        let frame = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(0.5), size: .mm45, measurer: .estimate)
        #expect(frame.containsText("Scores heard Hole 2 · par 3"))
        #expect(frame.texts.contains("Sarah") && frame.texts.contains("2"))
        #expect(frame.texts.contains("Bob?"))
        #expect(frame.containsText("Not in this round"))
    }

    @Test("The window's text line shows what is typed, its end kept in view")
    func draftLine() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .voiceDraft("Jake 4, Sarah birdie"), Fixture.env())
        let frame = WatchLayout.displayList(state, now: Fixture.epoch, size: .mm45, measurer: .estimate)
        #expect(frame.texts.contains("Say player names and scores"))
        #expect(frame.texts.contains("Jake 4, Sarah birdie▏"))
        _ = WatchMachine.reduce(&state, .voiceDraft(String(repeating: "Mike 3 ", count: 20) + "end"), Fixture.env())
        let long = WatchLayout.displayList(state, now: Fixture.epoch, size: .mm45, measurer: .estimate)
        #expect(long.texts.contains { $0.hasSuffix("end▏") && !$0.hasPrefix("Mike 3 Mike 3 Mike 3 Mike 3 Mike 3 Mike 3 Mike 3 Mike 3") })
        _ = WatchMachine.reduce(&state, .voice("Jake 4"), Fixture.env())
        #expect(state.voiceDraft == nil, "handing the line over closes it")
    }
}
