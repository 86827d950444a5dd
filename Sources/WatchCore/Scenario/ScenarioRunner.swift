import Foundation
import HyzerStorage
import HyzerKit

/// What a scenario needs from the host that only it can do.
public protocol ScenarioHost: AnyObject {
    /// Process pending host events and redraw if needed, for about `seconds` (0: just once).
    func pump(for seconds: TimeInterval)
    /// Render the current frame and write it as a PNG; `chrome` nil takes what the window shows.
    func screenshot(to url: URL, chrome: Bool?) throws
    /// Start recording every frame to an animated PNG or GIF at `url`; `stopRecording` writes it.
    func startRecording(to url: URL) throws
    /// Writes the recording; returns how many frames it holds.
    func stopRecording() throws -> Int
    /// Whether a recording is under way.
    var isRecording: Bool { get }
    /// Whether the watch was asked to quit (window closed, Q, SIGTERM): waits end at once.
    var quitRequested: Bool { get }
    /// Measures text the way the face is drawn.
    var measurer: TextMeasurer { get }
    /// Where the face, crown and side button are in the window as it is now.
    var windowGeometry: WindowGeometry { get }
}

/// Runs a scenario script against a watch session, as a tester's hands would: taps land on the
/// row drawn for a name, the crown turns in detents. Stops at the first unmet expectation.
public final class ScenarioRunner {
    public let session: WatchSession
    public unowned let host: any ScenarioHost
    public let screenshotDirectory: URL
    /// How long an expectation may take to come true (the link and the file arrive asynchronously).
    public var expectationTimeout: TimeInterval = 3
    private let say: (String) -> Void

    public init(session: WatchSession, host: any ScenarioHost, screenshotDirectory: URL, say: @escaping (String) -> Void = { _ in }) {
        self.session = session
        self.host = host
        self.screenshotDirectory = screenshotDirectory
        self.say = say
    }

    public func run(_ lines: [ScenarioLine]) throws(ScenarioError) {
        // A script that ends (or fails, or quits) while recording still gets its recording.
        defer { finishRecording() }
        for line in lines {
            say("line \(line.number): \(line.text)")
            if case .quit = line.command { return }
            try execute(line)
            host.pump(for: 0)
        }
    }

    /// One line from `hyzer-watch ctl`, run as a script's line would be: "ok", or "error: …"
    /// saying what went wrong (a line it cannot read, an expectation not met within `timeout`).
    public func perform(_ text: String, timeout: TimeInterval? = nil) -> String {
        let lines: [ScenarioLine]
        do {
            lines = try ScenarioScript.parse(text)
        } catch {
            return "error: \(Self.withoutLineNumber(error.description))"
        }
        guard let line = lines.first, lines.count == 1 else { return "error: send one command (a scenario-script line); got \(lines.count)" }
        let kept = expectationTimeout
        defer { expectationTimeout = kept }
        if let timeout { expectationTimeout = timeout }
        say("control: \(line.text)")
        do {
            try execute(line)
        } catch {
            return "error: \(Self.withoutLineNumber(error.description))"
        }
        host.pump(for: 0)
        return "ok"
    }

    /// A control request is one line: "line 1: " says nothing.
    private static func withoutLineNumber(_ text: String) -> String {
        text.hasPrefix("line 1: ") ? String(text.dropFirst(8)) : text
    }

    private func holds(_ condition: WaitCondition) -> Bool {
        let state = session.current
        return switch condition {
        case .stale(let stale): state.isStale(at: session.now()) == stale
        case .reachable(let reachable): state.linkKnown && state.reachable == reachable
        case .screen(let name): state.screenName == name
        case .delivered(let count): state.delivered >= count
        case .pending(let count): state.pendingTransfers == count
        case .dropped(let count): state.droppedLiveMessages >= count
        case .complications(let count): state.complicationTransfers >= count
        }
    }

    private func describe(_ condition: WaitCondition) -> String {
        let state = session.current
        return switch condition {
        case .stale: "stale is \(state.isStale(at: session.now()))"
        case .reachable: state.linkKnown ? "reachable is \(state.reachable)" : "the link has not said yet"
        case .screen: "the screen is \(state.screenName)"
        case .delivered: "\(ListText.count(state.delivered, "score")) delivered"
        case .pending: "\(ListText.count(state.pendingTransfers, "score")) waiting to send"
        case .dropped: "\(ListText.count(state.droppedLiveMessages, "live message")) dropped"
        case .complications: "\(ListText.count(state.complicationTransfers, "complication transfer")) received"
        }
    }

    private func finishRecording() {
        guard host.isRecording else { return }
        do {
            say("the script ended while recording (no record stop): recording saved, \(try host.stopRecording()) frames")
        } catch {
            say("the script ended while recording, and the recording could not be saved: \(error)")
        }
    }

    private func execute(_ line: ScenarioLine) throws(ScenarioError) {
        switch line.command {
        case .waitSnapshot(let timeout):
            if !poll(timeout: timeout, { self.session.current.heardFromPhone }) {
                throw .expectationFailed(line: line.number, text: line.text, seen: "no snapshot within \(format(timeout)) (\(session.current.snapshotProblem ?? "nothing from the phone"))")
            }
        case .tap(let name):
            try tap(name, line)
        case .crown(let detents):
            for _ in 0..<abs(detents) { session.send(.crown(detents: Double(detents.signum()))) }
        case .voice(let transcript): session.send(.voice(transcript))
        case .save:
            try onScreen(["crown", "voice"], line, "there is no Save on it: tap a player first (score input), or voice \"…\"")
            if case .voice(let overlay) = session.current.screen, !overlay.canSave {
                throw .commandFailed(line: line.number, text: line.text, reason: "the voice overlay has no score ready to save: tap a row to pick who it is, back, or voice again")
            }
            session.send(.save)
        case .back:
            try onScreen(["crown", "voice", "final"], line, "there is nothing to go back from")
            session.send(.back)
        case .hole(let delta):
            try onScreen(["crown"], line, "hole moves score input to another hole: tap a player first")
            session.send(.pickHole(delta: delta))
        case .wait(let seconds): host.pump(for: seconds)
        case .advanceClock(let seconds): session.advanceClock(by: seconds)
        case .setClock(let date): session.advanceClock(by: date.timeIntervalSince(session.now()))
        case .link(let up): session.setLink(up: up)
        case .wearer(let name): session.setWearer(name)
        case .screenshot(let path, let chrome):
            try writing(path, line) { url in
                // Motion settles first (pulse, slide, arrows: under 2 s), so the same script
                // gives the same picture on every run rather than whichever frame of a slide.
                _ = poll(timeout: WatchMachine.arrivalsSettle + HapticPulse.duration + Reshuffle.settleTime + 0.1) {
                    // Standings just arrived are felt (a pulse) once arrivals settle: that too.
                    let state = self.session.current
                    return state.news == nil && !state.isMoving(at: self.session.now())
                }
                try host.screenshot(to: url, chrome: chrome)
                say("screenshot \(url.path)")
            }
        case .dump(let path):
            try writing(path, line) { url in
                try DurableFile.replace(url, with: session.accessibilityDump(measurer: host.measurer, window: host.windowGeometry).json(), durable: false)
                say("dump \(url.path)")
            }
        case .recordStart(let path):
            try writing(path, line) { url in try host.startRecording(to: url) }
        case .recordStop:
            do {
                let frames = try host.stopRecording()
                say("recording saved, \(frames) frames")
            } catch {
                throw .commandFailed(line: line.number, text: line.text, reason: "\(error)")
            }
        case .wrist(let up): session.send(.wrist(up: up))
        case .app(let foreground): session.send(.app(foreground: foreground))
        case .textSize(let size): session.send(.textSize(size))
        case .reduceMotion(let on): session.send(.reduceMotion(on))
        case .expectScreen(let name):
            try expect(line, { self.session.current.screenName == name }, seen: { "the screen is \(self.session.current.screenName)" })
        case .expectText(let text):
            try expect(line, { self.frame().containsText(text) },
                       seen: { "visible text: \(self.frame().texts.map { "\"\($0)\"" }.joined(separator: ", "))" })
        case .expectStale(let stale):
            try expect(line, { self.session.current.isStale(at: self.session.now()) == stale }, seen: {
                let age = self.session.current.age(at: self.session.now()).map { "standings are \(self.format($0)) old" } ?? "no standings yet"
                return "stale is \(!stale) (\(age))"
            })
        case .expectReachable(let reachable):
            try expect(line, { self.session.current.reachable == reachable }, seen: { "reachable is \(!reachable)" })
        case .waitFor(let condition):
            try expect(line, { self.holds(condition) }, seen: { self.describe(condition) })
        case .expectPending(let count):
            try expect(line, { self.session.current.pendingTransfers == count }, seen: { "\(self.session.current.pendingTransfers) scores waiting to send" })
        case .expectComplicationBudget(let count):
            let left = { self.session.current.complicationBudget.remaining(on: ComplicationBudget.day(of: self.session.now())) }
            try expect(line, { left() == count }, seen: { "\(left()) complication transfers left today" })
        case .expectHaptics(let count, let kind):
            try expect(line, { self.session.hapticCount(kind) == count }, seen: { "\(self.session.hapticCount(kind)) \(kind.rawValue) haptics logged" })
        case .quit:
            break
        }
    }

    /// A command for a control the screen does not show fails, naming the screen: a script whose
    /// `tap` missed must not go on as if its `save` had saved (it printed "ok" and did nothing).
    private func onScreen(_ screens: Set<String>, _ line: ScenarioLine, _ reason: String) throws(ScenarioError) {
        let shown = session.current.screenName
        guard !screens.contains(shown) else { return }
        throw .commandFailed(line: line.number, text: line.text, reason: "the screen is \(shown): \(reason)")
    }

    private func tap(_ name: String, _ line: ScenarioLine) throws(ScenarioError) {
        let state = session.current
        if state.appInBackground {
            // The watch face: its complications by family; a tap on one opens the app.
            let slots = WatchLayout.complicationSlots(state.metrics(session.configuration.size))
            guard let slot = slots.first(where: { $0.family == name.lowercased() }) else {
                throw .commandFailed(line: line.number, text: line.text,
                                     reason: "the watch face shows (the app is in the background): tap one of its complications (\(ListText.joined(slots.map(\.family), conjunction: "or"))) or app foreground")
            }
            if state.wristDown { session.send(.wrist(up: true)) }
            session.send(.tap(slot.frame.center))
            return
        }
        if case .voice(let overlay) = state.screen {
            // On the voice overlay: the row for that player, or for what was heard.
            // "Sarah?" as the face shows an unsure row is that row too.
            var wanted = name.lowercased()
            while wanted.hasSuffix("?") { wanted.removeLast() }
            if state.wristDown { session.send(.wrist(up: true)) }
            func names(_ row: VoiceOverlay.Row) -> [String] {
                ([row.player?.name, row.heard] + row.candidates.map(\.name)).compactMap { $0?.lowercased() }
            }
            guard let index = overlay.rows.firstIndex(where: { names($0).contains(wanted) })
                ?? overlay.rows.firstIndex(where: { names($0).contains { $0.hasPrefix(wanted) } }) else {
                throw .commandFailed(line: line.number, text: line.text, reason: "no voice row named \(name); rows: \(overlay.rows.map { $0.player?.name ?? "\($0.heard)?" }.joined(separator: ", "))")
            }
            // A row scrolled off (more rows than fit) is brought on screen with the crown first.
            let size = session.configuration.size
            let shown = WatchLayout.voiceRowsShown(of: overlay.rows.count, size: size, textSize: state.textSize)
            if index < overlay.firstRow { session.send(.crown(detents: Double(overlay.firstRow - index))) }
            if index >= overlay.firstRow + shown { session.send(.crown(detents: -Double(index - overlay.firstRow - shown + 1))) }
            guard case .voice(let now) = session.current.screen else { return }
            session.send(.tap(WatchLayout.voiceRowFrame(index, of: now.rows.count, firstRow: now.firstRow, size: size, textSize: state.textSize).center))
            return
        }
        guard let standings = state.round?.standings else {
            throw .commandFailed(line: line.number, text: line.text, reason: "there is no leaderboard to tap (screen: \(state.screenName))")
        }
        guard let index = standings.firstIndex(where: { $0.name.lowercased() == name.lowercased() })
            ?? standings.firstIndex(where: { $0.name.lowercased().hasPrefix(name.lowercased()) }) else {
            throw .commandFailed(line: line.number, text: line.text, reason: "no row named \(name); rows: \(standings.map(\.name).joined(separator: ", "))")
        }
        // Scroll until the row is wholly on screen, as a wearer would with the crown.
        if state.wristDown { session.send(.wrist(up: true)) }
        session.send(.scrollTo(row: index))
        let now = session.current
        let slot = index - now.scrollRow
        session.send(.tap(WatchLayout.rowFrame(slot: Double(slot), size: session.configuration.size, textSize: now.textSize).center))
    }

    private func expect(_ line: ScenarioLine, _ condition: @escaping () -> Bool, seen: () -> String) throws(ScenarioError) {
        if !poll(timeout: expectationTimeout, condition) {
            throw .expectationFailed(line: line.number, text: line.text, seen: seen())
        }
    }

    /// Pumps the host until `condition` holds or `timeout` passes.
    private func poll(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while true {
            if condition() { return true }
            if ContinuousClock.now >= deadline || host.quitRequested { return false }
            host.pump(for: 0.02)
        }
    }

    /// Runs `write` for the script's file `path` (relative to the screenshot directory), its
    /// directory made first; a failure fails the line, naming the file.
    private func writing(_ path: String, _ line: ScenarioLine, _ write: (URL) throws -> Void) throws(ScenarioError) {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : screenshotDirectory.appendingPathComponent(path)
        do {
            try DurableFile.makeDirectory(url.deletingLastPathComponent())
            try write(url)
        } catch {
            // The storage errors name the file or folder themselves.
            let reason = error is DurableFileError ? "\(error)" : "could not write \(url.path): \(error)"
            throw .commandFailed(line: line.number, text: line.text, reason: reason)
        }
    }

    private func frame() -> DisplayList { session.frame(measurer: host.measurer) }

    private func format(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int(seconds * 1000))ms" : seconds < 120 ? "\(Int(seconds))s" : "\(Int(seconds / 60))m"
    }
}
