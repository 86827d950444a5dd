import ArgumentParser
import CSDL2
import Foundation
import HyzerKit
import HyzerLink
import Logging
import WatchCore

@main
struct HyzerWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-watch",
        abstract: "The watch: a 45 mm face in an SDL2 window, scoring with the crown, standings from the phone.",
        discussion: """
            With the same --home as hyzer-hub, the watch finds the hub's socket and pairing token by \
            itself; --connect and --token-file pair it with a hub elsewhere.

            Input:
              mouse wheel, Up/Down     the Digital Crown (scroll the leaderboard; ±1 per detent in score input)
              left click               tap (a leaderboard row opens score input; Save)
              Enter                    Save
              right click, Escape      back (cancel score input; nothing is recorded)
              S                        save a screenshot (to --screenshot-dir)
              Q, closing the window    quit

            Haptics go to <home>/watch/haptics.jsonl, spoken announcements to \
            <home>/watch/announcements.jsonl, saved scores to the durable outbox <home>/watch/outbox \
            until the phone acks them.

            --headless runs without a window (SDL's dummy video driver), e.g. in CI. With --script it \
            runs a scenario (one command a line: wait-snapshot, tap NAME, crown +N/-N, save, back, wait \
            DURATION, advance-clock DURATION, link down/up, screenshot FILE.png, expect-screen, \
            expect-text, expect-stale, expect-reachable, expect-haptics N KIND, quit) and exits 1 at \
            the first unmet expectation, naming the line; 2 for a script it cannot read.
            """
    )

    @Option(help: ArgumentHelp("The Hyzer home directory (as for hyzer-hub).", valueName: "DIR")) var home: String?
    @Option(help: ArgumentHelp("The hub's link: unix:PATH or tcp:HOST:PORT (default: unix:<home>/hub/link.sock).", valueName: "ADDRESS"))
    var connect: String?
    @Option(name: .customLong("token-file"), help: ArgumentHelp("The pairing token (default: <home>/hub/token).", valueName: "FILE"))
    var tokenFile: String?
    @Option(help: ArgumentHelp("Case size: 41, 45 or 49 (mm).", valueName: "MM")) var size = 45
    @Flag(help: "No window: SDL's dummy video driver.") var headless = false
    @Option(help: ArgumentHelp("A scenario script to run.", valueName: "FILE")) var script: String?
    @Option(name: .customLong("screenshot-dir"), help: ArgumentHelp("Where screenshots go (default: the current directory).", valueName: "DIR"))
    var screenshotDir: String?
    @Option(name: .customLong("expect-timeout"), help: ArgumentHelp("Seconds a script expectation may take to come true.", valueName: "S"))
    var expectTimeout = 3.0
    @Flag(name: .customLong("reduce-motion"), help: "Reshuffles change instantly instead of sliding.") var reduceMotion = false
    @Option(help: ArgumentHelp("This watch's device ID, as the hub records it.", valueName: "ID")) var device = "watch"
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "warning"
    /// For hyzer-bench: print "first-frame" on stdout the moment the first frame is drawn.
    @Flag(name: .customLong("report-first-frame"), help: .hidden) var reportFirstFrame = false

    func validate() throws {
        guard WatchSize(rawValue: size) != nil else { throw ValidationError("--size must be 41, 45 or 49 (mm); got \(size).") }
        if let connect {
            do { _ = try LinkAddress(parsing: connect) } catch { throw ValidationError(error.description) }
        }
        if let script, !FileManager.default.isReadableFile(atPath: script) {
            throw ValidationError("Cannot read the script \(script).")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical; got \(logLevel).")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let started = Date()
        let paths = HyzerPaths.resolve(explicitHome: home, environment: ProcessInfo.processInfo.environment, userHome: NSHomeDirectory())
        let lines: [ScenarioLine]
        do {
            lines = try script.map { try ScenarioScript.parse(String(contentsOfFile: $0, encoding: .utf8)) } ?? []
        } catch let error as ScenarioError {
            FileHandle.standardError.write(Data("hyzer-watch: \(script ?? ""): \(error)\n".utf8))
            throw ExitCode(2)
        }

        // Catch SIGINT/SIGTERM from the start; the host loop stops when one has arrived.
        let wakeBox = WatchHost.Wake()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // first: the default action would end the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                wakeBox.stopRequested = true
                wakeBox.signal()
            }
            source.resume()
            SignalSources.keep(source)
        }

        if headless { setenv("SDL_VIDEODRIVER", "dummy", 1) }
        // The framebuffer path is ~3× cheaper per frame than SDL's OpenGL-on-CPU path under Xvfb.
        setenv("SDL_FRAMEBUFFER_ACCELERATION", "0", 0)
        guard SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 else {
            throw HostError("Cannot start SDL video (\(String(cString: SDL_GetError()))). With no display, run with --headless or under xvfb-run.")
        }
        defer { SDL_Quit() }
        guard TTF_Init() == 0 else { throw HostError.sdl("TTF_Init") }
        defer { TTF_Quit() }

        let wake = wakeBox
        let session = try WatchSession(
            configuration: WatchConfiguration(
                paths: paths, address: try connect.map { try LinkAddress(parsing: $0) },
                tokenFile: tokenFile.map { URL(fileURLWithPath: $0) }, deviceID: device,
                size: WatchSize(rawValue: size)!, reduceMotion: reduceMotion),
            changed: { wake.signal() })
        let host = try WatchHost(
            session: session, wake: wake, headless: headless, title: "Hyzer — \(size) mm",
            screenshotDirectory: URL(fileURLWithPath: screenshotDir ?? FileManager.default.currentDirectoryPath))
        session.start()
        host.renderIfNeeded(force: true)
        if reportFirstFrame { FileHandle.standardOutput.write(Data("first-frame\n".utf8)) }
        Logger(label: "hyzer.watch").info("first frame \(Int(Date().timeIntervalSince(started) * 1000)) ms after start")

        var failure: ScenarioError?
        if script != nil {
            let runner = ScenarioRunner(session: session, host: host, screenshotDirectory: host.screenshotDirectory) { line in
                Logger(label: "hyzer.watch.script").info("\(line)")
            }
            runner.expectationTimeout = expectTimeout
            do { try runner.run(lines) } catch { failure = error }
        } else {
            host.run()
        }
        let done = DispatchSemaphore(value: 0)
        Task {
            await session.stop()
            done.signal()
        }
        done.wait()
        if let failure {
            FileHandle.standardError.write(Data("hyzer-watch: \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }
}

enum SignalSources {
    nonisolated(unsafe) private static var retained: [any DispatchSourceSignal] = []
    static func keep(_ source: any DispatchSourceSignal) { retained.append(source) }
}
