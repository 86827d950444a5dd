import Foundation
import HyzerKit
import Testing
@testable import WatchCore

@Suite("Watch layout")
struct WatchLayoutTests {
    static func frame(_ state: WatchState, at seconds: TimeInterval = 1, size: WatchSize = .mm45) -> DisplayList {
        WatchLayout.displayList(state, now: Fixture.epoch.addingTimeInterval(seconds), size: size, measurer: .estimate)
    }

    static func color(of text: String, in list: DisplayList) -> RGBA? {
        list.commands.compactMap { command -> RGBA? in
            if case .text(let t, _, _, let color, _) = command, t == text { return color } else { return nil }
        }.first
    }

    @Test("The leaderboard shows the hole, one row per player: position, name and score")
    func leaderboard() {
        let list = Self.frame(Fixture.state())
        #expect(list.width == 396 && list.height == 484)
        #expect(list.background == RGBA(hex: 0x0A0A0C))
        // No "No phone": the link has not said anything yet (see noPhoneOnlyOnceKnown).
        #expect(list.texts == ["1", "Jake", "-2", "2", "Mike", "-1", "3", "Sarah", "+1", "4", "Amy", "+2", "Hole 2 of 9"])
        #expect(Self.color(of: "1", in: list) == HyzerColor.accent)  // teal for first
        #expect(Self.color(of: "2", in: list) == HyzerColor.textPrimary)
    }

    @Test("No phone shows only once the link has said the phone is unreachable, never while it first connects")
    func noPhoneOnlyOnceKnown() {
        var state = Fixture.state()
        #expect(!Self.frame(state).texts.contains("No phone"))
        _ = WatchMachine.reduce(&state, .reachability(false), Fixture.env())
        #expect(Self.frame(state).texts.contains("No phone"))
        _ = WatchMachine.reduce(&state, .reachability(true), Fixture.env())
        #expect(!Self.frame(state).texts.contains("No phone"))
    }

    @Test("Each relative score has its colour", arguments: [
        (-2, 1, "underPar", "#34C759"), (0, 1, "atPar", "#F5F5F7"), (1, 1, "overPar", "#FF9F0A"), (3, 2, "overPar", "#FF9F0A"), (4, 2, "wayOver", "#FF453A"),
    ])
    func scoreColours(relative: Int, holes: Int, tone: String, hex: String) {
        #expect(ScoreTone.forRound(relativeToPar: relative, holesPlayed: holes).rawValue == tone)
        let state = Fixture.state(Fixture.snapshot(standings: [Fixture.standing("Jake", 1, relative, holes: holes)]))
        #expect(Self.color(of: ScoreFormat.relativeToPar(relative), in: Self.frame(state))?.hex == hex)
    }

    @Test("On one hole, a double bogey or worse is way over")
    func holeTones() {
        #expect([-1, 0, 1, 2, 3].map { ScoreTone.forHole(relativeToPar: $0) } == [.underPar, .atPar, .overPar, .wayOver, .wayOver])
    }

    @Test("Ties read T2; a player with no holes has no position and a dash")
    func tiesAndUnplayed() {
        let state = Fixture.state(Fixture.snapshot(standings: [
            Fixture.standing("Jake", 1, -1), Fixture.standing("Amy", 2, 0, tied: true), Fixture.standing("Mike", 2, 0, tied: true),
            Fixture.standing("Zed", nil, 0),
        ]))
        let texts = Self.frame(state).texts
        #expect(texts.prefix(11) == ["1", "Jake", "-1", "T2", "Amy", "E", "T2", "Mike", "E", "Zed", "-"])
    }

    @Test("Names stay where they are when a tie comes: the position column fits the widest tie the round can have")
    func tieKeepsNames() {
        func nameX(_ standings: [Standing], _ name: String) -> Double? {
            Self.frame(Fixture.state(Fixture.snapshot(standings: standings))).commands.compactMap { command -> Double? in
                if case .text(let t, let frame, _, _, _) = command, t == name { return frame.x } else { return nil }
            }.first
        }
        let apart = [Fixture.standing("Jake", 1, -2), Fixture.standing("Mike", 2, -1), Fixture.standing("Amy", 3, 0)]
        let tied = [Fixture.standing("Jake", 1, -2), Fixture.standing("Mike", 2, 0, tied: true), Fixture.standing("Amy", 2, 0, tied: true)]
        #expect(nameX(apart, "Mike") != nil)
        #expect(nameX(apart, "Mike") == nameX(tied, "Mike"))
        #expect(nameX(apart, "Jake") == nameX(tied, "Jake"))
    }

    @Test("The hole header is never cut: at large text it reads Hole 12/18, on the smallest watch at the largest Hole 12")
    func headerAtLargeText() throws {
        var forms: Set<String> = []
        let nine = try #require(Fixture.snapshot().round)
        let round = RoundSnapshot(id: nine.id, courseName: nine.courseName, status: .active, currentHole: 12, holeCount: 18,
                                  holes: (1...18).map { Hole(number: $0, par: 3) }, standings: nine.standings)
        let snapshot = StandingsSnapshot(hubID: "hub", sequence: 1, lastUpdatedAt: Fixture.epoch, round: round)
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                var state = Fixture.state(snapshot)
                state.textSize = textSize
                let header = Self.frame(state, size: size).texts.filter { $0.hasPrefix("Hole") }
                #expect(header.count == 1 && ["Hole 12 of 18", "Hole 12/18", "Hole 12"].contains(header.first ?? ""), "\(size) \(textSize): \(header)")
                forms.formUnion(header)
            }
        }
        #expect(forms == ["Hole 12 of 18", "Hole 12/18", "Hole 12"], "the larger sizes need each shorter form")
    }

    @Test("The watch face's complications take their shorter forms before anything is cut: only a long name is")
    func complicationForms() {
        var shortest = false
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                let texts = LayoutSweepTests.face(.watchFace, .fresh, size: size, textSize: textSize).texts
                // The wearer, Holyn Handley-Montgomery, is 2nd: "2nd · Holyn Handley-Montgomery", "2nd · Holyn", "2nd · Hol…".
                let cut = texts.filter { $0.hasSuffix("…") }
                #expect(cut.allSatisfy { $0.hasPrefix("2nd · ") && "Holyn".hasPrefix($0.dropFirst(6).dropLast()) }, "\(size) \(textSize): \(cut)")
                #expect(texts.contains { $0.hasPrefix("2nd · ") && !$0.contains("Holyn") }, "\(size) \(textSize): the inline line")
                shortest = shortest || texts.contains("Just now") || texts.contains("2nd · +1")
            }
        }
        #expect(shortest, "the largest sizes need the short forms")
    }

    @Test("A two-line banner over the last rows hides them from VoiceOver too: no row it covers is listed as on screen")
    func bannerCoversRowsForVoiceOver() {
        for size in WatchSize.allCases {
            for screen in [LayoutSweepTests.Screen.leaderboard, .final] {
                let list = LayoutSweepTests.face(screen, .refused, size: size, textSize: .standard)
                let banner = list.accessibility.children.first { $0.role == .status && $0.label.contains("round is over") }
                let rows = list.accessibility.flattened.filter { $0.role == .row }
                #expect(banner != nil && !rows.isEmpty, "\(size) \(screen)")
                guard let banner else { continue }
                #expect(rows.allSatisfy { $0.frame.y + $0.frame.height <= banner.frame.y + 0.5 },
                        "\(size) \(screen): rows \(rows.map(\.frame)) under the banner at \(banner.frame)")
            }
        }
    }

    @Test("The voice overlay's title and hole take shorter forms ('Heard', 'Hole 9') before they are cut")
    func voiceHeadingForms() {
        var forms: Set<String> = []
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                let texts = LayoutSweepTests.face(.voice, .fresh, size: size, textSize: textSize).texts
                let heading = texts.filter { $0.hasPrefix("Scores") || $0 == "Heard" || $0.hasPrefix("Hole") }
                #expect(heading.count == 2 && heading.allSatisfy { !$0.hasSuffix("…") }, "\(size) \(textSize): \(heading)")
                forms.formUnion(heading)
            }
        }
        // "Hole 9 · par 3" fits whole at every size (measured with DejaVu's own advances); the title does not.
        #expect(forms.contains("Heard"), "the largest sizes need the short title: \(forms.sorted())")
    }

    @Test("The voice overlay keeps its names readable at every size and text size: a short name whole, a long one to its first name (rows stack at large text)")
    func voiceRowNames() {
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                let texts = LayoutSweepTests.face(.voice, .fresh, size: size, textSize: textSize).texts
                #expect(texts.contains("Jake"), "\(size) \(textSize): \(texts)")
                #expect(texts.contains { $0.hasPrefix("Holyn") }, "\(size) \(textSize): \(texts)")
                // Nothing else is cut: the long name only.
                #expect(texts.filter { $0.hasSuffix("…") }.allSatisfy { "Holyn Handley-Montgomery".hasPrefix($0.dropLast()) }, "\(size) \(textSize): \(texts)")
            }
        }
    }

    @Test("Score input's number is the largest text and does not shrink from xxxl up; the name and par give way first, never below their size at l")
    func crownNumberGrows() {
        for size in WatchSize.allCases {
            var sizes: [TextSize: (name: Double, number: Double, par: Double)] = [:]
            for textSize in TextSize.allCases {
                let list = LayoutSweepTests.face(.crown, .fresh, size: size, textSize: textSize)
                let fonts = list.commands.compactMap { command -> (String, Double)? in
                    if case .text(let text, _, let font, _, _) = command { (text, font.size) } else { nil }
                }
                // The name is drawn just before the number, par just after.
                guard let at = fonts.firstIndex(where: { $0.0 == "3" }), at > 0, at + 1 < fonts.count else {
                    Issue.record("\(size) \(textSize): no number in \(fonts)")
                    continue
                }
                sizes[textSize] = (fonts[at - 1].1, fonts[at].1, fonts[at + 1].1)
                #expect(fonts[at].1 == fonts.map(\.1).max(), "\(size) \(textSize): \(fonts)")
            }
            guard let l = sizes[.large] else { continue }
            for textSize in TextSize.allCases where textSize.scale >= 1 {
                guard let here = sizes[textSize] else { continue }
                #expect(here.name >= l.name && here.par >= l.par, "\(size) \(textSize): \(here) against \(l) at l")
            }
            let large = [TextSize.xxxLarge, .accessibility1, .accessibility2, .accessibility3].compactMap { sizes[$0]?.number }
            #expect(large == large.sorted(), "\(size): the number from xxxl to ax3 is \(large)")
        }
    }

    @Test("No active round after the final standings keeps its title, the last round and the wearer's result whole at every size and text size; only the winners' line may be cut or wait")
    func noRoundAfterFinal() {
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                var state = WatchState(deviceID: "watch", wearerName: "Jake", textSize: textSize)
                let env = Fixture.env(0, size: size)
                _ = WatchMachine.reduce(&state, .reachability(true), env)
                let tied = [Fixture.standing("Alexandria Ocasio", 1, -1, tied: true), Fixture.standing("Sarah", 1, -1, tied: true),
                            Fixture.standing("Jake", 3, 1)]
                _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot(sequence: 1, standings: tied)), env)
                _ = WatchMachine.reduce(&state, .snapshot(StandingsSnapshot(hubID: "hub", sequence: 2, lastUpdatedAt: Fixture.epoch, round: nil)), env)
                _ = WatchMachine.reduce(&state, .back, Fixture.env(5, size: size))
                let list = WatchLayout.displayList(state, now: Fixture.env(6, size: size).now, size: size, measurer: .estimate)
                #expect(list.accessibility.label == "No active round", "\(size) \(textSize): \(list.accessibility.label)")
                let shown = list.texts.joined(separator: " ")
                #expect(shown.hasPrefix("No active round Last: Willow Creek"), "\(size) \(textSize): \(list.texts)")
                #expect(shown.contains("You: 3rd · +1"), "\(size) \(textSize): \(list.texts)")
                // VoiceOver hears words, not the shorthand.
                let labels = list.accessibility.flattened.map(\.label)
                #expect(labels.contains("You finished third, plus one") && labels.contains("Alexandria Ocasio and Sarah tied at minus one"), "\(labels)")
            }
        }
    }

    @Test("A name runs up to its own row's score: another player's +22 does not shorten it")
    func nameRoomIsTheRows() {
        func shown(besideScore other: Int) -> String? {
            let state = Fixture.state(Fixture.snapshot(standings: [Fixture.standing("Bartholomew Richardson", 1, 0), Fixture.standing("Mike", 2, other)]))
            return Self.frame(state, size: .mm41).texts.first { $0.hasPrefix("Bart") }
        }
        #expect(shown(besideScore: 22) == shown(besideScore: 1), "\(shown(besideScore: 22) ?? "none") / \(shown(besideScore: 1) ?? "none")")
    }

    @Test("The wearer's row is marked by an outline that stands out from the background (3:1, as a control's edge must), not by a fill alone")
    func wearerRowOutlined() {
        var state = WatchState(deviceID: "watch-mike", wearerName: "Mike")
        _ = WatchMachine.reduce(&state, .snapshot(Fixture.snapshot()), Fixture.env())
        let mike = WatchLayout.rowFrame(slot: 1, size: .mm45)
        let rings = Self.frame(state).commands.compactMap { command -> RGBA? in
            if case .ring(let rect, let color, _, _) = command, rect.y > mike.y, rect.y < mike.y + mike.height { color } else { nil }
        }
        #expect(rings.count == 1 && rings.allSatisfy { HyzerColor.contrast($0) >= 3 }, "\(rings)")
        #expect(HyzerColor.contrast(HyzerColor.elevated) < 3, "the fill alone would not do")
    }

    @Test("Two players sharing a long first name stay apart when cut: the first name is cut and the last initial kept, in the rows and on score input")
    func sharedLongFirstNames() {
        let state = Fixture.state(Fixture.snapshot(standings: [Fixture.standing("Alexandria Montgomery", 1, 0), Fixture.standing("Alexandria Oberholzer", 2, 1),
                                                               Fixture.standing("Christopher Lindqvist", 3, 2), Fixture.standing("Christopher Vasquez", 4, 3)]))
        for size in WatchSize.allCases {
            var large = state
            large.textSize = .xxxLarge
            let names = Self.frame(large, size: size).texts.filter { $0.hasPrefix("Alex") || $0.hasPrefix("Chris") }
            let visible = min(4, WatchLayout.visibleRows(size: size, textSize: .xxxLarge))
            #expect(names.count == visible && Set(names).count == visible, "\(size): \(names)")
            #expect(names.allSatisfy { $0.hasSuffix(" M.") || $0.hasSuffix(" O.") || $0.hasSuffix(" L.") || $0.hasSuffix(" V.") || !$0.contains("…") }, "\(size): \(names)")
        }
        var input = state
        _ = Fixture.tapRow(1, &input)
        let title = WatchLayout.displayList(input, now: Fixture.epoch, size: .mm41, measurer: .estimate).texts.first { $0.hasPrefix("Alex") }
        #expect(title == "Alexandria Oberholzer" || title?.hasSuffix(" O.") == true, "\(title ?? "none")")
    }

    @Test("A long name shows its short form (the first name; with the last initial where two share it) before it is cut, and is cut to fit its row when even that does not fit")
    func truncation() {
        let state = Fixture.state(Fixture.snapshot(standings: [Fixture.standing("Bartholomew Fitzgerald-Higginbotham", 1, 0),
                                                               Fixture.standing("Sam Kowalczyk-Abernathy", 2, 1), Fixture.standing("Sam Lee", 3, 2)]))
        let texts = Self.frame(state).texts
        #expect(texts.contains("Bartholomew") && texts.contains("Sam K.") && texts.contains("Sam Lee"), "\(texts)")
        let long = Fixture.state(Fixture.snapshot(standings: [Fixture.standing("Bartholomewfitzgeraldhigginbotham Jones", 1, 0)]))
        let name = Self.frame(long, size: .mm41).texts[1]
        #expect(name.hasSuffix("…") && name.hasPrefix("Barthol"), "\(name)")
        #expect(TextMeasurer.estimate.width(name, FontSpec(.sansBold, 34)) < 352 - 24 * 2 - 60)
    }

    @Test("No active round, and before any standings, say so")
    func noRound() {
        var state = WatchState(deviceID: "w")
        #expect(state.screenName == "no-round")
        #expect(Self.frame(state).texts.prefix(2) == ["No standings yet", "Waiting for the phone"])
        _ = WatchMachine.reduce(&state, .snapshot(StandingsSnapshot(hubID: "h", sequence: 3, lastUpdatedAt: Fixture.epoch, round: nil)), Fixture.env())
        #expect(state.screenName == "no-round")
        #expect(Self.frame(state).texts.prefix(2) == ["No active round", "Start one on the phone"])
    }

    @Test("Crown input shows the name, the value in score colour, the par and Save")
    func crownScreen() {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: -1), Fixture.env())
        let list = Self.frame(state, at: 5)
        #expect(list.texts == ["Hole 2", "Jake", "2", "Par 3", "-1", "Save"])
        #expect(Self.color(of: "2", in: list) == HyzerColor.underPar)
        #expect(WatchLayout.saveButton(size: .mm45).contains(Point(x: 198, y: 420)))
    }

    @Test("A discrepancy is marked on the player's row")
    func discrepancyMarker() {
        let state = Fixture.state(Fixture.snapshot(standings: [Fixture.standing("Jake", 1, 0, discrepancy: true)]))
        #expect(Self.frame(state).texts.prefix(4) == ["1", "Jake", "!", "E"])
    }

    @Test("The 41 and 49 mm faces have their own sizes")
    func sizes() {
        #expect(Self.frame(Fixture.state(), size: .mm41).width == 352)
        #expect(Self.frame(Fixture.state(), size: .mm49).height == 502)
    }

    @Test("A haptic shows as a fading ring for a quarter second")
    func pulse() {
        var state = Fixture.state()
        _ = Fixture.tapRow(0, &state)
        _ = WatchMachine.reduce(&state, .crown(detents: 1), Fixture.env(10))
        let rings = { (t: TimeInterval) in Self.frame(state, at: t).commands.filter { if case .ring = $0 { true } else { false } }.count }
        #expect(rings(10.1) == 1)
        #expect(rings(10.3) == 0)
    }
}

extension WatchLayoutTests {
    @Test("The watch face at every size and text size: the time, the date and the four complications inside the face, none over another")
    func watchFaceFits() {
        for size in WatchSize.allCases {
            for textSize in TextSize.allCases {
                let m = WatchMetrics(size: size, textSize: textSize)
                let slots = WatchLayout.watchFaceSlots(m)
                let frames = [("inline", slots.inline), ("time", slots.time), ("rectangular", slots.rectangular), ("corner", slots.corner),
                              ("circular", slots.circular)] + (slots.date.map { [("date", $0)] } ?? [])
                let face = Rect(x: 0, y: 0, width: m.width, height: m.height)
                for (name, frame) in frames {
                    #expect(frame.clipped(to: face) == frame && frame.height > 0, "\(size) \(textSize): \(name) \(frame) leaves the face")
                }
                for (i, a) in frames.enumerated() {
                    for b in frames[(i + 1)...] where a.1.clipped(to: b.1).height > 0 && a.1.clipped(to: b.1).width > 0 {
                        Issue.record("\(size) \(textSize): \(a.0) \(a.1) overlaps \(b.0) \(b.1)")
                    }
                }
                #expect(slots.circular.width >= m.height * 0.15 - 1, "\(size) \(textSize): the circular complication is \(slots.circular.width) px")
            }
        }
    }
}
