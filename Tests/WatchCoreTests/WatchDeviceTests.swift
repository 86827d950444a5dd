import Foundation
import HyzerKit
import HyzerHarness
import Testing
@testable import WatchCore

/// The watch as a device, through scripts and `dump`: rows per case size, chrome, scale,
/// recording, wrist down, larger text, CJK names.
@Suite("The watch as a device", .serialized)
struct WatchDeviceTests {
    static func round(_ home: TemporaryHome) async throws {
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben", "Cat", "Dan",
                                   "--guest", "Eve", "--guest", "王小明").status == 0)
        #expect(try await home.hub("score", "王小明", "2").status == 0)
        try WatchHeadlessTests.watchHasSeenThePhonesStandings(home)
    }

    static func dump(_ url: URL) throws -> AccessibilityDump {
        try JSONDecoder().decode(AccessibilityDump.self, from: Data(contentsOf: url))
    }

    @Test("Rows per size follow the spec (41 mm 3, 45 mm 4, 49 mm 4, none cut at the bottom); chrome wraps the face; --scale 2 doubles it")
    func sizes() async throws {
        let home = try TemporaryHome()
        try await Self.round(home)
        var rows: [Int: (full: Int, partial: Int)] = [:]
        for size in [41, 45, 49] {
            let script = try WatchHeadlessTests.script(home, """
                dump d\(size).json
                screenshot face\(size).png
                screenshot device\(size).png chrome
                """)
            let result = try await WatchHeadlessTests.watch(home, script: script, ["--size", "\(size)"])
            #expect(result.status == 0, "\(result.stderr.suffix(400))")
            let dump = try Self.dump(home.url.appendingPathComponent("d\(size).json"))
            let list = try #require(dump.tree.children.first { $0.role == .list })
            rows[size] = (list.children.filter { !$0.partial }.count, list.children.filter(\.partial).count)
            #expect(dump.rowsPerScreen == rows[size]?.full)
            let face = try #require(try WatchHeadlessTests.pngSize(home.url.appendingPathComponent("face\(size).png")))
            let device = try #require(try WatchHeadlessTests.pngSize(home.url.appendingPathComponent("device\(size).png")))
            let chrome = DeviceChrome(size: WatchSize(rawValue: size)!)
            #expect(face == (dump.width, dump.height))
            #expect(device == (Int(chrome.canvas.width), Int(chrome.canvas.height)))
            #expect(device.0 > face.0 && device.1 > face.1)
        }
        #expect(rows[41]?.full == 3 && rows[45]?.full == 4 && rows[49]?.full == 4)
        // The rows share the list's height: none is cut through its letters at the bottom.
        #expect(rows.values.allSatisfy { $0.partial == 0 }, "\(rows)")
        // Row labels read as VoiceOver says them.
        let d45 = try Self.dump(home.url.appendingPathComponent("d45.json"))
        #expect(d45.tree.flattened.contains { $0.role == .row && $0.label == "First, 王小明" && $0.value == "minus one" })

        let script = try WatchHeadlessTests.script(home, "screenshot big.png\n")
        #expect(try await WatchHeadlessTests.watch(home, script: script, ["--scale", "2"]).status == 0)
        #expect(try WatchHeadlessTests.pngSize(home.url.appendingPathComponent("big.png")).map { [$0.0, $0.1] } == [792, 968])
        let bad = try await CLIProcess.run("hyzer-watch", ["--home", home.path, "--headless", "--scale", "huge"])
        #expect(bad.status != 0 && bad.stderr.contains("--scale takes a factor from 0.25 to 8"))
    }

    @Test("Larger text fits fewer rows; wrist down is said in the dump and still screenshots")
    func textWristAndCJK() async throws {
        let home = try TemporaryHome()
        try await Self.round(home)
        let script = try WatchHeadlessTests.script(home, """
            screenshot normal.png
            text-size ax2
            dump large.json
            text-size l
            wrist down
            dump wrist.json
            screenshot wrist.png
            wrist up
            """)
        let result = try await WatchHeadlessTests.watch(home, script: script)
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        let large = try Self.dump(home.url.appendingPathComponent("large.json"))
        #expect(large.textSize == "ax2" && large.rowsPerScreen < 4 && large.rowsPerScreen >= 1)
        let wrist = try Self.dump(home.url.appendingPathComponent("wrist.json"))
        #expect(wrist.wristDown && wrist.tree.value == "Wrist down")
        #expect(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("wrist.png").path))
    }

    @Test("From xl up rows stack (position and score, then the whole name), on every size; the status-bar time keeps its place")
    func accessibilitySizesStack() async throws {
        let home = try TemporaryHome()
        try await Self.round(home)
        for size in [41, 45, 49] {
            let script = try WatchHeadlessTests.script(home, """
                text-size AX3
                expect-text "王小明"
                dump ax3.json
                crown -1
                expect-text "Ann"
                
                """)
            let result = try await WatchHeadlessTests.watch(home, script: script, ["--size", "\(size)"])
            #expect(result.status == 0, "\(size) mm: \(result.stderr.suffix(400))")
            let dump = try Self.dump(home.url.appendingPathComponent("ax3.json"))
            #expect(dump.rowsPerScreen >= 1)
        }
        let m = WatchMetrics(size: .mm41, textSize: .accessibility3)
        #expect(m.stackedRows && WatchMetrics(size: .mm49, textSize: .accessibility1).stackedRows && WatchMetrics(size: .mm41, textSize: .xxxLarge).stackedRows
                && WatchMetrics(size: .mm45, textSize: .xLarge).stackedRows && !WatchMetrics(size: .mm49, textSize: .large).stackedRows)
        // At xxxl on the smallest watch a long name reads (on one line beside its score it was "…").
        var xxxl = Fixture.state(Fixture.snapshot(standings: [Fixture.standing("Bartholomew Richardson", 1, 0), Fixture.standing("Mike", 2, 22)]))
        xxxl.textSize = .xxxLarge
        let name = WatchLayout.displayList(xxxl, now: Fixture.epoch, size: .mm41, measurer: .estimate).texts.first { $0.hasPrefix("B") }
        #expect((name?.count ?? 0) >= 8, "\(name ?? "no name")")
        // The status bar's time is drawn at the header's size, inside the area kept for it.
        let list = WatchLayout.displayList(Fixture.state(), now: Fixture.epoch, size: .mm41, measurer: .estimate, clock: "18:35")
        let clock = list.commands.compactMap { command -> (Rect, FontSpec)? in
            if case .text("18:35", let frame, let font, _, _) = command { (frame, font) } else { nil }
        }
        let large = WatchLayout.displayList({ var s = Fixture.state(); s.textSize = .accessibility3; return s }(), now: Fixture.epoch,
                                            size: .mm41, measurer: .estimate, clock: "18:35")
        let largeClock = large.commands.compactMap { command -> FontSpec? in
            if case .text("18:35", _, let font, _, _) = command { font } else { nil }
        }
        #expect(clock.count == 1 && largeClock.count == 1 && largeClock[0].size <= clock[0].1.size * 1.4)
        // The window's T and Shift+T stop at the ends instead of wrapping round.
        #expect(TextSize.accessibility3.larger == .accessibility3 && TextSize.xSmall.smaller == .xSmall && TextSize.large.larger == .xLarge)
    }

    @Test("The ? key list shows every key and what it does whole, on the narrowest face too")
    func keyListFits() {
        for size in WatchSize.allCases {
            let texts = WindowKeys.helpOverlay(width: Double(size.width), height: Double(size.height), measurer: .estimate).compactMap { command -> String? in
                if case .text(let text, _, _, _, _) = command { text } else { nil }
            }
            #expect(texts == WindowKeys.all.flatMap { [$0.keys, $0.action] }, "\(size.rawValue) mm: \(texts.filter { $0.hasSuffix("…") })")
        }
    }

    @Test("A script that ends while recording still writes its recording; dump says crown and side button are null without chrome")
    func recordingEndsWithScript() async throws {
        let home = try TemporaryHome()
        try await Self.round(home)
        let script = try WatchHeadlessTests.script(home, """
            record start unfinished.png
            wait 500ms
            dump plain.json
            """)
        let result = try await WatchHeadlessTests.watch(home, script: script, ["--log-level", "info"])
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("the script ended while recording (no record stop): recording saved"))
        let delays = try AnimatedPNG.frameDelays(Data(contentsOf: home.url.appendingPathComponent("unfinished.png")))
        #expect(delays.reduce(0, +) > 0.4)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: home.url.appendingPathComponent("plain.json"))) as? [String: Any]
        let window = try #require(json?["window"] as? [String: Any])
        #expect(window["crown"] is NSNull && window["sideButton"] is NSNull && window["chrome"] as? Bool == false)
    }

    @Test("Wrist down every colour dims to about half (text no further than 4.5:1) and no banner, arrows or scroll indicator show")
    func wristDownDims() {
        var state = Fixture.state()
        _ = WatchMachine.reduce(&state, .wrist(up: false), Fixture.env())
        #expect(state.wristDown)
        let up = WatchLayout.displayList(Fixture.state(), now: Fixture.epoch, size: .mm45, measurer: .estimate)
        let down = WatchLayout.displayList(state, now: Fixture.epoch, size: .mm45, measurer: .estimate)
        func textColors(_ list: DisplayList) -> [RGBA] {
            list.commands.compactMap { if case .text(_, _, _, let color, _) = $0 { color } else { nil } }
        }
        #expect(textColors(down) == textColors(up).map { HyzerColor.dimmedText($0, on: down.background) })
        #expect(textColors(down).allSatisfy { $0.luminance < 0.5 })
        // Dimmed, text that read at 4.5:1 still does: a glance at the scores with the wrist down.
        for (before, after) in zip(textColors(up), textColors(down)) where HyzerColor.contrast(before) >= 4.5 {
            #expect(HyzerColor.contrast(after, on: down.background) >= 4.5, "\(before) → \(after)")
        }
        var stale = state
        _ = WatchMachine.reduce(&stale, .reachability(false), Fixture.env())
        let staleDown = WatchLayout.displayList(stale, now: Fixture.epoch.addingTimeInterval(600), size: .mm45, measurer: .estimate)
        #expect(textColors(staleDown).allSatisfy { HyzerColor.contrast($0, on: staleDown.background) >= 4.5 }, "stale scores with the wrist down")
        #expect(down.background == HyzerColor.dimmed(up.background), "the background dims too, so no band stays lighter")
        // The first touch wakes the face and does nothing else.
        #expect(WatchMachine.reduce(&state, .tap(Point(x: 200, y: 100)), Fixture.env()) == [])
        #expect(!state.wristDown && state.screenName == "leaderboard")
    }

    @Test("A recording of a reshuffle plays for as long as it was recorded, with a frame per change at 30 a second")
    func recording() async throws {
        let home = try TemporaryHome()
        try await Self.round(home)
        let server = try await home.serve()
        defer { server.stop() }
        let launched = ContinuousClock.now
        let watch = try await WristTests.runWatch(home, """
            wait-snapshot
            record start slide.png
            wait 3s
            record stop
            """)
        // Once the recording runs (the watch says each line as it starts it), Ben jumps to first: a reshuffle.
        #expect(await eventually(timeout: .seconds(30)) { watch.stderr.contains("line 3: wait 3s") }, "\(watch.stderr.suffix(800))")
        #expect(try await home.hub("score", "Ben", "1").status == 0)
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")
        let lived = launched.duration(to: .now) / .seconds(1)
        let delays = try AnimatedPNG.frameDelays(Data(contentsOf: home.url.appendingPathComponent("slide.png")))
        // Frames are taken on the watch's clock: the recording lasts at least the 3 s waited (less
        // a frame), never longer than the watch ran, however slowly a loaded machine ran it.
        let total = delays.reduce(0, +)
        #expect(total > 3 - 1.0 / 30 && total <= lived, "\(total) s recorded; the watch ran \(lived) s")
        // The 0.3 s slide (and its stagger) is at least 9 frames of 1/30 s.
        #expect(delays.filter { abs($0 - 1.0 / 30) < 0.002 }.count >= 9, "\(delays)")
    }
}
