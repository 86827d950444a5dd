import Foundation
import HyzerKit
import HyzerHarness
import Testing
@testable import WatchCore

/// The real window under Xvfb, driven by a mouse and keyboard through xdotool, as a user (or an
/// outside test) drives it: a click on a row, the wheel, a drag along the drawn crown, the side
/// button, Enter. `tools/test` installs Xvfb and xdotool; without them these tests say so and pass.
@Suite("The watch window driven by a mouse", .serialized)
struct WatchWindowTests {
    /// Xvfb on a display it picks itself (`-displayfd`), gone when the value is.
    final class VirtualDisplay: Sendable {
        let server: RunningProcess
        let name: String

        init() async throws {
            server = try await RunningProcess(path: try Self.tool("Xvfb"), ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
            guard await server.waitForLine(timeout: .seconds(20), { Int($0) != nil }), let number = server.lines.first(where: { Int($0) != nil }) else {
                throw TestFailure("Xvfb did not start: \(server.stderr.suffix(400))")
            }
            name = ":\(number)"
        }

        deinit { server.stop() }

        /// Runs xdotool on this display (for at most 20 s); its stdout.
        @discardableResult
        func xdotool(_ arguments: String...) async throws -> String {
            let result = try await CLIProcess.runTool(try Self.tool("timeout"), ["20", try Self.tool("xdotool")] + arguments, environment: ["DISPLAY": name])
            guard result.status == 0 else { throw TestFailure("xdotool \(arguments.joined(separator: " ")): \(result.stderr)") }
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        static func tool(_ name: String) throws -> String {
            for directory in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
            throw TestFailure("\(name) is not installed")
        }

        static var available: Bool { (try? tool("Xvfb")) != nil && (try? tool("xdotool")) != nil && (try? tool("timeout")) != nil }

        /// The watch's window, found by its class (SDL types WM_NAME in the locale's encoding, which
        /// `xdotool search --name` cannot read; the title itself is in _NET_WM_NAME).
        func watchWindow(while watch: RunningProcess) async throws -> String {
            var found = ""
            // Generous: with the whole suite running on two cores, a window has taken over 30 s to show.
            var searches = 0
            let pid = watch.processIdentifier.map(String.init) ?? "0"
            _ = await eventually(timeout: .seconds(90)) {
                searches += 1
                // By class, else by the process's own windows (_NET_WM_PID): a second way to the
                // same window, should the class not be readable yet.
                found = (try? await self.xdotool("search", "--onlyvisible", "--class", "hyzer-watch")) ?? ""
                if found.isEmpty { found = (try? await self.xdotool("search", "--onlyvisible", "--pid", pid)) ?? "" }
                return !found.isEmpty || !watch.isRunning
            }
            guard let window = found.split(separator: "\n").first else {
                // What the display holds, for the failure's message.
                let any = (try? await self.xdotool("search", "--class", "hyzer-watch")) ?? "none"
                let byPID = (try? await self.xdotool("search", "--pid", pid)) ?? "none"
                throw TestFailure("no hyzer-watch window appeared after \(searches) searches (the watch \(watch.isRunning ? "still runs" : "ended"); "
                                  + "windows of that class, visible or not: \(any); of its pid: \(byPID)): \(watch.stderr)")
            }
            return String(window)
        }
    }

    /// A round of four on Maple Hill served from a new home, and hyzer-watch in a window on a new
    /// display running `script` there (its dumps and screenshots go to the home).
    static func windowedWatch(script: String, environment extra: [String: String?] = [:])
        async throws -> (home: TemporaryHome, server: RunningProcess, display: VirtualDisplay, watch: RunningProcess) {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben", "Cat", "Dan").status == 0)
        let server = try await home.serve()
        let display = try await VirtualDisplay()
        let file = try WatchHeadlessTests.script(home, script)
        let environment = ["DISPLAY": display.name, "HYZER_HOME": nil, "SDL_VIDEODRIVER": nil].merging(extra) { _, new in new }
        let watch = try await RunningProcess(
            path: CLIProcess.productsDirectory.appendingPathComponent("hyzer-watch").path,
            // As long as the window search waits (90 s): a script that gave up at 20 s while the
            // window was still not found ended the watch, and with it the search (CI, stop 45).
            ["--home", home.path, "--script", file, "--screenshot-dir", home.path, "--log-level", "info", "--expect-timeout", "90"],
            environment: environment)
        return (home, server, display, watch)
    }

    /// `windowedWatch`, once its window shows, and the window. A watch whose window never showed
    /// (a few times in fresh clones' runs under load: it drew its first frame and ran its script,
    /// and no window of its class or pid was on the display) is recorded as a known intermittent
    /// issue, with its threads' stacks when gdb is installed, and started once more: a second
    /// start with no window fails the test. One way to that: SDL, finding no display at the start,
    /// falls back to drawing offscreen; the watch now ends saying so (`WristTests.noDisplayNoWindow`),
    /// and its message shows here if that was the cause.
    static func shownWatch(script: String, environment extra: [String: String?] = [:]) async throws
        -> (home: TemporaryHome, server: RunningProcess, display: VirtualDisplay, watch: RunningProcess, window: String) {
        let first = try await windowedWatch(script: script, environment: extra)
        do {
            return (first.home, first.server, first.display, first.watch, try await first.display.watchWindow(while: first.watch))
        } catch let failure as TestFailure {
            let stacks = await threadStacks(of: first.watch)
            first.watch.stop()
            first.server.stop()
            withKnownIssue("the watch's window did not show; started once more", isIntermittent: true) {
                throw TestFailure("\(failure)\n\(stacks)")
            }
        }
        let second = try await windowedWatch(script: script, environment: extra)
        return (second.home, second.server, second.display, second.watch, try await second.display.watchWindow(while: second.watch))
    }

    /// Where each thread of a running process is (gdb), for a failure's message.
    static func threadStacks(of process: RunningProcess) async -> String {
        guard let pid = process.processIdentifier, let gdb = try? VirtualDisplay.tool("gdb") else { return "(no stacks: gdb is not installed)" }
        let result = try? await CLIProcess.runTool(try VirtualDisplay.tool("timeout"), ["30", gdb, "-p", "\(pid)", "-batch", "-ex", "thread apply all bt 20"])
        return result.map { $0.stdout.split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread") }.joined(separator: "\n") } ?? "(gdb failed)"
    }

    /// Where the centre of `frame` (face pixels, as the dump has it) is in the window, for xdotool.
    static func windowPoint(_ frame: Rect, _ dump: AccessibilityDump) -> (String, String) {
        let center = frame.center
        return ("\(Int(dump.window.display.x + center.x * dump.window.faceScale))", "\(Int(dump.window.display.y + center.y * dump.window.faceScale))")
    }

    /// Whether the watch's script has passed line `line` (it logs each line as it starts it).
    static func passed(_ line: Int, _ watch: RunningProcess) async -> Bool {
        _ = await eventually(timeout: .seconds(30)) { watch.stderr.contains("line \(line + 1):") || !watch.isRunning }
        return watch.stderr.contains("line \(line + 1):")
    }

    @Test("A click on a row, the wheel, a drag along the crown, the side button and Enter score from the real window; the title reads right with LANG unset",
          .enabled(if: VirtualDisplay.available, "Xvfb and xdotool are not installed (tools/test installs them)"))
    func mouseDrivesTheWindow() async throws {
        // The script checks each step on the watch's side; the test moves to the next step only
        // once the script has passed the line before it.
        let (home, server, display, watch, window) = try await Self.shownWatch(script: """
            wait-snapshot
            dump layout.json
            expect-screen crown
            expect-text "Ben"
            expect-haptics 2 tick
            expect-haptics 4 tick
            expect-screen leaderboard
            expect-screen crown
            expect-haptics 7 tick
            expect-screen leaderboard
            expect-text "Ben"
            expect-haptics 1 success
            expect-text "+3"
            dump end.json
            """, environment: ["LANG": nil, "LC_ALL": nil, "LC_CTYPE": nil])
        defer { server.stop() }
        defer { watch.stop() }
        func passed(_ line: Int) async -> Bool { await Self.passed(line, watch) }
        #expect(try await display.xdotool("getwindowname", window) == "Hyzer — 45 mm", "the UTF-8 title survives LANG unset")
        #expect(await passed(2), "\(watch.stderr.suffix(600))")
        let layout = try JSONDecoder().decode(AccessibilityDump.self, from: Data(contentsOf: home.url.appendingPathComponent("layout.json")))
        #expect(layout.window.chrome && Int(layout.window.width) == Int(DeviceChrome(size: .mm45).canvas.width))
        let crown = try #require(layout.window.crown), side = try #require(layout.window.sideButton)
        let ben = try #require(layout.tree.flattened.first { $0.role == .row && $0.label.hasSuffix("Ben") })
        let (benX, benY) = Self.windowPoint(ben.frame, layout)
        let (crownX, crownY) = ("\(Int(crown.center.x))", "\(Int(crown.center.y))")

        // A click on Ben's row opens score input at par (Maple Hill's hole 1 is a par 3).
        try await display.xdotool("mousemove", "--window", window, benX, benY, "click", "1")
        #expect(await passed(4), "\(watch.stderr.suffix(600))")
        // Two wheel notches up over the face: 5.
        try await display.xdotool("click", "--repeat", "2", "--delay", "60", "4")
        #expect(await passed(5), "\(watch.stderr.suffix(600))")
        // Dragging the drawn crown up by two detents (14 px each): 7.
        // (One xdotool call a step: a chained `mousemove --window` after `mousedown` is refused with BadWindow.)
        try await display.xdotool("mousemove", "--window", window, crownX, crownY)
        try await display.xdotool("mousedown", "1")
        try await display.xdotool("mousemove", "--window", window, crownX, "\(Int(crown.center.y) - 10)")
        try await display.xdotool("mousemove", "--window", window, crownX, "\(Int(crown.center.y) - 30)")
        try await display.xdotool("mouseup", "1")
        #expect(await passed(6), "\(watch.stderr.suffix(600))")
        // The side button is Back: nothing is recorded.
        let (sideX, sideY) = ("\(Int(side.center.x))", "\(Int(side.center.y))")
        try await display.xdotool("mousemove", "--window", window, sideX, sideY, "click", "1")
        #expect(await passed(7), "\(watch.stderr.suffix(600))")
        #expect(try await WristTests.events(home).isEmpty)
        // Again the row (par again: Back kept nothing), three notches of the wheel over the drawn
        // crown: 6; Enter saves.
        try await display.xdotool("mousemove", "--window", window, benX, benY, "click", "1")
        #expect(await passed(8), "\(watch.stderr.suffix(600))")
        try await display.xdotool("mousemove", "--window", window, crownX, crownY, "click", "--repeat", "3", "--delay", "60", "4")
        #expect(await passed(9), "\(watch.stderr.suffix(600))")
        try await display.xdotool("key", "Return")
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")

        let events = try await WristTests.events(home)
        #expect(events.map(\.strokes) == [6] && events.map(\.source) == [.crown])
        let haptics = try WristTests.jsonLines(home.url.appendingPathComponent("watch/haptics.jsonl"))
        let ticks = haptics.filter { $0["kind"] as? String == "tick" }.compactMap { $0["value"] as? Int }
        #expect(ticks == [4, 5, 6, 7, 4, 5, 6], "wheel, drag, wheel over the crown")
        #expect(haptics.filter { $0["kind"] as? String == "success" }.count == 1)
        let end = try JSONDecoder().decode(AccessibilityDump.self, from: Data(contentsOf: home.url.appendingPathComponent("end.json")))
        // The push comes just before the ack, so the row may still say its score is waiting to send.
        #expect(end.tree.flattened.contains { $0.role == .row && $0.label.hasSuffix("Ben") && ($0.value ?? "").hasPrefix("plus three") })
    }

    @Test("The key list (?) is a sheet: the click that closes it opens no row under it, and Enter then saves nothing",
          .enabled(if: VirtualDisplay.available, "Xvfb and xdotool are not installed (tools/test installs them)"))
    func keyListTakesTheNextInput() async throws {
        let (home, server, display, watch, window) = try await Self.shownWatch(script: """
            wait-snapshot
            dump board.json
            expect-screen crown
            expect-screen leaderboard
            """)
        defer { server.stop() }
        defer { watch.stop() }
        #expect(await Self.passed(2, watch), "\(watch.stderr.suffix(600))")
        let board = try JSONDecoder().decode(AccessibilityDump.self, from: Data(contentsOf: home.url.appendingPathComponent("board.json")))
        let ann = try #require(board.tree.flattened.first { $0.role == .row && $0.label.hasSuffix("Ann") })
        let (annX, annY) = Self.windowPoint(ann.frame, board)
        // The list shown, a click on Ann's row under it (closes it only), Enter (nothing to save
        // on the leaderboard), then a click that opens her row and Esc back: nothing recorded.
        // (A watch whose click went through has saved and quit by the second click: `try?`, so the
        // test says what was recorded rather than that the window is gone.)
        try await display.xdotool("key", "question")
        try await display.xdotool("mousemove", "--window", window, annX, annY, "click", "1")
        try await display.xdotool("key", "Return")
        _ = try? await display.xdotool("mousemove", "--window", window, annX, annY, "click", "1")
        #expect(await Self.passed(3, watch), "\(watch.stderr.suffix(600))")
        _ = try? await display.xdotool("key", "Escape")
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")
        #expect(try await WristTests.events(home).isEmpty, "the click that closed the key list opened a row, and Enter saved it")
    }

    @Test("A double click on Save saves once and leaves the leaderboard: its second click does not open the row under Save",
          .enabled(if: VirtualDisplay.available, "Xvfb and xdotool are not installed (tools/test installs them)"))
    func doubleClickOnSave() async throws {
        let (home, server, display, watch, window) = try await Self.shownWatch(script: """
            wait-snapshot
            dump board.json
            expect-screen crown
            dump crown.json
            expect-haptics 1 success
            wait 1s
            expect-screen leaderboard
            expect-haptics 1 success
            """)
        defer { server.stop() }
        defer { watch.stop() }
        func passed(_ line: Int) async -> Bool { await Self.passed(line, watch) }
        #expect(await passed(2), "\(watch.stderr.suffix(600))")
        let board = try JSONDecoder().decode(AccessibilityDump.self, from: Data(contentsOf: home.url.appendingPathComponent("board.json")))
        let ann = try #require(board.tree.flattened.first { $0.role == .row && $0.label.hasSuffix("Ann") })
        let (annX, annY) = Self.windowPoint(ann.frame, board)
        try await display.xdotool("mousemove", "--window", window, annX, annY, "click", "1")
        #expect(await passed(4), "\(watch.stderr.suffix(600))")
        let crown = try JSONDecoder().decode(AccessibilityDump.self, from: Data(contentsOf: home.url.appendingPathComponent("crown.json")))
        let save = try #require(crown.tree.flattened.first { $0.role == .button && $0.label == "Save" })
        // A point of Save under which, once it has saved, lies a leaderboard row: a second click
        // there must not open that row.
        let point = Point(x: save.frame.center.x, y: save.frame.y + 16)
        #expect(board.tree.flattened.contains { $0.role == .row && $0.frame.contains(point) } && save.frame.contains(point),
                "Save at \(save.frame); rows at \(board.tree.flattened.filter { $0.role == .row }.map(\.frame))")
        let (saveX, saveY) = Self.windowPoint(Rect(x: point.x, y: point.y, width: 0, height: 0), crown)
        try await display.xdotool("mousemove", "--window", window, saveX, saveY, "click", "--repeat", "2", "--delay", "80", "1")
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")
        #expect(try await WristTests.events(home).map(\.strokes) == [3])
    }
}
