import Foundation
import HyzerKit

/// What a scenario needs from the host that only it can do.
public protocol ScenarioHost: AnyObject {
    /// Process pending host events and redraw if needed, for about `seconds` (0: just once).
    func pump(for seconds: TimeInterval)
    /// Render the current frame and write it as a PNG.
    func screenshot(to url: URL) throws
    /// Measures text the way the face is drawn.
    var measurer: TextMeasurer { get }
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
        for line in lines {
            say("line \(line.number): \(line.text)")
            if case .quit = line.command { return }
            try execute(line)
            host.pump(for: 0)
        }
    }

    private func execute(_ line: ScenarioLine) throws(ScenarioError) {
        switch line.command {
        case .waitSnapshot(let timeout):
            if !poll(timeout: timeout, { self.session.current.snapshot != nil }) {
                throw .expectationFailed(line: line.number, text: line.text, seen: "no snapshot within \(format(timeout)) (\(session.current.snapshotProblem ?? "nothing from the phone"))")
            }
        case .tap(let name):
            try tap(name, line)
        case .crown(let detents):
            for _ in 0..<abs(detents) { session.send(.crown(detents: Double(detents.signum()))) }
        case .voice(let transcript): session.send(.voice(transcript))
        case .save: session.send(.save)
        case .back: session.send(.back)
        case .wait(let seconds): host.pump(for: seconds)
        case .advanceClock(let seconds): session.advanceClock(by: seconds)
        case .link(let up): session.setLink(up: up)
        case .wearer(let name): session.setWearer(name)
        case .screenshot(let path):
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : screenshotDirectory.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Motion settles first (pulse, slide, arrows: at most 1.5 s), so the same script
                // gives the same picture on every run rather than whichever frame of a slide.
                _ = poll(timeout: Reshuffle.arrowDuration + 0.1) { !self.session.current.isMoving(at: self.session.now()) }
                try host.screenshot(to: url)
                say("screenshot \(url.path)")
            } catch {
                throw .commandFailed(line: line.number, text: line.text, reason: "could not write \(url.path): \(error)")
            }
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
        case .expectHaptics(let count, let kind):
            try expect(line, { self.session.hapticCount(kind) == count }, seen: { "\(self.session.hapticCount(kind)) \(kind.rawValue) haptics logged" })
        case .quit:
            break
        }
    }

    private func tap(_ name: String, _ line: ScenarioLine) throws(ScenarioError) {
        let state = session.current
        if case .voice(let overlay) = state.screen {
            // On the voice overlay: the row for that player, or for what was heard.
            let wanted = name.lowercased()
            func names(_ row: VoiceOverlay.Row) -> [String] {
                ([row.player?.name, row.heard] + row.candidates.map(\.name)).compactMap { $0?.lowercased() }
            }
            guard let index = overlay.rows.firstIndex(where: { names($0).contains(wanted) })
                ?? overlay.rows.firstIndex(where: { names($0).contains { $0.hasPrefix(wanted) } }) else {
                throw .commandFailed(line: line.number, text: line.text, reason: "no voice row named \(name); rows: \(overlay.rows.map { $0.player?.name ?? "\($0.heard)?" }.joined(separator: ", "))")
            }
            session.send(.tap(WatchLayout.voiceRowFrame(index, of: overlay.rows.count, size: session.configuration.size).center))
            return
        }
        guard let standings = state.round?.standings else {
            throw .commandFailed(line: line.number, text: line.text, reason: "there is no leaderboard to tap (screen: \(state.screenName))")
        }
        guard let index = standings.firstIndex(where: { $0.name.lowercased() == name.lowercased() })
            ?? standings.firstIndex(where: { $0.name.lowercased().hasPrefix(name.lowercased()) }) else {
            throw .commandFailed(line: line.number, text: line.text, reason: "no row named \(name); rows: \(standings.map(\.name).joined(separator: ", "))")
        }
        // Scroll with the crown until the row is on screen, as a wearer would.
        let visible = WatchLayout.visibleRows(size: session.configuration.size)
        if index < state.scrollRow { session.send(.crown(detents: Double(state.scrollRow - index))) }
        if index >= state.scrollRow + visible { session.send(.crown(detents: -Double(index - (state.scrollRow + visible - 1)))) }
        let slot = index - session.current.scrollRow
        session.send(.tap(WatchLayout.rowFrame(slot: Double(slot), size: session.configuration.size).center))
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
            if ContinuousClock.now >= deadline { return false }
            host.pump(for: 0.02)
        }
    }

    private func frame() -> DisplayList { session.frame(measurer: host.measurer) }

    private func format(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int(seconds * 1000))ms" : seconds < 120 ? "\(Int(seconds))s" : "\(Int(seconds / 60))m"
    }
}
