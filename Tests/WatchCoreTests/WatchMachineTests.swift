import Foundation
import HyzerKit
import HyzerLink
import Testing
@testable import WatchCore

@Suite("Watch state machine")
struct WatchMachineTests {
    @Test("A change is said places first, in standings order; another device's discrepancy is not said (the organizer is alerted on the phone)")
    func changeAnnouncementOrder() throws {
        let old = try #require(Fixture.snapshot(standings: [Fixture.standing("Jake", 1, -2), Fixture.standing("Mike", 2, -1), Fixture.standing("Amy", 3, 0)]).round)
        let new = try #require(Fixture.snapshot(standings: [Fixture.standing("Mike", 1, -3, discrepancy: true), Fixture.standing("Jake", 2, -2),
                                                            Fixture.standing("Amy", 3, 0)]).round)
        #expect(Announcements.standingsChange(from: old, to: new) == "Mike moves up to first, minus three. Jake drops to second, minus two.")
        let settled = try #require(Fixture.snapshot(standings: [Fixture.standing("Mike", 1, -3), Fixture.standing("Jake", 2, -2),
                                                                Fixture.standing("Amy", 3, 0)]).round)
        #expect(Announcements.standingsChange(from: new, to: settled) == nil)
    }

    @Test("Return to Clock: two minutes after the wrist drops the watch face comes back and the app is in the background; raised before, the count starts again; never keeps the app in front")
    func returnToClock() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .wrist(up: false), Fixture.env(0))
        #expect(state.returnsToClockAt == Fixture.env(120).now && state.nextTimer != nil)
        _ = WatchMachine.reduce(&state, .clock, Fixture.env(119))
        #expect(!state.appInBackground)
        _ = WatchMachine.reduce(&state, .clock, Fixture.env(120))
        #expect(state.appInBackground && state.screenName == "watch-face")
        // Opened again, with the wrist up: it stays in front.
        var opened = state
        _ = WatchMachine.reduce(&opened, .app(foreground: true), Fixture.env(130))
        _ = WatchMachine.reduce(&opened, .clock, Fixture.env(131))
        #expect(!opened.appInBackground && !opened.wristDown)
        // Raised at 100 s and dropped again: two minutes from the second drop.
        var raised = Fixture.state()
        _ = WatchMachine.reduce(&raised, .wrist(up: false), Fixture.env(0))
        _ = WatchMachine.reduce(&raised, .wrist(up: true), Fixture.env(100))
        _ = WatchMachine.reduce(&raised, .wrist(up: false), Fixture.env(110))
        _ = WatchMachine.reduce(&raised, .clock, Fixture.env(200))
        #expect(!raised.appInBackground)
        _ = WatchMachine.reduce(&raised, .clock, Fixture.env(230))
        #expect(raised.appInBackground)
        var kept = Fixture.state()
        kept.returnToClock = .never
        _ = WatchMachine.reduce(&kept, .wrist(up: false), Fixture.env(0))
        _ = WatchMachine.reduce(&kept, .clock, Fixture.env(3600))
        #expect(!kept.appInBackground && kept.returnsToClockAt == nil)
        #expect(ReturnToClock(argument: "always") == .after(0) && ReturnToClock(argument: "1h") == .after(3600)
                && ReturnToClock(argument: "never") == .never && ReturnToClock(argument: "soon") == nil)
    }

    @Test("Launched after the round finished, the wearer is found in the final standings: the complications say their place, not the leader's")
    func wearerInFinishedRound() throws {
        let final = try #require(Fixture.snapshot(status: .completed, standings: [Fixture.standing("Amy", 1, -2), Fixture.standing("Jake", 2, 1)]).round)
        var state = WatchState(deviceID: "watch-jake", wearerName: "Jake")
        _ = WatchMachine.reduce(&state, .snapshot(StandingsSnapshot(hubID: "hub", sequence: 9, lastUpdatedAt: Fixture.epoch, round: nil, finishedRound: final)), Fixture.env(0))
        #expect(state.wearerID == "id-Jake" && state.banner == nil)
        #expect(state.finishedAt == Fixture.epoch, "the no-round screen says the day it finished, as when the watch saw it finish")
        _ = WatchMachine.reduce(&state, .app(foreground: false), Fixture.env(1))
        #expect(state.complication?.content.rectangular.first == "2nd · Jake", "\(String(describing: state.complication?.content.rectangular))")
    }

    @Test("A finished round's final standings that change after the end (a late score, a resolution) change on the watch's final screen, with no second 'round finished'")
    func finalStandingsChangeAfterTheEnd() throws {
        let disputed = try #require(Fixture.snapshot(status: .completed, standings: [Fixture.standing("Amy", 1, -2), Fixture.standing("Jake", 2, 1, discrepancy: true)]).round)
        let settled = try #require(Fixture.snapshot(status: .completed, standings: [Fixture.standing("Jake", 1, -3), Fixture.standing("Amy", 2, -2)]).round)
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .pushed(StandingsSnapshot(hubID: "hub", sequence: 2, lastUpdatedAt: Fixture.epoch, round: nil, finishedRound: disputed)), Fixture.env(1))
        #expect(state.screenName == "final" && state.finishedRound?.standings.first?.name == "Amy")
        let effects = WatchMachine.reduce(&state, .pushed(StandingsSnapshot(hubID: "hub", sequence: 3, lastUpdatedAt: Fixture.epoch, round: nil, finishedRound: settled)), Fixture.env(2))
        #expect(state.screenName == "final" && state.finishedRound?.standings.map(\.name) == ["Jake", "Amy"])
        #expect(!effects.contains { if case .announce(let text) = $0 { text.contains("finished") } else { false } })
        #expect(effects.contains { if case .announce(let text) = $0 { text.hasPrefix("Final standings changed. ") && text.contains("Jake") } else { false } },
                "\(effects)")
    }

    @Test("← → move score input between holes; past the first or last hole, the crown's limit bump and why")
    func pickHoleAtTheEnds() {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .pickHole(delta: -1), Fixture.env(1))
        guard case .crown(let entry) = state.screen else {
            Issue.record("not on score input: \(state.screen)")
            return
        }
        #expect(entry.hole == 1)
        let effects = WatchMachine.reduce(&state, .pickHole(delta: -1), Fixture.env(2))
        #expect(effects == [.haptic(.limit, value: nil), .announce("Hole 1 is the first.")])
    }

    @Test("Fractional wheel deltas add up to whole detents")
    func fractionalDetents() {
        var crown = CrownAccumulator()
        #expect((0..<10).map { _ in crown.detents(for: 0.1) } == [0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(crown.detents(for: 0.6) == 0)
        #expect(crown.detents(for: -0.3) == 0)
        #expect(crown.detents(for: 0.7) == 1)
        #expect(crown.detents(for: -2.5) == -2)
        #expect(crown.detents(for: -0.5) == -1)
        #expect(crown.detents(for: 3) == 3)
    }

    @Test("Tapping a row opens crown input at the hole's par and announces it")
    func tapOpensCrown() {
        var state = Fixture.state()
        let effects = Fixture.tapRow(1, &state)
        #expect(state.screen == .crown(CrownEntry(playerID: "id-Mike", playerName: "Mike", hole: 2, par: 3, value: 3)))
        #expect(state.screenName == "crown")
        #expect(effects == [.announce("Score for Mike. Current value 3. Use Digital Crown to adjust. Double tap to save.")])
    }

    @Test("Each detent is ±1 with a tick; the crown clamps at 1 and 10 with a limit haptic")
    func clampWithLimit() {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        let down = WatchMachine.reduce(&state, .crown(detents: -3), Fixture.env())
        // VoiceOver reads the value the crown stopped at.
        #expect(down == [.haptic(.tick, value: 2), .haptic(.tick, value: 1), .haptic(.limit, value: 1), .announce("Score: 1")])
        var up: [WatchEffect] = []
        for _ in 0..<10 { up += WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env()) }
        #expect(up.filter { $0 == .haptic(.limit, value: 10) }.count == 1)
        #expect(up.suffix(2) == [.haptic(.limit, value: 10), .announce("Score: 10")])
        guard case .crown(let entry) = state.screen else { Issue.record("not on crown"); return }
        #expect(entry.value == 10)
    }

    @Test("A fast spin past 10 is one limit bump, not one a detent; after a pause the stop is felt again")
    func fastSpinOneBump() {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        var spin: [WatchEffect] = []
        // 40 detents 1 ms apart, as a flicked wheel delivers them.
        for index in 0..<40 { spin += WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env(Double(index) * 0.001)) }
        #expect(spin.filter { if case .haptic(.tick, _) = $0 { true } else { false } }.count == 7)
        #expect(spin.filter { if case .haptic(.limit, _) = $0 { true } else { false } }.count == 1)
        // Said as it turns, and at the limit with its bump: not once more for every detent past it.
        let said = spin.compactMap { if case .announce(let text) = $0 { text } else { nil } }
        #expect(said == (4...10).map { "Score: \($0)" } + ["Score: 10"])
        let later = WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env(1))
        #expect(later == [.haptic(.limit, value: 10), .announce("Score: 10")])
    }

    @Test("The crown against a list that fits the screen is felt: one limit bump at its end")
    func shortListLimit() {
        var state = Fixture.state()
        #expect(WatchMachine.reduce(&state, .crown(detents: -1), Fixture.env()) == [.haptic(.limit, value: nil)])
        #expect(WatchMachine.reduce(&state, .crown(detents: -1), Fixture.env(0.1)) == [])
        #expect(state.scrollRow == 0)
    }

    @Test("The phone finishing the round while a score is being entered says that score was not saved")
    func finishedWhileEntering() {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env())
        let effects = WatchMachine.reduce(&state, .pushed(StandingsSnapshot(hubID: "hub", sequence: 2, lastUpdatedAt: Fixture.epoch, round: nil)), Fixture.env(1))
        #expect(state.screenName == "final")
        #expect(state.banner?.text == "Not saved: round finished")
        #expect(effects.contains(.announce("Score for Jake not saved: the round finished on the phone.")))
    }

    @Test("Text size past either end says why nothing changed")
    func textSizeEnds() {
        var state = Fixture.state()
        state.textSize = .xSmall
        #expect(WatchMachine.reduce(&state, .textSize(.xSmall), Fixture.env()) == [.announce("Text size extra small is the smallest.")])
        #expect(WatchMachine.reduce(&state, .textSize(.small), Fixture.env()) == [.announce("Text size small.")])
        #expect(WatchMachine.reduce(&state, .textSize(.small), Fixture.env()) == [])
    }

    @Test("Save gives a success haptic and queues the score, after the outbox write")
    func saveQueues() {
        var state = Fixture.state()
        _ = Fixture.tapRow(2, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env())
        let effects = WatchMachine.reduce(&state, .save, Fixture.env(5))
        let expected = try! ScoreEvent(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000EE")!, roundID: Fixture.roundID,
                                       playerID: "id-Sarah", hole: 2, strokes: 4, reportedByPlayerID: "id-Sarah", deviceID: "watch-1",
                                       source: .crown, createdAt: Fixture.epoch.addingTimeInterval(5))
        #expect(effects == [.enqueue(expected), .haptic(.success, value: 4), .announce("Score recorded, Sarah, four, one over par. Hole 2.")])
        #expect(state.screenName == "leaderboard")
        #expect(state.pendingTransfers == 1)
    }

    @Test("Back cancels crown input and records nothing")
    func backRecordsNothing() {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: 2), Fixture.env())
        #expect(WatchMachine.reduce(&state, .back, Fixture.env()) == [])
        #expect(state.screenName == "leaderboard")
        #expect(state.pendingTransfers == 0)
        #expect(WatchMachine.reduce(&state, .save, Fixture.env()) == [])
    }

    @Test("Standings turn stale after exactly 30 s and read 2m ago at 120 s")
    func staleness() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .reachability(false), Fixture.env())
        #expect(!state.isStale(at: Fixture.epoch.addingTimeInterval(30)))
        #expect(state.isStale(at: Fixture.epoch.addingTimeInterval(30.001)))
        let measurer = TextMeasurer.estimate
        let fresh = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(29), size: .mm45, measurer: measurer)
        #expect(!fresh.texts.contains { $0.hasSuffix("ago") })
        let stale = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(120), size: .mm45, measurer: measurer)
        #expect(stale.texts.contains("2m ago"))
        // Rows turn grey-ish, every score colour keeping 4.5:1 against the background.
        let jake = stale.commands.compactMap { command -> RGBA? in
            if case .text("Jake", _, _, let color, _) = command { return color } else { return nil }
        }
        #expect(jake == [HyzerColor.stale(HyzerColor.textPrimary)])
        for tone in ScoreTone.allCases {
            #expect(HyzerColor.contrast(HyzerColor.stale(tone.color)) >= 4.5, "\(tone) stale")
            #expect(HyzerColor.stale(tone.color) != tone.color)
        }
        #expect(HyzerColor.contrast(HyzerColor.status) >= 4.5)
    }

    @Test("A heartbeat confirming the shown sequence keeps the standings fresh")
    func heartbeatKeepsFresh() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .reachability(true), Fixture.env())
        var later = Fixture.env(100)
        _ = WatchMachine.reduce(&state, .heartbeat(sequence: 1), later)
        #expect(!state.isStale(at: later.now))
        later = Fixture.env(200)
        _ = WatchMachine.reduce(&state, .heartbeat(sequence: 2), later)
        #expect(state.isStale(at: later.now))
    }

    @Test("A snapshot with a lower sequence from the same hub is ignored; another hub's is taken")
    func olderSequenceIgnored() {
        var state = Fixture.state(Fixture.snapshot(sequence: 5))
        _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot(sequence: 4, standings: [Fixture.standing("Old", 1, 0)])), Fixture.env(1))
        #expect(state.snapshot?.sequence == 5)
        #expect(state.round?.standings.first?.name == "Jake")
        _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot(sequence: 1, hubID: "new-hub", standings: [Fixture.standing("New", 1, 0)])), Fixture.env(2))
        #expect(state.snapshot?.hubID == "new-hub")
    }

    @Test("A burst of arrivals (a queue draining on reconnecting) is felt and said once, for the net change")
    func burstIsOneChange() {
        var state = Fixture.state()
        let first = Fixture.snapshot(sequence: 2, standings: [
            Fixture.standing("Mike", 1, -3, holes: 2), Fixture.standing("Jake", 2, -2, holes: 2),
            Fixture.standing("Sarah", 3, 1), Fixture.standing("Amy", 4, 2),
        ])
        let second = Fixture.snapshot(sequence: 3, standings: [
            Fixture.standing("Sarah", 1, -4, holes: 2), Fixture.standing("Mike", 2, -3, holes: 2),
            Fixture.standing("Jake", 3, -2, holes: 2), Fixture.standing("Amy", 4, 2),
        ])
        var effects = WatchMachine.reduce(&state, .pushed(first), Fixture.env(1))
        effects += WatchMachine.reduce(&state, .clock, Fixture.env(1.036))
        effects += WatchMachine.reduce(&state, .pushed(second), Fixture.env(1.036))
        #expect(effects.isEmpty, "nothing felt or said mid-burst: \(effects)")
        effects = WatchMachine.reduce(&state, .clock, Fixture.env(1.036 + WatchMachine.arrivalsSettle))
        #expect(effects.filter { if case .haptic = $0 { true } else { false } } == [.haptic(.notification, value: nil)])
        // From the standings before the burst (Jake, Mike, Sarah) to after it (Sarah, Mike, Jake):
        // Mike went up and came back to second, so only his score is news.
        #expect(effects.last == .announce("Sarah moves up to first, minus four. Mike, minus three. Jake drops to third, minus two."))
        #expect(state.reshuffle?.movedUp == ["id-Sarah": true, "id-Jake": false])
        #expect(WatchMachine.reduce(&state, .clock, Fixture.env(5)).isEmpty, "said once")
    }

    @Test("This watch's queued scores draining to a slow phone are one change however far apart their standings come, and at most five seconds are held")
    func drainIsOneChange() throws {
        var state = Fixture.state()
        let scores = try ["Sarah", "Amy"].map {
            try ScoreEvent(roundID: Fixture.roundID, playerID: "id-\($0)", hole: 2, strokes: 1, reportedByPlayerID: "id-\($0)",
                           deviceID: "watch-1", source: .crown, createdAt: Fixture.epoch)
        }
        _ = WatchMachine.reduce(&state, .pending(scores), Fixture.env(0.5))
        _ = WatchMachine.reduce(&state, .reachability(true), Fixture.env(1))
        let afterSarah = Fixture.snapshot(sequence: 2, standings: [
            Fixture.standing("Sarah", 1, -3, holes: 2), Fixture.standing("Jake", 2, -2), Fixture.standing("Mike", 3, -1), Fixture.standing("Amy", 4, 2),
        ])
        let afterAmy = Fixture.snapshot(sequence: 3, standings: [
            Fixture.standing("Sarah", 1, -3, holes: 2), Fixture.standing("Jake", 2, -2), Fixture.standing("Amy", 3, -1, holes: 2), Fixture.standing("Mike", 4, -1),
        ])
        // The phone stores each score slowly: its standings come 0.8 s apart, each just before its ack.
        var effects = WatchMachine.reduce(&state, .pushed(afterSarah), Fixture.env(1.1))
        effects += WatchMachine.reduce(&state, .acked(scores[0], .newScore), Fixture.env(1.1))
        effects += WatchMachine.reduce(&state, .clock, Fixture.env(1.1 + WatchMachine.arrivalsSettle))
        #expect(effects.isEmpty, "nothing felt or said while the queue drains: \(effects)")
        #expect(state.nextTimer == Fixture.epoch.addingTimeInterval(1.1 + WatchMachine.drainingHold))
        effects = WatchMachine.reduce(&state, .pushed(afterAmy), Fixture.env(1.9))
        effects += WatchMachine.reduce(&state, .acked(scores[1], .newScore), Fixture.env(1.9))
        #expect(effects.isEmpty)
        effects = WatchMachine.reduce(&state, .clock, Fixture.env(1.9 + WatchMachine.arrivalsSettle))
        #expect(effects.filter { if case .haptic = $0 { true } else { false } } == [.haptic(.notification, value: nil)])
        #expect(effects.last == .announce("Sarah moves up to first, minus three. Jake drops to second, minus two. Amy moves up to third, minus one. Mike drops to fourth, minus one."))

        // A phone that never acks holds the news back five seconds at most.
        var stuck = Fixture.state()
        _ = WatchMachine.reduce(&stuck, .pending(scores), Fixture.env(0.5))
        _ = WatchMachine.reduce(&stuck, .reachability(true), Fixture.env(1))
        _ = WatchMachine.reduce(&stuck, .pushed(afterSarah), Fixture.env(1.1))
        #expect(WatchMachine.reduce(&stuck, .clock, Fixture.env(6)).isEmpty)
        #expect(WatchMachine.reduce(&stuck, .clock, Fixture.env(1.1 + WatchMachine.drainingHold)).contains(.haptic(.notification, value: nil)))
    }

    @Test("When positions change, rows reshuffle with arrows and a notification haptic")
    func reshuffle() {
        var state = Fixture.state()
        let swapped = Fixture.snapshot(sequence: 2, standings: [
            Fixture.standing("Mike", 1, -3, holes: 2), Fixture.standing("Jake", 2, -2, holes: 2),
            Fixture.standing("Sarah", 3, 1), Fixture.standing("Amy", 4, 2),
        ])
        // The rows move at once; the haptic and what is said wait for arrivals to settle.
        #expect(WatchMachine.reduce(&state, .snapshot(swapped), Fixture.env(1)).isEmpty)
        #expect(state.nextTimer == Fixture.epoch.addingTimeInterval(1 + WatchMachine.arrivalsSettle))
        let effects = WatchMachine.reduce(&state, .clock, Fixture.env(1 + WatchMachine.arrivalsSettle))
        #expect(effects.first == .haptic(.notification, value: nil))
        // What changed, not the whole list again.
        #expect(effects.last == .announce("Mike moves up to first, minus three. Jake drops to second, minus two."))
        #expect(state.reshuffle?.movedUp == ["id-Mike": true, "id-Jake": false])

        let measurer = TextMeasurer.estimate
        func y(of name: String, at seconds: TimeInterval, _ state: WatchState) -> Double? {
            WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(seconds), size: .mm45, measurer: measurer).commands.compactMap { command -> Double? in
                if case .text(let text, let frame, _, _, _) = command, text == name { return frame.y } else { return nil }
            }.first
        }
        let top = WatchLayout.rowFrame(slot: 0, size: .mm45).y, second = WatchLayout.rowFrame(slot: 1, size: .mm45).y
        #expect(y(of: "Mike", at: 1, state) == second)  // starts where it was
        let midway = y(of: "Mike", at: 1.15, state)!
        #expect(midway < second && midway > top)  // sliding
        #expect(y(of: "Mike", at: 1.3, state) == top)  // there after 0.3 s
        let frame = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(1.5), size: .mm45, measurer: measurer)
        #expect(frame.texts.contains("▲") && frame.texts.contains("▼"))
        let later = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(3), size: .mm45, measurer: measurer)
        #expect(!later.texts.contains("▲"))

        var reduced = Fixture.state(reduceMotion: true)
        _ = WatchMachine.reduce(&reduced, .snapshot(swapped), Fixture.env(1))
        // Reduce motion: Mike is at the top at once; the old order crossfades out within 0.2 s.
        func ys(of name: String, at seconds: TimeInterval, _ state: WatchState) -> [Double] {
            WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(seconds), size: .mm45, measurer: measurer).commands.compactMap { command -> Double? in
                if case .text(let text, let frame, _, _, _) = command, text == name { return frame.y } else { return nil }
            }
        }
        #expect(ys(of: "Mike", at: 1.1, reduced) == [second, top])
        #expect(ys(of: "Mike", at: 1.25, reduced) == [top])
        // Only what changed crossfades: a row in the same place with the same line is drawn once,
        // whole, all the way through (no blackout of the list).
        let third = WatchLayout.rowFrame(slot: 2, size: .mm45).y
        #expect(ys(of: "Sarah", at: 1.1, reduced) == [third])
        let mid = WatchLayout.displayList(reduced, now: Fixture.epoch.addingTimeInterval(1.1), size: .mm45, measurer: measurer)
        #expect(WatchLayoutTests.color(of: "Sarah", in: mid)?.a == 255)
        #expect(WatchLayout.displayList(reduced, now: Fixture.epoch.addingTimeInterval(1), size: .mm45, measurer: measurer).texts.contains("▲"))
    }

    @Test("The crown scrolls the leaderboard when rows overflow, and taps follow the scroll")
    func scrolling() {
        let many = (1...9).map { Fixture.standing("P\($0)", $0, $0) }
        var state = Fixture.state(Fixture.snapshot(standings: many))
        #expect(WatchLayout.visibleRows(size: .mm45) == 4)
        _ = WatchMachine.reduce(&state, .crown(detents: -10), Fixture.env())
        #expect(state.scrollRow == 5)
        let frame = WatchLayout.displayList(state, now: Fixture.epoch, size: .mm45, measurer: .estimate)
        #expect(frame.texts.contains("P9") && !frame.texts.contains("P1"))
        _ = WatchMachine.reduce(&state, .tap(WatchLayout.rowFrame(slot: 0, size: .mm45).center), Fixture.env())
        guard case .crown(let entry) = state.screen else { Issue.record("no crown input"); return }
        #expect(entry.playerName == "P6")
    }

    @Test("A rejected score says whose, which hole and why, with a failure haptic")
    func rejection() throws {
        var state = Fixture.state()
        let round = try #require(state.round)
        let score = try ScoreEvent(roundID: round.id, playerID: "id-Mike", hole: 3, strokes: 4, reportedByPlayerID: "id-Mike",
                                   deviceID: "watch-1", source: .crown, createdAt: Fixture.epoch)
        let effects = WatchMachine.reduce(&state, .rejected(score, Rejection(eventID: score.id.uuidString, reason: .roundNotAcceptingScores,
                                                                            message: "The round is finished; it takes no more scores.")), Fixture.env())
        #expect(effects.first == .haptic(.failure, value: nil))
        // The banner says it in a few words that fit; the announcement says it whole.
        #expect(state.banner?.text == "Mike · hole 3: round is over")
        #expect(effects.contains(.announce("Score not accepted: Mike, 4 on hole 3. The round is over on the phone.")), "in words, not the hub's message: \(effects)")
        let shown = WatchLayout.displayList(state, now: Fixture.epoch, size: .mm41, measurer: .estimate, clock: nil).texts
        // On the smallest face it takes two lines rather than lose the why.
        #expect(shown.contains("Mike · hole 3") && shown.contains("round is over"), "\(shown)")
    }

    @Test("Refusals arriving together are one banner with their count and reason, felt once; each is said, whose and which hole, without ids; a later one starts a new banner")
    func refusalsTogether() throws {
        var state = Fixture.state()
        let round = try #require(state.round)
        func refusal(_ player: String, hole: Int) throws -> WatchInput {
            let score = try ScoreEvent(roundID: round.id, playerID: "id-\(player)", hole: hole, strokes: 3, reportedByPlayerID: "id-\(player)",
                                       deviceID: "watch-1", source: .crown, createdAt: Fixture.epoch)
            return .rejected(score, Rejection(eventID: score.id.uuidString, reason: .wrongRound,
                                              message: "Score is for round \(round.id.uuidString), but the active round is \(UUID().uuidString)."))
        }
        let first = WatchMachine.reduce(&state, try refusal("Jake", hole: 4), Fixture.env())
        let second = WatchMachine.reduce(&state, try refusal("Mike", hole: 4), Fixture.env(0.012))
        #expect(first.contains(.haptic(.failure, value: nil)) && !second.contains(.haptic(.failure, value: nil)))
        #expect(state.banner?.text == "2 scores not accepted: another round")
        let said = (first + second).compactMap { if case .announce(let text) = $0 { text } else { nil } }
        // The second cuts the first off on a device (VoiceOver says one announcement at a time), so it tells both.
        #expect(said == ["Score not accepted: Jake, 3 on hole 4. It was for another round: the phone has started a new one.",
                         "2 scores not accepted: Jake, 3 on hole 4; Mike, 3 on hole 4. It was for another round: the phone has started a new one."])
        // Once the banner is gone, a refusal is news again.
        let later = WatchMachine.reduce(&state, try refusal("Jake", hole: 5), Fixture.env(60))
        #expect(later.contains(.haptic(.failure, value: nil)) && state.banner?.text == "Jake · hole 5: another round")
        // With the app in the background nothing is felt or said; back in front, all of them are, once.
        _ = WatchMachine.reduce(&state, .app(foreground: false), Fixture.env(120))
        let away = try [refusal("Jake", hole: 6), refusal("Mike", hole: 6), refusal("Amy", hole: 6), refusal("Sarah", hole: 6)]
            .enumerated().flatMap { WatchMachine.reduce(&state, $0.element, Fixture.env(130 + Double($0.offset) * 60)) }
        #expect(away.isEmpty)
        let back = WatchMachine.reduce(&state, .app(foreground: true), Fixture.env(600))
        #expect(back.filter { $0 == .haptic(.failure, value: nil) }.count == 1 && state.banner?.text == "4 scores not accepted: another round")
        #expect(back.contains(.announce("4 scores not accepted: Jake, 3 on hole 6; Mike, 3 on hole 6; Amy, 3 on hole 6; Sarah, 3 on hole 6. It was for another round: the phone has started a new one.")), "\(back)")
    }

    @Test("--wearer takes a player's first name when only one player has it, as the phone's commands do; two sharing it is nobody, said")
    func wearerByFirstName() {
        let standings = [Fixture.standing("Holyn Handley", 1, 0), Fixture.standing("Sam Kim", 2, 1), Fixture.standing("Sam Lee", 3, 2)]
        var holyn = WatchState(deviceID: "watch-holyn", wearerName: "holyn")
        _ = WatchMachine.reduce(&holyn, .snapshot(Fixture.snapshot(standings: standings)), Fixture.env())
        #expect(holyn.wearerID == "id-Holyn Handley" && holyn.banner == nil)
        var sam = WatchState(deviceID: "watch-sam", wearerName: "Sam")
        _ = WatchMachine.reduce(&sam, .snapshot(Fixture.snapshot(standings: standings)), Fixture.env())
        #expect(sam.wearerID == nil && sam.banner?.text == "Sam is not in this round")
        #expect(NameText.wearerIndex("sam lee", in: standings.map(\.name)) == 2)
    }

    @Test("The clock set back takes no time back: standings already stale stay stale, as old as they were")
    func clockSetBack() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .reachability(false), Fixture.env())
        #expect(state.isStale(at: Fixture.epoch.addingTimeInterval(300)))
        // Five minutes on, the clock is set back an hour: by the new clock the standings were
        // stamped 55 minutes from now.
        let now = Fixture.epoch.addingTimeInterval(300 - 3600)
        _ = WatchMachine.reduce(&state, .clockSetBack(3600), Fixture.env(300 - 3600))
        #expect(state.isStale(at: now) && state.age(at: now) == 300)
    }

    @Test("A discrepancy's banner goes as soon as the phone's standings settle it, not seconds later over a settled row")
    func disputeBannerGoesWhenSettled() throws {
        var state = Fixture.state()
        let score = try ScoreEvent(roundID: Fixture.roundID, playerID: "id-Jake", hole: 2, strokes: 4, reportedByPlayerID: "id-Jake",
                                   deviceID: "watch-1", source: .crown, createdAt: Fixture.epoch)
        let flagged = [Fixture.standing("Jake", 1, -2, discrepancy: true), Fixture.standing("Mike", 2, -1), Fixture.standing("Sarah", 3, 1), Fixture.standing("Amy", 4, 2)]
        _ = WatchMachine.reduce(&state, .pushed(Fixture.snapshot(sequence: 2, standings: flagged)), Fixture.env(1))
        _ = WatchMachine.reduce(&state, .acked(score, .discrepancy), Fixture.env(1))
        #expect(state.banner?.text == "Jake · hole 2: 4 disputed")
        _ = WatchMachine.reduce(&state, .pushed(Fixture.snapshot(sequence: 3, standings: flagged)), Fixture.env(2))
        #expect(state.banner?.text == "Jake · hole 2: 4 disputed", "still disputed: still said")
        _ = WatchMachine.reduce(&state, .pushed(Fixture.snapshot(sequence: 4)), Fixture.env(3))
        #expect(state.banner == nil, "resolved on the phone")
    }

    @Test("A wearer who is not in the round is said on the face, once per round")
    func wearerNotInRound() {
        var state = WatchState(deviceID: "watch-nobody", wearerName: "Nobody")
        _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot()), Fixture.env())
        #expect(state.banner?.text == "Nobody is not in this round")
        #expect(state.wearerID == nil)
        state.banner = nil
        _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot(sequence: 2)), Fixture.env(1))
        #expect(state.banner == nil)
    }
}

extension WatchMachineTests {
    @Test("An old file read at start is not called stale while the link first connects, nor between pairing and the standings that follow; with no phone it is")
    func startupIsNotStale() {
        let old = Fixture.snapshot(at: Fixture.epoch.addingTimeInterval(-120))
        var state = WatchState(deviceID: "watch-1")
        var effects = WatchMachine.reduce(&state, .snapshot(old), Fixture.env())
        #expect(!state.isStale(at: Fixture.epoch), "the first attempt is under way")
        #expect(state.nextTimer == nil, "no stale announcement scheduled (in the past) meanwhile")
        effects += WatchMachine.reduce(&state, .reachability(true), Fixture.env())
        #expect(!state.isStale(at: Fixture.epoch), "paired: the hub's standings follow at once")
        effects += WatchMachine.reduce(&state, .pushed(old), Fixture.env())
        #expect(!state.isStale(at: Fixture.epoch.addingTimeInterval(29)))
        #expect(state.isStale(at: Fixture.epoch.addingTimeInterval(31)))
        #expect(!effects.contains { if case .announce(let text) = $0 { text.contains("out of date") || text.contains("up to date") } else { false } })

        // No phone: the same file is stale once the attempt has failed, and said so once.
        var alone = WatchState(deviceID: "watch-1")
        _ = WatchMachine.reduce(&alone, .snapshot(old), Fixture.env())
        let said = WatchMachine.reduce(&alone, .reachability(false), Fixture.env())
        #expect(alone.isStale(at: Fixture.epoch))
        #expect(said.contains(.announce("Standings out of date, updated 2 minutes ago. Showing the last standings the phone sent.")))
    }

    @Test("A score from another player's watch (paired as watch-NAME) is said as that player's watch, not by its device id")
    func scoredByAnotherWatch() throws {
        var standings = Fixture.snapshot().round!.standings
        standings[0] = Standing(playerID: standings[0].playerID, name: "Jake", position: 1, tied: false, totalStrokes: 4, holesPlayed: 2,
                                scoreRelativeToPar: -2, currentHoleStrokes: 2, discrepancy: false, currentHoleEventID: UUID(), currentHoleDeviceID: "watch-mike")
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .pushed(Fixture.snapshot(sequence: 2, standings: standings)), Fixture.env(1))
        _ = Fixture.tapRow(0, &state)
        guard case .crown(let entry) = state.screen else { Issue.record("no score input"); return }
        #expect(entry.scoredBy == .other("Mike's watch"))
        #expect(WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(1), size: .mm45, measurer: .estimate).texts.contains("Scored 2 by Mike's watch"))
    }

    @Test("The phone scoring the open hole meanwhile shows on the open screen: Save becomes Correct and supersedes it; the value turned stays")
    func phoneScoresOpenHole() throws {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: 2), Fixture.env())
        let id = UUID(uuidString: "00000000-0000-0000-0000-0000000000C2")!
        var standings = Fixture.snapshot().round!.standings
        standings[0] = Standing(playerID: standings[0].playerID, name: "Jake", position: 1, tied: false, totalStrokes: 4, holesPlayed: 2,
                                scoreRelativeToPar: -2, currentHoleStrokes: 2, discrepancy: false, currentHoleEventID: id, currentHoleDeviceID: "phone")
        let effects = WatchMachine.reduce(&state, .pushed(Fixture.snapshot(sequence: 2, standings: standings)), Fixture.env(1))
        guard case .crown(let entry) = state.screen else { Issue.record("the score screen closed"); return }
        #expect(entry.value == 5)
        #expect(entry.scoredStrokes == 2)
        #expect(entry.scoredBy == .phone)
        #expect(effects.contains(.announce("Jake was just scored 2 by phone. A different score from this watch disputes it; the organizer settles it on the phone.")))
        let text = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(1), size: .mm45, measurer: .estimate).texts
        #expect(text.contains("Scored 2 by phone"))
        #expect(text.contains("Correct"))
        let saved = WatchMachine.reduce(&state, .save, Fixture.env(2))
        let event = try #require(saved.compactMap { if case .enqueue(let e) = $0 { e } else { nil } }.first)
        #expect(event.supersedesEventID == id)
        #expect(event.strokes == 5)
    }

    @Test("Re-scoring opens at the current score; Save with nothing turned records nothing, a turned value supersedes it")
    func rescoreSupersedes() throws {
        let id = UUID(uuidString: "00000000-0000-0000-0000-0000000000C1")!
        var standings = Fixture.snapshot().round!.standings
        standings[0] = Standing(playerID: standings[0].playerID, name: "Jake", position: 1, tied: false, totalStrokes: 4, holesPlayed: 2,
                                scoreRelativeToPar: -2, currentHoleStrokes: 2, discrepancy: false, currentHoleEventID: id, currentHoleDeviceID: "phone")
        var state = Fixture.state(Fixture.snapshot(standings: standings))
        _ = Fixture.tapRow(0, &state)
        guard case .crown(let entry) = state.screen else { Issue.record("no crown screen"); return }
        #expect(entry.value == 2)
        #expect(entry.scoredBy == .phone)
        let unchanged = WatchMachine.reduce(&state, .save, Fixture.env())
        #expect(!unchanged.contains { if case .enqueue = $0 { true } else { false } }, "nothing to save")
        #expect(unchanged.contains(.announce("No change. Jake already has two on hole 2. Nothing saved.")))
        #expect(state.pendingScores.isEmpty && state.screen == .leaderboard)
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env())
        let effects = WatchMachine.reduce(&state, .save, Fixture.env())
        let event = try #require(effects.compactMap { if case .enqueue(let e) = $0 { e } else { nil } }.first)
        #expect(event.supersedesEventID == id)
        #expect(event.strokes == 3)
    }

    @Test("A voice Save of several scores too long for the banner says them with first names, else their count; never a cut list that reads as another score")
    func voiceBannerNeverCutsTheList() {
        let standings = [Fixture.standing("Jake Thompson", 1, -1), Fixture.standing("Mike Lee", 2, 0), Fixture.standing("Sarah Connor", 3, 0),
                         Fixture.standing("Holyn Handley", 4, 1)]
        for (size, transcript, expected) in [(WatchSize.mm45, "Jake 2, Holyn 4", "Saved Jake 2, Holyn 4"),
                                              (.mm49, "Jake 2, Mike 3, Sarah 2, Holyn 4", "Saved 4 scores")] {
            var state = Fixture.state(Fixture.snapshot(standings: standings))
            _ = WatchMachine.reduce(&state, .voice(transcript), Fixture.env(0, size: size))
            _ = WatchMachine.reduce(&state, .save, Fixture.env(0, size: size))
            #expect(state.banner?.text.hasPrefix("Saved Jake Thompson 2, ") == true, "VoiceOver reads it whole")
            let texts = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(0.5), size: size, measurer: .estimate).texts
            #expect(texts.contains(expected), "\(size): \(texts.filter { $0.hasPrefix("Saved") })")
        }
    }

    @Test("A long name in the Saved banner is shortened and the score stays")
    func bannerKeepsScore() {
        let standings = [Fixture.standing("Holyn Handley-Wutherspoon", 1, 0), Fixture.standing("Mike", 2, 1)]
        var state = Fixture.state(Fixture.snapshot(standings: standings))
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env())
        _ = WatchMachine.reduce(&state, .save, Fixture.env())
        let texts = WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(0.5), size: .mm45, measurer: .estimate).texts
        let banner = texts.first { $0.hasPrefix("Saved ") }
        #expect(banner?.hasSuffix("… 4") == true, "\(texts)")
        #expect(WatchLayout.fitBanner("Saved Mike 3", font: FontSpec(.sans, 26), width: 300, measurer: .estimate) == "Saved Mike 3")
        // A dispute's first line keeps its hole: "Maximilian Feat… 4" read as a score of 4.
        let disputed = WatchLayout.fitBanner("Maximilian Featherstonehaugh · hole 4", font: FontSpec(.sans, 26), width: 280, measurer: .estimate)
        #expect(disputed.hasPrefix("Maxim") && disputed.hasSuffix("… · hole 4"), "\(disputed)")
    }

    @Test("A disputed row opens its disputed hole, not the current one, showing and saying every score in play; saving a value already claimed records nothing")
    func disputedRowOpensItsHole() throws {
        let sarahs = UUID(uuidString: "00000000-0000-0000-0000-0000000000D1")!, mine = UUID(uuidString: "00000000-0000-0000-0000-0000000000D2")!
        var standings = Fixture.snapshot().round!.standings
        standings[0] = Standing(playerID: standings[0].playerID, name: "Jake", position: 1, tied: false, totalStrokes: 4, holesPlayed: 2,
                                scoreRelativeToPar: -2, currentHoleStrokes: nil, discrepancy: true, disputes: [HoleDispute(hole: 1, claims: [
                                    ScoreClaim(eventID: sarahs, strokes: 3, deviceID: "watch-sarah", reportedByPlayerID: standings[2].playerID),
                                    ScoreClaim(eventID: mine, strokes: 4, deviceID: "watch-1", reportedByPlayerID: standings[0].playerID),
                                ])])
        var state = Fixture.state(Fixture.snapshot(currentHole: 5, standings: standings))
        let effects = Fixture.tapRow(0, &state)
        guard case .crown(let entry) = state.screen else { Issue.record("no crown screen"); return }
        #expect(entry.hole == 1 && entry.value == 4, "the disputed hole, at this watch's own claim")
        #expect(effects.contains(.announce("Score for Jake. Hole 1 is disputed. Sarah says 3, which counts for now. This watch says 4. "
            + "The organizer settles it on the phone. Current value 4. Use Digital Crown to adjust. Double tap to save.")))
        let list = WatchLayout.displayList(state, now: Fixture.epoch, size: .mm45, measurer: .estimate)
        #expect(list.texts.contains("Disputed · 3 Sarah · 4 you"), "\(list.texts)")
        let saved = WatchMachine.reduce(&state, .save, Fixture.env())
        #expect(!saved.contains { if case .enqueue = $0 { true } else { false } }, "this watch already says 4")
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: -1), Fixture.env())
        let conceded = WatchMachine.reduce(&state, .save, Fixture.env())
        let event = try #require(conceded.compactMap { if case .enqueue(let e) = $0 { e } else { nil } }.first)
        #expect(event.hole == 1 && event.strokes == 3 && event.supersedesEventID == mine, "the watch corrects its own claim")
    }

    @Test("A disputed hole's scores stay in sight at every size and text size: a value several said once, then more lines, never a claim cut off")
    func disputedClaimsStayInSight() throws {
        var standings = Fixture.snapshot().round!.standings
        standings[0] = Standing(playerID: standings[0].playerID, name: "Maximilian Featherstonehaugh", position: 1, tied: false, totalStrokes: 4,
                                holesPlayed: 2, scoreRelativeToPar: -2, currentHoleStrokes: nil, discrepancy: true, disputes: [HoleDispute(hole: 1, claims: [
                                    ScoreClaim(eventID: UUID(), strokes: 5, deviceID: "phone", reportedByPlayerID: standings[0].playerID),
                                    ScoreClaim(eventID: UUID(), strokes: 6, deviceID: "watch-sarah", reportedByPlayerID: standings[2].playerID),
                                    ScoreClaim(eventID: UUID(), strokes: 6, deviceID: "watch-1", reportedByPlayerID: standings[0].playerID),
                                    ScoreClaim(eventID: UUID(), strokes: 7, deviceID: "watch-christopher", reportedByPlayerID: standings[1].playerID),
                                ])])
        var state = Fixture.state(Fixture.snapshot(currentHole: 5, standings: standings))
        _ = Fixture.tapRow(0, &state)
        guard case .crown(let entry) = state.screen else { Issue.record("no crown screen"); return }
        let shown = WatchLayout.shownClaims(entry.claims)
        #expect(shown.count == 1 && shown[0].contains("6 Sarah, you"), "one 6, said by two: \(shown)")
        for size in WatchSize.allCases {
            for textSize in [TextSize.large, .xxxLarge, .accessibility3] {
                state.textSize = textSize
                let texts = WatchLayout.displayList(state, now: Fixture.epoch, size: size, measurer: .estimate).texts
                let claims = texts.filter { $0.hasPrefix("Disputed") || $0.first?.isNumber == true && $0.contains(" ") }
                #expect(claims.joined(separator: " · ").split(separator: " · ").count >= 3, "\(size) \(textSize): every value in sight: \(texts)")
                let cut = claims.contains { $0.contains("…") }
                if cut { Issue.record("\(size) \(textSize): a claim cut off: \(claims)") }
            }
        }
        // Five values: two lines at most, the last counting the rest ("+2"), and the number clear
        // of Save (four lines of them pushed it under the button at 41 mm ax3).
        let first = standings[0]
        standings[0] = Standing(playerID: first.playerID, name: first.name, position: 1, tied: false, totalStrokes: 4, holesPlayed: 2,
                                scoreRelativeToPar: -2, currentHoleStrokes: nil, discrepancy: true, disputes: [HoleDispute(hole: 1, claims: first.disputes[0].claims + [
                                    ScoreClaim(eventID: UUID(), strokes: 8, deviceID: "watch-4", reportedByPlayerID: standings[3].playerID),
                                    ScoreClaim(eventID: UUID(), strokes: 9, deviceID: "watch-5", reportedByPlayerID: standings[2].playerID),
                                ])])
        var crowded = Fixture.state(Fixture.snapshot(currentHole: 5, standings: standings))
        _ = Fixture.tapRow(0, &crowded)
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                crowded.textSize = textSize
                let list = WatchLayout.displayList(crowded, now: Fixture.epoch, size: size, measurer: .estimate)
                let claims = list.texts.filter { $0.hasPrefix("Disputed") || $0.first?.isNumber == true && $0.contains(" ") }
                #expect((1...2).contains(claims.count), "\(size) \(textSize): \(claims)")
                let problems = LayoutCheck.problems(list, measurer: .estimate)
                if !problems.isEmpty { Issue.record("\(size) \(textSize): \(problems)") }
            }
        }
    }

    @Test("A disputed hole this watch has no score on opens at the score that counts, and Save unturned records nothing")
    func disputedHoleWithoutOwnClaim() throws {
        let phones = UUID(uuidString: "00000000-0000-0000-0000-0000000000D3")!
        var standings = Fixture.snapshot().round!.standings
        standings[0] = Standing(playerID: standings[0].playerID, name: "Jake", position: 1, tied: false, totalStrokes: 4, holesPlayed: 2,
                                scoreRelativeToPar: -2, currentHoleStrokes: nil, discrepancy: true, disputes: [HoleDispute(hole: 3, claims: [
                                    ScoreClaim(eventID: phones, strokes: 5, deviceID: "phone", reportedByPlayerID: standings[0].playerID),
                                    ScoreClaim(eventID: UUID(), strokes: 6, deviceID: "watch-sarah", reportedByPlayerID: standings[2].playerID),
                                ])])
        var state = Fixture.state(Fixture.snapshot(currentHole: 5, standings: standings))
        _ = Fixture.tapRow(0, &state)
        guard case .crown(let entry) = state.screen else { Issue.record("no crown screen"); return }
        #expect(entry.hole == 3 && entry.value == 5 && entry.supersedes == phones, "at the counted 5, not the par")
        #expect(WatchLayout.displayList(state, now: Fixture.epoch, size: .mm45, measurer: .estimate).texts.contains("Correct"))
        let saved = WatchMachine.reduce(&state, .save, Fixture.env())
        #expect(!saved.contains { if case .enqueue = $0 { true } else { false } })
        #expect(saved.contains(.announce("No change. Jake already has five on hole 3. Nothing saved.")))
    }
}

extension WatchMachineTests {
    @Test("In the background only a tap on one of Hyzer's complications opens the app; the time, the crown and Save reach nothing")
    func watchFaceTaps() {
        for slot in WatchLayout.complicationSlots(WatchMetrics(size: .mm45)) {
            var state = Fixture.state()
            _ = WatchMachine.reduce(&state, .app(foreground: false), Fixture.env())
            #expect(state.screenName == "watch-face")
            _ = WatchMachine.reduce(&state, .tap(WatchLayout.watchFaceSlots(state.metrics(.mm45)).time.center), Fixture.env())
            _ = WatchMachine.reduce(&state, .crown(detents: 3), Fixture.env())
            _ = WatchMachine.reduce(&state, .save, Fixture.env())
            #expect(state.appInBackground && state.screenName == "watch-face")
            _ = WatchMachine.reduce(&state, .tap(slot.frame.center), Fixture.env())
            #expect(!state.appInBackground && state.screenName == "leaderboard", "a tap on the \(slot.family) complication")
        }
    }

    @Test("Arrivals that never stop are still told within a second of the first, and no other timer waits behind them")
    func newsIsNotPutOffForever() {
        var state = Fixture.state()
        var told: [WatchEffect] = []
        for step in 0..<20 {
            let at = 1 + Double(step) * 0.2
            let swapped = Fixture.snapshot(sequence: 2 + step, standings: step % 2 == 0
                ? [Fixture.standing("Mike", 1, -3, holes: 2), Fixture.standing("Jake", 2, -2, holes: 2), Fixture.standing("Sarah", 3, 1), Fixture.standing("Amy", 4, 2)]
                : [Fixture.standing("Jake", 1, -4, holes: 2), Fixture.standing("Mike", 2, -3, holes: 2), Fixture.standing("Sarah", 3, 1), Fixture.standing("Amy", 4, 2)])
            told += WatchMachine.reduce(&state, .pushed(swapped), Fixture.env(at))
            if let due = state.nextTimer, due <= Fixture.epoch.addingTimeInterval(at + 0.2) {
                told += WatchMachine.reduce(&state, .clock, WatchEnvironment(now: due, size: .mm45, makeID: UUID.init))
            }
        }
        #expect(told.contains(.haptic(.notification, value: nil)), "told within the stream, not after it")
    }
}

extension WatchMachineTests {
    static func transfer(_ sequence: Int, position: Int) -> ComplicationTransfer {
        ComplicationTransfer(reason: .changed, sequence: sequence, asOf: Fixture.epoch, content: ComplicationContent(
            playerID: "id-Jake", name: "Jake", position: position, tied: false, scoreRelativeToPar: -sequence, holesPlayed: sequence,
            holeCount: 9, currentHole: sequence + 1, finished: false))
    }

    @Test("A budget of 5: the 6th complication transfer of the day leaves the face as it was, growing older, and is logged as a fallback; after midnight the face refreshes again")
    func complicationBudget() {
        var state = Fixture.state()
        state.complicationBudget = ComplicationBudget(daily: 5)
        _ = WatchMachine.reduce(&state, .app(foreground: false), Fixture.env(1))
        for sequence in 1...5 {
            let effects = WatchMachine.reduce(&state, .complication(Self.transfer(sequence, position: sequence)), Fixture.env(Double(10 * sequence)))
            guard case .logComplication(let record)? = effects.first else { Issue.record("no log line for transfer \(sequence)"); return }
            #expect(record.delivered == .complication && record.remaining == 5 - sequence)
            #expect(state.complication?.content.position == sequence && state.complication?.refreshedAt == Fixture.env(Double(10 * sequence)).now)
        }
        let sixth = WatchMachine.reduce(&state, .complication(Self.transfer(6, position: 6)), Fixture.env(60))
        guard case .logComplication(let fallback)? = sixth.first else { Issue.record("no log line for the 6th transfer"); return }
        #expect(fallback.delivered == .userInfo && fallback.remaining == 0 && fallback.inline == "6th · -6 · thru 6")
        #expect(state.complication?.content.position == 5 && state.complication?.refreshedAt == Fixture.env(50).now)
        let face = WatchLayout.displayList(state, now: Fixture.env(50 + 600).now, size: .mm45, measurer: .estimate)
        #expect(face.containsText("Updated 10m ago") && face.containsText("5th · Jake"), "\(face.texts)")
        // The next day (by the watch's clock): a fresh budget.
        let tomorrow = Fixture.env(86_400 + 60)
        _ = WatchMachine.reduce(&state, .complication(Self.transfer(7, position: 7)), tomorrow)
        #expect(state.complication?.content.position == 7)
        #expect(state.complicationBudget.remaining(on: ComplicationBudget.day(of: tomorrow.now)) == 4)
        // Back to a day already spent (time travel either way): still spent.
        _ = WatchMachine.reduce(&state, .complication(Self.transfer(8, position: 8)), Fixture.env(120))
        #expect(state.complication?.content.position == 7)
        // Relaunched, the budget is read back from the log, day by day.
        let log = [ComplicationRecord(at: Fixture.epoch, day: "2026-03-07", transfer: Self.transfer(1, position: 1), remaining: 1, delivered: .complication),
                   ComplicationRecord(at: Fixture.epoch, day: "2026-03-08", transfer: Self.transfer(2, position: 2), remaining: 1, delivered: .complication),
                   ComplicationRecord(at: Fixture.epoch, day: "2026-03-07", transfer: Self.transfer(3, position: 3), remaining: 0, delivered: .complication),
                   ComplicationRecord(at: Fixture.epoch, day: "2026-03-07", transfer: Self.transfer(4, position: 4), remaining: 0, delivered: .userInfo)]
        let read = ComplicationRecord.budget(daily: 2, from: log)
        #expect(read.remaining(on: "2026-03-07") == 0 && read.remaining(on: "2026-03-08") == 1 && read.remaining(on: "2026-03-09") == 2)
    }

    @Test("The app in front reloads its complications from its own standings without spending the budget; leaving the screen is a reload too, as old as the standings it shows")
    func appReloadsForFree() {
        var state = Fixture.state()
        #expect(state.complication?.content.name == "Jake" && state.complication?.content.position == 1)
        _ = WatchMachine.reduce(&state, .pushed(Fixture.snapshot(sequence: 2, standings: [Fixture.standing("Mike", 1, -3), Fixture.standing("Jake", 2, -2)])),
                                Fixture.env(5))
        #expect(state.complication?.content.name == "Mike")
        _ = WatchMachine.reduce(&state, .app(foreground: false), Fixture.env(30))
        // The standings came at 5 s: the face is 25 s old, not "updated just now".
        #expect(state.complication?.refreshedAt == Fixture.env(5).now)
        let face = WatchLayout.displayList(state, now: Fixture.env(30).now, size: .mm45, measurer: .estimate)
        #expect(face.containsText("Updated 25s ago"), "\(face.texts)")
        #expect(state.complicationBudget.used.isEmpty)
        // In the background, standings alone do not touch the face (only a transfer does).
        _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot(sequence: 3, standings: [Fixture.standing("Jake", 1, -4)])), Fixture.env(40))
        #expect(state.complication?.content.name == "Mike")
    }
}

extension WatchMachineTests {
    @Test("At the round's end the wearer hears and sees their own result first, and the final list shows their row")
    func wearerFinishes() {
        let standings = ["Jake", "Mike", "Sarah", "Amy", "Bo", "Cy"].enumerated().map { Fixture.standing($0.element, $0.offset + 1, $0.offset - 2) }
        var state = WatchState(deviceID: "watch-cy", wearerName: "Cy")
        _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot(standings: standings)), Fixture.env())
        let effects = WatchMachine.reduce(&state, .pushed(StandingsSnapshot(hubID: "hub", sequence: 2, lastUpdatedAt: Fixture.epoch, round: nil)), Fixture.env(1))
        #expect(effects.contains(.announce("Round finished on Willow Creek. You finished sixth at plus three. Final standings. First, Jake, minus two. Second, Mike, minus one. Third, Sarah, even. Fourth, Amy, plus one. Fifth, Bo, plus two. Sixth, Cy, plus three.")))
        #expect(state.screenName == "final" && state.scrollRow + WatchLayout.visibleRows(size: .mm45) >= 6, "Cy's row (the 6th) is on screen")
        let face = WatchLayout.displayList(state, now: Fixture.env(1).now, size: .mm45, measurer: .estimate)
        #expect(face.containsText("You: 6th · +3") && face.containsText("Cy"), "\(face.texts)")
        // Scrolled, the position shows by the scroll bar alone: the footer band keeps the result.
        _ = WatchMachine.reduce(&state, .crown(detents: 2), Fixture.env(3))
        let scrolled = WatchLayout.displayList(state, now: Fixture.env(3).now, size: .mm45, measurer: .estimate)
        #expect(scrolled.containsText("You: 6th · +3") && !scrolled.texts.contains { $0.hasSuffix("of 6") }, "\(scrolled.texts)")
    }
}
