import ArgumentParser
import CSDL2
import Foundation
import HyzerCLI
import HyzerKit
import HyzerLink
import HyzerStorage
import Logging
import WatchCore

/// The entry point: the parser's own `main`, after refusing a long option written with one dash
/// (`-home`) and saying so when a negative number was read as an option.
@main
enum HyzerWatchMain {
    static func main() {
        HyzerWatch.refuseSingleDashWords(in: WatchCtl.beforeScriptLine(Array(CommandLine.arguments.dropFirst())))
        HyzerWatch.explainNegativeNumbers()
        HyzerWatch.main()
    }
}

struct HyzerWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-watch",
        abstract: "The watch: a 45 mm face in an SDL2 window, scoring with the crown, standings from the phone.",
        discussion: """
            With the same --home as hyzer-hub, the watch finds the hub's socket and pairing token by \
            itself; --connect and --token-file pair it with a hub elsewhere.

            The window shows the watch as a device (case, bezel, rounded display, Digital Crown and \
            side button; --no-chrome for the face alone). It is resizable and keeps its proportions.

            Input:
              mouse wheel, Up/Down     the Digital Crown (scroll the leaderboard; ±1 per detent in score input)
              drag the drawn crown     turns it too (one detent per 14 px)
              left click               tap (a leaderboard row opens score input; Save)
              side button, right click, Escape
                                       back (cancel score input; nothing is recorded)
              Enter                    Save
              V                        voice: a text line for what is said; Enter scores it
              L                        link down / up (the phone out of reach and back)
              A / Shift+A              advance the watch's clock 1 min / 10 s
              W                        wrist down / up (the always-on display)
              B                        the app to the background (the watch face) / to the front
              M                        reduce motion on / off
              T / Shift+T              text size up / down
              C                        device chrome on / off
              + / -                    window scale up / down (steps through 1; never past the screen)
              S                        screenshot (to --screenshot-dir), with a flash on the face
              R                        record start / stop (an animated PNG in --screenshot-dir)
              ?                        show these keys over the face
              Q, closing the window    quit

            Haptics go to <home>/watch/haptics.jsonl, spoken announcements to \
            <home>/watch/announcements.jsonl, saved scores to the durable outbox <home>/watch/outbox \
            until the phone acks them.

            --headless runs without a window (SDL's dummy video driver), e.g. in CI. With --script it \
            runs a scenario, one command a line, and exits 1 at the first unmet expectation, naming the \
            line; 2 for a script it cannot read. The commands (docs/WATCH.md says what each does): \
            \(ScenarioScript.usage).

            A running watch takes the same commands one at a time from hyzer-watch ctl (see hyzer-watch ctl --help).

            Logs go to standard error.
            """,
        version: HyzerVersion.current,
        subcommands: [WatchCtl.self]
    )

    @Option(help: ArgumentHelp("The Hyzer home directory (as for hyzer-hub).", valueName: "DIR"), completion: .directory)
    var home: String?
    @Option(help: ArgumentHelp("The hub's link: unix:PATH or tcp:HOST:PORT (default: unix:<home>/hub/link.sock).", valueName: "ADDRESS"),
            transform: LinkAddress.parseArgument)
    var connect: LinkAddress?
    @Option(name: .customLong("token-file"), help: ArgumentHelp("The pairing token (default: <home>/hub/token).", valueName: "FILE"),
            completion: .file())
    var tokenFile: String?
    @Option(name: .customLong("hub-fingerprint"),
            help: ArgumentHelp("Over TCP: the hub certificate's fingerprint (hyzer-hub token --fingerprint). Default: trust the first one seen and keep it in <home>/watch/hub-fingerprint.", valueName: "SHA256"))
    var hubFingerprint: String?
    @Flag(help: "Over TCP: no TLS. The token travels in clear; only against a hub started with serve --insecure.")
    var insecure = false
    @Option(help: ArgumentHelp("Case size in mm.", valueName: "MM")) var size: WatchSize = .mm45
    @Flag(help: "No window: SDL's dummy video driver.") var headless = false
    @Option(help: ArgumentHelp("A scenario script to run.", valueName: "FILE"), completion: .file()) var script: String?
    @Option(name: .customLong("screenshot-dir"), help: ArgumentHelp("Where screenshots go (default: the current directory).", valueName: "DIR"))
    var screenshotDir: String?
    @Option(name: .customLong("expect-timeout"), help: ArgumentHelp("Seconds a script expectation may take to come true (0 to 3600).", valueName: "S"))
    var expectTimeout = 3.0
    @Flag(name: .customLong("reduce-motion"), help: "Reshuffles change places at once and crossfade instead of sliding.") var reduceMotion = false
    @Option(name: .customLong("text-size"),
            help: ArgumentHelp("Text size, as Dynamic Type: \(TextSize.names). Rows re-fit.", valueName: "SIZE"))
    var textSize: TextSize = .standard
    @Flag(inversion: .prefixedNo, help: "Draw the device (case, bezel, crown, side button) around the face. Default: on in a window, off with --headless.")
    var chrome: Bool?
    @Option(help: ArgumentHelp("Window scale: a factor (0.25 to 8, e.g. 2), or physical for the watch's real size from the display's DPI.", valueName: "N|physical"))
    var scale: String = "1"
    @Option(help: ArgumentHelp("This watch's device ID, as the hub records it (default: watch, or watch-NAME with --wearer).", valueName: "ID"))
    var device: String?
    @Option(help: ArgumentHelp("Whose watch this is (a player's name, or a first name only they have): their row is highlighted and scrolled into view, and scores from this watch are reported by them.", valueName: "NAME"))
    var wearer: String?
    @OptionGroup var logging: LoggingOptions
    /// For hyzer-bench: print "first-frame" on stdout the moment the first frame is drawn.
    @Flag(name: .customLong("report-first-frame"), help: .hidden) var reportFirstFrame = false
    @Flag(name: .customLong("same-machine-file"),
          help: "Also read the phone's shared/standings.json on this home while the phone is in range and its app runs: a shortcut no real watch has (off by default; out of range, or with the phone app suspended, nothing arrives by any path).")
    var sameMachineFile = false
    @Option(name: .customLong("complication-budget"),
            help: ArgumentHelp("Complication transfers the watch face takes per day, by the watch's clock (a real watch gives 50); past them the face keeps what it showed, growing older (0 to 1000).", valueName: "N"))
    var complicationBudget = ComplicationBudget.defaultDaily
    @Option(name: .customLong("return-to-clock"),
            help: ArgumentHelp("watchOS's Return to Clock: how long after the wrist drops the watch face comes back and the app goes to the background, where live messages to it are dropped: always, a duration (2m, as watchOS by default; 1h), or never (an app a workout session keeps in front).", valueName: "WHEN"))
    var returnToClock = ReturnToClock.standard

    func run() throws { try Self.launch(arguments) }

    /// The arguments as this parser read them.
    var arguments: WatchArguments {
        WatchArguments(home: home, connect: connect, tokenFile: tokenFile, hubFingerprint: hubFingerprint, insecure: insecure, size: size,
                       headless: headless, script: script, screenshotDir: screenshotDir, expectTimeout: expectTimeout,
                       reduceMotion: reduceMotion, textSize: textSize, chrome: chrome, scale: scale, device: device, wearer: wearer,
                       logLevel: logging.logLevel, reportFirstFrame: reportFirstFrame, sameMachineFile: sameMachineFile,
                       complicationBudget: complicationBudget, returnToClock: returnToClock)
    }
}

extension HyzerWatch {
    /// Everything after reading the arguments, by either reader.
    /// The scenario script's lines (none without --script); one it cannot read exits 2.
    static func script(_ path: String?) throws -> [ScenarioLine] {
        do {
            return try path.map { try ScenarioScript.parse(readText(at: $0)) } ?? []
        } catch let error as ScenarioError {
            FileHandle.standardError.write(Data("hyzer-watch: \(path ?? ""): \(error)\n".utf8))
            throw ExitCode(2)
        } catch {
            FileHandle.standardError.write(Data("hyzer-watch: cannot read the script \(path ?? ""): \(HostError.reason(error))\n".utf8))
            throw ExitCode(2)
        }
    }

    /// What the process sets before SDL starts; returns the --scale factor (nil: physical).
    static func prepareProcess(_ a: WatchArguments) throws -> Double? {
        if a.headless { setenv("SDL_VIDEODRIVER", "dummy", 1) }
        // The window title is UTF-8 ("Hyzer — 45 mm"); X11 converts it through the C locale, which
        // garbles it when LANG is unset. A UTF-8 character type keeps it right whatever the locale.
        if setlocale(LC_CTYPE, "") == nil || String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        let scaleFactor: Double?
        if a.scale == "physical" {
            scaleFactor = nil
        } else if let factor = Double(a.scale), factor >= 0.25, factor <= 8 {
            scaleFactor = factor
        } else {
            throw ValidationError("--scale takes a factor from 0.25 to 8 (e.g. 2) or physical; got \(a.scale)")
        }
        // The framebuffer path is cheaper per frame than SDL's OpenGL-on-CPU path under Xvfb.
        setenv("SDL_FRAMEBUFFER_ACCELERATION", "0", 0)
        // SIGINT and SIGTERM are ours (below), not turned into SDL quit events.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // On X11 SDL drops a click that comes within 10 ms of the window taking focus; with no window
        // manager (Xvfb) focus follows the pointer, so a pointer moved onto a row and clicked at once
        // (a person quickly, or xdotool) would lose the tap. A tap on the face always counts.
        SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1")
        return scaleFactor
    }

    /// SDL's video, on a display a person can see. SDL does not fail when no display answers (a
    /// DISPLAY whose server is gone or not up yet): it falls back to its offscreen driver, and the
    /// watch would run, script and all, in a window nobody can see or click. Such a start is tried
    /// again for a few seconds (a display that is still starting), then refused.
    static func startVideo(headless: Bool) throws {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let chosen = variable("SDL_VIDEODRIVER"), display = variable("DISPLAY") ?? variable("WAYLAND_DISPLAY")
        let deadline = ContinuousClock.now + .seconds(5)
        var tries = 0
        while true {
            guard SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 else {
                throw HostError("Cannot start SDL video (\(String(cString: SDL_GetError()))). With no display, run with --headless or under xvfb-run.")
            }
            let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
            // Asked for by name (SDL_VIDEODRIVER, or --headless): what was asked is what runs.
            if headless || chosen != nil || !["offscreen", "dummy"].contains(driver) { return }
            SDL_Quit()
            guard ContinuousClock.now < deadline else {
                throw HostError("No display to open the watch's window on: \(display.map { "DISPLAY \($0) did not answer" } ?? "DISPLAY is not set") "
                                + "(SDL fell back to its \(driver) driver, which shows nothing). Run with --headless, under xvfb-run, or with DISPLAY naming a running X server.")
            }
            tries += 1
            if tries == 1 { Logger(label: "hyzer.watch").warning("no display answered\(display.map { " at \($0)" } ?? ""); trying again for 5 s") }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// The home's lock (one watch per home: a second would share the first one's outbox and
    /// logs), the session with the standings on disk for the first frame, and the font paths kept
    /// from the last start.
    static func openHome(_ paths: HyzerPaths, _ configuration: WatchConfiguration,
                         wake: WatchHost.Wake) throws -> (HeldFileLock, WatchSession, [FontSpec.Family: String]?) {
        do {
            try DurableFile.makeDirectory(paths.watchDirectory)
        } catch {
            throw HostError("Cannot use \(paths.home.path) as the watch's home: \(error)")
        }
        let homeLock = paths.watchDirectory.appendingPathComponent("watch.lock")
        guard let held = try HeldFileLock.acquire(homeLock) else {
            let pid = HeldFileLock.holder(homeLock).map { " (pid \($0))" } ?? ""
            throw HostError("Another hyzer-watch\(pid) is using \(paths.watchDirectory.path); give this watch its own --home, and pair it with --connect and --token-file.")
        }
        let session = try WatchSession(configuration: configuration, changed: { wake.signal() })
        session.loadSnapshot()
        return (held, session, FontBook.savedPaths(in: WatchHost.fontCache(paths)))
    }

    static func launch(_ a: WatchArguments) throws {
        LoggingOptions.bootstrap(level: a.logLevel)
        try validate(a)
        let started = ContinuousClock.now
        let paths = HyzerPaths.resolve(explicitHome: a.home, environment: ProcessInfo.processInfo.environment, userHome: NSHomeDirectory())
        let lines = try script(a.script)
        let scaleFactor = try prepareProcess(a)
        let wake = WatchHost.Wake()
        let configuration = WatchConfiguration(
            paths: paths, address: a.connect,
            tokenFile: a.tokenFile.map { URL(fileURLWithPath: $0) },
            deviceID: a.device ?? a.wearer.map(Player.watchDeviceID(wearer:)) ?? "watch",
            wearerName: a.wearer,
            size: a.size, reduceMotion: a.reduceMotion, textSize: a.textSize, sameMachineFile: a.sameMachineFile,
            trust: a.connect.flatMap { HubTrust.forWatch(address: $0, fingerprint: a.hubFingerprint, insecure: a.insecure, pinStore: paths.hubPin) },
            complicationBudget: a.complicationBudget, returnToClock: a.returnToClock)
        let (held, session, savedFontPaths) = try openHome(paths, configuration, wake: wake)
        defer { withExtendedLifetime(held) {} }
        try startVideo(headless: a.headless)
        defer { SDL_Quit() }
        let ttf = try SDLTTF.shared.get()
        guard ttf.initialize() == 0 else { throw HostError.sdl("TTF_Init") }
        defer { ttf.quit() }
        if !a.headless { wake.useSDLEvents(SDL_RegisterEvents(1)) }

        let host = try WatchHost(
            session: session, wake: wake, ttf: ttf, savedFontPaths: savedFontPaths, headless: a.headless, title: "Hyzer — \(a.size.rawValue) mm",
            screenshotDirectory: URL(fileURLWithPath: a.screenshotDir ?? FileManager.default.currentDirectoryPath),
            chrome: a.chrome ?? !a.headless, scale: scaleFactor ?? physicalScale())
        // The file watch and the link's first attempt start once the first frame is drawn, so the
        // frame does not wait for them (hyzer-bench: watch start).
        host.renderIfNeeded(force: true)
        if a.reportFirstFrame {
            // With the moment it was drawn (CLOCK_MONOTONIC, ns): a bench reading this line late
            // (its reader waiting for a core) still measures the start, not its own wait.
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            FileHandle.standardOutput.write(Data("first-frame \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))\n".utf8))
        }
        // SIGINT and SIGTERM are trapped once the frame is drawn: the trap starts Swift's
        // concurrency pool, which would delay the first frame if it came before. A signal
        // before this ends the process as it would have ended it anyway: nothing has been recorded,
        // the link has not started, and the kernel releases the home's lock.
        TerminationSignal.trapNow { _ in wake.requestStop() }
        session.start()
        Logger(label: "hyzer.watch").info("first frame \(started.duration(to: .now)) after start")

        let control = try serveControl(session: session, host: host, wake: wake, paths: paths, expectTimeout: a.expectTimeout)
        defer { control?.stop() }
        var failure: ScenarioError?
        if a.script != nil {
            let runner = ScenarioRunner(session: session, host: host, screenshotDirectory: host.screenshotDirectory) { line in
                Logger(label: "hyzer.watch.script").info("\(line)")
            }
            runner.expectationTimeout = a.expectTimeout
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

extension HyzerWatch {
    /// `watch/ctl.sock`: each `hyzer-watch ctl` request runs on the watch's own loop between
    /// frames, as a script's line would (one at a time: a request that pumps the loop, such as a
    /// `wait-for`, does not start another). Nil, with a warning, when the socket cannot be made.
    static func serveControl(session: WatchSession, host: WatchHost, wake: WatchHost.Wake, paths: HyzerPaths,
                             expectTimeout: TimeInterval) throws -> WatchControl? {
        let logger = Logger(label: "hyzer.watch.control")
        let control: WatchControl
        do {
            control = try WatchControl(at: paths.watchControl) { wake.signal() }
        } catch {
            logger.warning("no live control (hyzer-watch ctl): \(error)")
            return nil
        }
        let runner = ScenarioRunner(session: session, host: host, screenshotDirectory: host.screenshotDirectory) { logger.info("\($0)") }
        runner.expectationTimeout = expectTimeout
        var running = false
        host.betweenFrames = {
            guard !running else { return }
            running = true
            defer { running = false }
            for request in control.takeRequests() {
                request.answer(runner.perform(request.line, timeout: request.timeout))
                if (try? ScenarioScript.parse(request.line))?.first?.command == .quit { wake.requestStop() }
            }
        }
        return control
    }

    /// What the parser lets through but no watch could use: an empty path or id (`--home ""`
    /// would quietly mean the default home), a device id the hub would refuse at every attempt,
    /// an expectation timeout that is no length of time.
    static func validate(_ a: WatchArguments) throws {
        let texts: [(String, String?)] = [("--home", a.home), ("--token-file", a.tokenFile), ("--hub-fingerprint", a.hubFingerprint),
                                          ("--script", a.script), ("--screenshot-dir", a.screenshotDir), ("--device", a.device), ("--wearer", a.wearer)]
        for (name, value) in texts where value?.isEmpty == true {
            throw ValidationError("\(name) needs a value; got an empty one.")
        }
        if let device = a.device, device.utf8.count > LinkProtocol.maxDeviceIDLength
            || device.containsControlCharacter {
            throw ValidationError("--device takes 1 to \(LinkProtocol.maxDeviceIDLength) bytes with no control characters; got \(device.utf8.count) bytes.")
        }
        if let fingerprint = a.hubFingerprint, !HubTrust.isFingerprint(fingerprint) {
            throw ValidationError("--hub-fingerprint takes the hub certificate's SHA-256 as hyzer-hub token --fingerprint prints it (sha256: and 64 hex digits); got \(fingerprint).")
        }
        guard (0...1000).contains(a.complicationBudget) else {
            throw ValidationError("--complication-budget takes 0 to 1000 transfers a day; got \(a.complicationBudget).")
        }
        guard a.expectTimeout.isFinite, (0...3600).contains(a.expectTimeout) else {
            throw ValidationError("--expect-timeout takes seconds from 0 to 3600; got \(a.expectTimeout).")
        }
    }
}

/// A text file's contents, or an error that says why not as the system puts it ("No such file
/// or directory", "Is a directory", "Permission denied"), or that it is not UTF-8.
private func readText(at path: String) throws -> String {
    let data: Data
    do { data = try DurableFile.read(URL(fileURLWithPath: path)) } catch { throw HostError(error.reason) }
    guard let text = String(validating: data, as: UTF8.self) else { throw HostError("not UTF-8 text") }
    return text
}

/// What is left to read from `fd`, or nil once it holds more than `limit` bytes; a read error
/// says why as the system puts it.
func readAll(_ fd: Int32, limit: Int = .max) throws(HostError) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else {
            if errno == EINTR { continue }
            throw HostError(String(cString: strerror(errno)))
        }
        if count == 0 { return bytes }
        bytes += chunk[..<count]
        if bytes.count > limit { return nil }
    }
}

/// The scale at which the face shows at the watch's own size on this display (its DPI over the
/// watch's 326 or 338 ppi); 1 when the display does not say its DPI.
private func physicalScale() -> Double {
    var diagonal: Float = 0, horizontal: Float = 0, vertical: Float = 0
    guard SDL_GetDisplayDPI(0, &diagonal, &horizontal, &vertical) == 0, horizontal > 0 else {
        FileHandle.standardError.write(Data("hyzer-watch: the display does not say its DPI; --scale physical uses 1\n".utf8))
        return 1
    }
    return min(8, max(0.25, Double(horizontal) / 326))
}

extension TextSize: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension ReturnToClock: ExpressibleByArgument {
    public var defaultValueDescription: String {
        switch self {
        case .never: "never"
        case .after(let seconds): seconds == 0 ? "always" : seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60))m" : "\(seconds)s"
        }
    }
}

extension WatchSize: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: Int(argument) ?? 0) }
    public var defaultValueDescription: String { "\(rawValue)" }
    public static var allValueStrings: [String] { allCases.map { "\($0.rawValue)" } }
}

