import Foundation
import HyzerKit
import HyzerLink
import HyzerStorage
import Logging
import NIOConcurrencyHelpers

/// Where the watch finds its hub and keeps its files.
public struct WatchConfiguration: Sendable {
    public var paths: HyzerPaths
    /// The hub's link address; default `unix:<home>/hub/link.sock`.
    public var address: LinkAddress
    /// The pairing token file; default `<home>/hub/token`.
    public var tokenFile: URL
    public var deviceID: String
    public var wearerID: PlayerID?
    /// `--wearer NAME`: matched to a player when standings arrive.
    public var wearerName: String?
    public var size: WatchSize
    public var reduceMotion: Bool
    public var textSize: TextSize
    /// Draw the status-bar time in the face's clock area (the device chrome does; screenshots
    /// without chrome leave the area empty so they do not change by the minute).
    public var statusClock: Bool
    /// Over TCP: how the hub is trusted (see `HubTrust`); nil for the Unix socket or `--insecure`.
    public var trust: HubTrust?
    /// `--same-machine-file`: also read the phone's `shared/standings.json` on this home while the
    /// phone is reachable. A shortcut no real watch has; out of range it is cut like the link.
    public var sameMachineFile: Bool
    /// Complication transfers the face takes per day (`--complication-budget`).
    public var complicationBudget: Int
    /// Return to Clock (`--return-to-clock`): how long after the wrist drops the app goes to the
    /// background.
    public var returnToClock: ReturnToClock

    public init(paths: HyzerPaths, address: LinkAddress? = nil, tokenFile: URL? = nil, deviceID: String = "watch",
                wearerID: PlayerID? = nil, wearerName: String? = nil, size: WatchSize = .mm45, reduceMotion: Bool = false,
                textSize: TextSize = .standard, statusClock: Bool = false, sameMachineFile: Bool = false, trust: HubTrust? = nil,
                complicationBudget: Int = ComplicationBudget.defaultDaily, returnToClock: ReturnToClock = .standard) {
        self.paths = paths
        self.address = address ?? .unix(path: paths.linkSocket.path)
        self.tokenFile = tokenFile ?? paths.pairingToken
        self.deviceID = deviceID
        self.wearerID = wearerID
        self.wearerName = wearerName
        self.size = size
        self.reduceMotion = reduceMotion
        self.textSize = textSize
        self.statusClock = statusClock
        self.sameMachineFile = sameMachineFile
        self.trust = trust
        self.complicationBudget = complicationBudget
        self.returnToClock = returnToClock
    }
}

/// The watch's shell: holds the state, feeds it inputs from the hands and the link, and performs the
/// effects (outbox, haptic log, announcements). Standings reach it only over the link, as on a
/// real watch; each one that does is kept in the watch's own container (`watch/standings.json`),
/// which the next launch shows first. No SDL: the host draws
/// `frame()` and turns its events into `send(_:)` calls; tests do the same without a window.
public final class WatchSession: Sendable {
    public let configuration: WatchConfiguration
    public let outbox: DurableOutbox
    private let hapticLog: JSONLinesLog
    private let announcementLog: JSONLinesLog
    private let complicationLog: JSONLinesLog
    /// The app's own files (the standings and complications it keeps), written after they show.
    private let container: ContainerWriter
    /// Everything the session knows, under one lock: a decision that reads one part and changes
    /// another ("connect when wanted and not yet connected") is made whole.
    private let shell: NIOLockedValueBox<Shell>
    private let changed: @Sendable () -> Void
    private let logger = Logger(label: "hyzer.watch")

    private struct Shell {
        /// What the face shows and the rules act on (`WatchMachine`).
        var watch: WatchState
        /// What `advance-clock` added to real time, and since when.
        var clock = AdvancedClock()
        var hapticCounts: [HapticKind: Int] = [:]
        var link = LinkState()
        var snapshotWatcher: FileChangeWatcher?
        /// Wrist down: the state the always-on display shows, and when it was last updated (once a minute).
        var alwaysOn: (state: WatchState, at: Date)?
        var statusClock: Bool
        /// The application context: the latest standings the phone sent while the app was in the
        /// background, delivered when it comes to the front (only the latest is kept).
        var context: StandingsSnapshot?
        /// What the container (`watch/standings.json`) holds, as this session last wrote it.
        var kept: StandingsSnapshot?
    }

    /// - Parameter changed: called (on any thread) after anything that may change the face.
    public init(configuration: WatchConfiguration, changed: @escaping @Sendable () -> Void = {}) throws {
        self.configuration = configuration
        let paths = configuration.paths
        outbox = try DurableOutbox(directory: paths.outbox)
        hapticLog = try JSONLinesLog(url: paths.hapticLog)
        announcementLog = try JSONLinesLog(url: paths.announcementLog)
        complicationLog = try JSONLinesLog(url: paths.complicationLog)
        container = ContainerWriter()
        // The budget outlives the app, as the system keeps it: today's transfers so far.
        let budget = ComplicationRecord.budget(daily: configuration.complicationBudget, from: Self.readLines(paths.complicationLog))
        var initial = WatchState(deviceID: configuration.deviceID, wearerID: configuration.wearerID,
                                 wearerName: configuration.wearerName, reduceMotion: configuration.reduceMotion,
                                 textSize: configuration.textSize, complicationBudget: budget)
        // The face's complications as the system kept them (they outlive the app).
        initial.returnToClock = configuration.returnToClock
        initial.complication = (try? Data(contentsOf: paths.shownComplication)).flatMap { try? HyzerJSON.decoder().decode(ShownComplication.self, from: $0) }
        initial.pendingScores = outbox.pending
        initial.pendingTransfers = initial.pendingScores.count
        initial.unreadableScores = outbox.quarantined
        shell = NIOLockedValueBox(Shell(watch: initial, statusClock: configuration.statusClock))
        self.changed = changed
    }

    /// The records of a JSON-lines log; lines that do not read (a torn last line) are skipped.
    static func readLines<Record: Decodable>(_ url: URL) -> [Record] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let decoder = HyzerJSON.decoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(Record.self, from: Data($0)) }
    }

    // MARK: Clock

    /// The watch's clock: real time plus whatever `advance-clock` added.
    public func now() -> Date { Date().addingTimeInterval(shell.withLockedValue { $0.clock.offset }) }

    public func advanceClock(by interval: TimeInterval) {
        shell.withLockedValue { $0.clock.advance(by: interval, at: Date()) }
        if interval < 0 { send(.clockSetBack(-interval)) }
        changed()
    }

    private func environment() -> WatchEnvironment {
        let clock = shell.withLockedValue { $0.clock }
        return WatchEnvironment(now: Date().addingTimeInterval(clock.offset), size: configuration.size,
                                hubTimeToWatchTime: { $0.addingTimeInterval(clock.offset(at: $0)) })
    }

    // MARK: Running

    /// Shows the standings last kept in the watch's container (`watch/standings.json`), so that
    /// the first frame shows them before `start()` (which the watch calls once that frame is
    /// drawn) brings the link up. They are as old as they say they are.
    public func loadSnapshot() {
        // None yet (a first launch) is no problem to show: the phone's standings are awaited.
        if FileManager.default.fileExists(atPath: configuration.paths.watchSnapshot.path) { readSnapshot(at: configuration.paths.watchSnapshot) }
        // An application context left from a run that ended in the background: delivered at launch.
        if case .success(let context) = SnapshotFile.read(configuration.paths.watchContext) {
            logger.info("application context delivered at launch (standings \(context.sequence))")
            send(.snapshot(context))
            unlink(configuration.paths.watchContext.path)
            if current.snapshot == context { keep(context) }
        }
    }

    /// Brings the link to the phone up; with `--same-machine-file`, also watches the phone's file.
    public func start() {
        if configuration.sameMachineFile {
            let watcher = FileChangeWatcher(files: [configuration.paths.standingsSnapshot]) { [weak self] in self?.readPhoneFile() }
            shell.withLockedValue { $0.snapshotWatcher = watcher }
            watcher.start(name: "hyzer.watch.snapshot")
        }
        setLink(up: true)
    }

    public func stop() async {
        let (watcher, client, stopping) = shell.withLockedValue { shell in
            (shell.snapshotWatcher, shell.link.takeDown(), shell.link.stopping)
        }
        watcher?.stop()
        await client?.stop()
        for task in stopping { await task.value }
        container.flush()
        hapticLog.close()
        announcementLog.close()
        complicationLog.close()
    }

    /// `wearer NAME` (script) or `--wearer`: whose watch this is.
    public func setWearer(_ name: String) {
        shell.withLockedValue { $0.watch.wearerName = name; $0.watch.wearerID = nil }
        if let snapshot = current.snapshot { send(.snapshot(snapshot)) }  // re-resolves (same sequence: nothing else changes)
    }

    /// Whether the link is wanted up (`link up`, the default) or was taken down.
    public var linkWanted: Bool { shell.withLockedValue { $0.link.wanted } }

    /// `link down` / `link up`: make the phone unreachable or reachable again.
    public func setLink(up: Bool) {
        if up {
            shell.withLockedValue { $0.link.wanted = true }
            connectWhenPaired()
        } else if let client = shell.withLockedValue({ $0.link.takeDown() }) {
            // Stopped in the background (a script's `link down` does not wait for it); `stop()`
            // waits for it.
            let stopping = Task { await client.stop() }
            shell.withLockedValue { $0.link.stopping.append(stopping) }
            send(.reachability(false))
        }
    }

    private struct LinkState {
        var wanted = false
        /// Whether the phone app runs, as the hub's heartbeats say (a suspended or not-running app
        /// confirms no standings); standings from the phone say it runs.
        var phoneAppRuns = true
        var client: LinkClient?
        /// Which client's news counts: bumped when one is taken down.
        var generation = 0
        /// Clients taken down (`link down`) and still stopping.
        var stopping: [Task<Void, Never>] = []
        /// Waiting a second to read the pairing token again (the hub may start after the watch).
        var retry: Task<Void, Never>?

        /// Not wanted any more: returns the client to stop, if one was running.
        mutating func takeDown() -> LinkClient? {
            wanted = false
            generation += 1
            retry?.cancel()
            retry = nil
            defer { client = nil }
            return client
        }
    }

    /// Starts the link client once a pairing token can be read (the hub may start after the watch).
    private func connectWhenPaired() {
        guard shell.withLockedValue({ $0.link.wanted && $0.link.client == nil }) else { return }
        let token: String
        do {
            token = try PairingToken.read(at: configuration.tokenFile)
        } catch {
            // Said as a warning once (and again if the reason changes): a watch waiting forever on
            // a mistyped --home must say so at the default log level.
            let given = configuration.tokenFile != configuration.paths.pairingToken
            let noHub = !given && !FileManager.default.fileExists(atPath: configuration.paths.hubDirectory.path)
            let reason = noHub ? "no hub at \(configuration.paths.home.path) (no hub/ folder there): check --home or $HYZER_HOME, or pair with --connect and --token-file"
                : given ? "no pairing token at \(configuration.tokenFile.path), the file given with --token-file: check the path (the hub's token is hub/token in its home; hyzer-hub token prints it)"
                : "\(error)"
            let shown = noHub ? "No hub at this home" : "No pairing token yet"
            if current.pairingProblem != shown {
                logger.warning("not paired: \(reason); trying again every second")
            } else {
                logger.info("not paired yet: \(reason); trying again in 1 s")
            }
            send(.notPaired(shown))
            // No token, no hub: that is a failed attempt, so the face may say "No phone".
            if !current.linkKnown { send(.reachability(false)) }
            let retry = Task { [weak self] in
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                self?.connectWhenPaired()
            }
            shell.withLockedValue { shell in
                guard shell.link.wanted else { return retry.cancel() }
                shell.link.retry = retry
            }
            return
        }
        let generation = shell.withLockedValue { $0.link.generation }
        let client = LinkClient(
            configuration: LinkClientConfiguration(address: configuration.address, token: token, deviceID: configuration.deviceID,
                                                   trust: configuration.trust, complicationEnabled: true, wearer: configuration.wearerName),
            outbox: outbox, rejectedLog: RejectedLog(url: configuration.paths.rejectedLog, clock: { [weak self] in self?.now() ?? Date() })
        ) { [weak self] event in self?.linkEvent(event, from: generation) }
        let adopted = shell.withLockedValue { shell in
            guard shell.link.wanted, shell.link.client == nil else { return false }
            shell.link.client = client
            return true
        }
        if adopted {
            client.setAppActive(!current.appInBackground)
            client.start()
        }
    }

    func linkEvent(_ event: LinkClientEvent, from generation: Int) {
        // A client taken down (`link down`) may still pair, or hand over a heartbeat or standings
        // it read, on its own thread before its stop lands: that is no longer this watch's link,
        // and out of range nothing arrives. Its acks and refusals still count: its outbox has
        // settled those scores.
        switch event {
        case .acked, .rejected: break
        default: guard shell.withLockedValue({ $0.link.generation == generation }) else { return }
        }
        switch event {
        case .reachability(let reachable):
            send(.reachability(reachable))
            if reachable { readPhoneFile() }
        case .standings(let snapshot):
            shell.withLockedValue { $0.link.phoneAppRuns = true }
            let dropsBefore = current.droppedLiveMessages
            send(.pushed(snapshot))
            if current.droppedLiveMessages > dropsBefore {
                logger.warning("a live message to the app in the background was dropped (standings \(snapshot.sequence)); the latest waits as the application context")
            } else if current.snapshot == snapshot {
                keep(snapshot)
            }
        case .heartbeat(let heartbeat):
            shell.withLockedValue { $0.link.phoneAppRuns = heartbeat.sequence != nil }
            send(.heartbeat(sequence: heartbeat.sequence))
        case .acked(let event, _, let classification):
            send(.acked(event, classification))
            send(.pending(outbox.pending))
        case .rejected(let score, let rejection):
            let name = current.name(of: score.playerID)
            logger.warning("the phone did not accept the score for \(name), \(score.strokes) on hole \(score.hole): \(rejection.message) (kept in \(configuration.paths.rejectedLog.path))")
            send(.rejected(score, rejection))
            send(.pending(outbox.pending))
        case .refused(let refusal): send(.pairingRefused(refusal.message))
        case .complication(let transfer): send(.complication(transfer))
        }
    }

    /// Keeps standings the face shows in the watch's container, for the next launch (and, later,
    /// the watch face), written just after (`ContainerWriter`). Not synced: after a crash the
    /// phone sends them again. Asked under the session's lock and only when newer than what it
    /// holds, so two arrivals on two threads never leave the older one in the file.
    private func keep(_ snapshot: StandingsSnapshot) {
        shell.withLockedValue { shell in
            guard snapshot.supersedes(shell.kept) else { return }
            container.replace(configuration.paths.watchSnapshot, with: snapshot.prettyJSON())
            shell.kept = snapshot
        }
    }

    /// `--same-machine-file`: the phone's own file, read only while the phone is in reach, its
    /// app runs and this app is in front (an app in the background is suspended: it reads
    /// nothing, and learns of the change when it comes back, as it does from the application
    /// context; a suspended phone app sends nothing, and its heartbeats say so within a second).
    private func readPhoneFile() {
        guard configuration.sameMachineFile, current.reachable else { return }
        guard !current.appInBackground else {
            return logger.info("the phone's standings.json changed; the app is in the background (suspended): not read until it is in front")
        }
        guard shell.withLockedValue({ $0.link.phoneAppRuns }) else {
            return logger.info("the phone's standings.json changed; the phone app is suspended or not running (its heartbeats confirm nothing): not read")
        }
        readSnapshot(at: configuration.paths.standingsSnapshot)
    }

    private func readSnapshot(at url: URL) {
        switch SnapshotFile.read(url) {
        case .success(let snapshot): send(.snapshot(snapshot))
        case .failure(let error):
            // A file not there yet is normal before the phone's first export; a corrupt one is not.
            if case .missing = error { logger.notice("\(error)") } else { logger.warning("\(error)") }
            send(.snapshotUnreadable(error.description))
        }
    }

    // MARK: Inputs and effects

    /// Feeds one input. `inputTime` is when the host received the event; haptics it causes log
    /// their latency from it.
    public func send(_ input: WatchInput, inputTime: ContinuousClock.Instant? = nil) {
        let env = environment()
        let (effects, context, appMoved, cameToFront) = shell.withLockedValue { shell -> ([WatchEffect], StandingsSnapshot?, (LinkClient, Bool)?, Bool) in
            let wasInBackground = shell.watch.appInBackground
            let shown = shell.watch.complication
            let (effects, context) = Self.reduce(&shell, input, env, wasInBackground: wasInBackground)
            if let now = shell.watch.complication, now != shown {
                // Asked under the lock, so two changes never leave the older in the file.
                if let data = try? HyzerJSON.encoder().encode(now) { container.replace(configuration.paths.shownComplication, with: data) }
            }
            if case .clock = input, !wasInBackground, shell.watch.appInBackground {
                logger.info("Return to Clock: the wrist is down, the watch face shows and the app is in the background")
            }
            // The app came to the front or left it: the phone is told (its reachability of the app).
            let moved = shell.watch.appInBackground != wasInBackground ? shell.link.client.map { ($0, !shell.watch.appInBackground) } : nil
            return (effects, context, moved, wasInBackground && !shell.watch.appInBackground)
        }
        if let (client, active) = appMoved { client.setAppActive(active) }
        if let context {
            if case .pushed = input {
                // Kept by "the system" across the app's exits, as WatchConnectivity keeps it.
                try? DurableFile.replace(configuration.paths.watchContext, with: context.prettyJSON(), durable: false)
            } else {
                logger.info("the app is in front: application context delivered (standings \(context.sequence))")
                unlink(configuration.paths.watchContext.path)
                if current.snapshot == context { keep(context) }
            }
        }
        perform(effects, env: env, inputTime: inputTime ?? .now)
        changed()
        // A suspended app read no file: in front again, it reads the phone's once.
        if cameToFront { readPhoneFile() }
    }

    /// One input under the session's lock: the machine's reduction, with what the system does
    /// around the app (live messages dropped in the background, the application context delivered
    /// when it comes to the front).
    private static func reduce(_ shell: inout Shell, _ input: WatchInput, _ env: WatchEnvironment,
                               wasInBackground: Bool) -> ([WatchEffect], StandingsSnapshot?) {
        // A live message reaches only an app in front; in the background it is dropped (decided
        // under the same lock as the app's state), and the latest waits as the application context.
        if case .pushed(let snapshot) = input, wasInBackground {
            if snapshot.supersedes(shell.context ?? shell.watch.snapshot) { shell.context = snapshot }
            // What the phone sends as the watch pairs is its application context, not a live
            // message (PROTOCOL.md): kept, and not counted as dropped.
            if shell.watch.awaitingPairedStandings {
                shell.watch.awaitingPairedStandings = false
                return ([], shell.context)
            }
            return (WatchMachine.reduce(&shell.watch, .liveMessageDropped, env), shell.context)
        }
        var effects = WatchMachine.reduce(&shell.watch, input, env)
        // An app in the background is not running: nothing is felt or said until it is in front.
        if shell.watch.appInBackground {
            effects.removeAll { effect in
                switch effect {
                case .enqueue, .logComplication: false
                case .haptic, .announce: true
                }
            }
        }
        // In front again: the application context is delivered now, as old as it is.
        guard wasInBackground, !shell.watch.appInBackground, let context = shell.context else { return (effects, nil) }
        shell.context = nil
        effects += WatchMachine.reduce(&shell.watch, .snapshot(context), env)
        shell.watch.heardFromPhone = true
        return (effects, context)
    }

    /// `app background` / `app foreground`: the watch app leaves the screen for the watch face, or
    /// comes back (a tap on the watch face brings it back too).
    public func setApp(foreground: Bool) {
        send(.app(foreground: foreground))
    }

    private func perform(_ effects: [WatchEffect], env: WatchEnvironment, inputTime: ContinuousClock.Instant) {
        var remaining = effects[...]
        while let effect = remaining.popFirst() {
            switch effect {
            case .enqueue(let event):
                do {
                    let client = shell.withLockedValue { $0.link.client }
                    try outbox.enqueue(event) { client?.outboxChanged() }
                } catch {
                    // Not on disk, so not saved: say so instead of the success that would follow.
                    logger.error("could not save a score to the outbox: \(error)")
                    let failure = shell.withLockedValue { shell -> [WatchEffect] in
                        shell.watch.pendingScores = outbox.pending
                        shell.watch.pendingTransfers = shell.watch.pendingScores.count
                        return WatchMachine.reduce(&shell.watch, .saveFailed("\(error)"), env)
                    }
                    remaining = failure[...]
                }
            case .haptic(let kind, let value):
                let elapsed = inputTime.duration(to: .now).components
                let latency = Int(elapsed.seconds) * 1_000_000 + Int(elapsed.attoseconds / 1_000_000_000_000)
                shell.withLockedValue { $0.hapticCounts[kind, default: 0] += 1 }
                do { try hapticLog.append(line: HapticRecord(at: env.now, kind: kind, value: value, latencyMicros: latency).compactJSON()) } catch {
                    logger.error("could not write the haptic log: \(error)")
                }
            case .announce(let text):
                do { try announcementLog.append(line: AnnouncementRecord(at: env.now, text: text).compactJSON()) } catch {
                    logger.error("could not write the announcement log: \(error)")
                }
            case .logComplication(let record):
                if record.delivered == .userInfo {
                    logger.warning("complication budget spent for today (\(record.day), \(configuration.complicationBudget) transfers): the watch face keeps what it showed; the transfer went to the app as a queued one (\(record.inline))")
                }
                do { try complicationLog.append(line: Array(HyzerJSON.encoder().encode(record))) } catch {
                    logger.error("could not write the complication log: \(error)")
                }
            }
        }
    }

    // MARK: Reading

    public var current: WatchState { shell.withLockedValue { $0.watch } }

    /// Haptics of `kind` since this session began.
    public func hapticCount(_ kind: HapticKind) -> Int { shell.withLockedValue { $0.hapticCounts[kind, default: 0] } }

    /// The frame to draw now. Wrist down, that is the always-on display: what the face showed at
    /// its last update, updated once a minute.
    public func frame(measurer: TextMeasurer, at time: Date? = nil) -> DisplayList {
        let (state, at) = shown(at: time)
        return WatchLayout.displayList(state, now: at, size: configuration.size, measurer: measurer,
                                       clock: shell.withLockedValue { $0.statusClock } ? WatchLayout.clockText(at) : nil)
    }

    /// The state on the face and the moment it shows: now, or wrist down the last minute update.
    private func shown(at time: Date? = nil) -> (WatchState, Date) {
        let now = time ?? now()
        return shell.withLockedValue { shell in
            let state = shell.watch
            guard state.wristDown else {
                shell.alwaysOn = nil
                return (state, now)
            }
            // The system's own change (Return to Clock brings the watch face) shows at once.
            if let shown = shell.alwaysOn, now.timeIntervalSince(shown.at) < Self.alwaysOnInterval, now >= shown.at,
               shown.state.appInBackground == state.appInBackground {
                var kept = shown.state
                kept.wristDown = true
                return (kept, shown.at)
            }
            shell.alwaysOn = (state, now)
            return (state, now)
        }
    }

    /// The always-on display updates at most this often.
    public static let alwaysOnInterval: TimeInterval = 60

    /// Whether the status-bar time shows in the clock area (the device chrome turns it on).
    public func setStatusClock(_ on: Bool) {
        shell.withLockedValue { $0.statusClock = on }
        changed()
    }


    /// The face's accessibility tree as `dump FILE.json` writes it, with where the face, crown and
    /// side button are in the window.
    public func accessibilityDump(measurer: TextMeasurer, window: WindowGeometry) -> AccessibilityDump {
        let list = frame(measurer: measurer)
        let state = current
        return AccessibilityDump(screen: state.screenName, size: configuration.size.rawValue, width: Int(list.width), height: Int(list.height),
                                 textSize: state.textSize.rawValue, wristDown: state.wristDown, reduceMotion: state.reduceMotion,
                                 rowsPerScreen: WatchLayout.visibleRows(size: configuration.size, textSize: state.textSize),
                                 complicationTransfersLeft: state.complicationBudget.remaining(on: ComplicationBudget.day(of: now())),
                                 window: window, tree: list.accessibility)
    }

    /// Performs whatever has come due by the watch's clock (the voice overlay's auto-save). The
    /// host calls it before each frame; it sends nothing when nothing is due.
    public func fireTimers() {
        if let due = current.nextTimer, due <= now() { send(.clock) }
    }

    /// Whether the face should be redrawn again soon without any input (an animation runs, or a
    /// relative age or banner will change): the host's wait timeout.
    public func nextRedraw() -> TimeInterval {
        let now = now()
        let state = current
        if state.wristDown {
            // Always on: the next minute update (or the auto-save, which still happens).
            let next = shell.withLockedValue { $0.alwaysOn?.at.addingTimeInterval(Self.alwaysOnInterval) } ?? now
            return max(0.001, min(next.timeIntervalSince(now), state.nextTimer.map { $0.timeIntervalSince(now) } ?? .infinity))
        }
        if state.isAnimating(at: now) { return 1.0 / 60 }
        var wait: TimeInterval = 1
        if let change = state.nextStillChange(after: now) { wait = min(wait, change.timeIntervalSince(now)) }
        if let banner = state.banner, banner.until > now { wait = min(wait, banner.until.timeIntervalSince(now)) }
        if let due = state.nextTimer { wait = min(wait, due.timeIntervalSince(now)) }
        if let age = state.age(at: now), age <= WatchState.staleAfter { wait = min(wait, WatchState.staleAfter - age + 0.001) }
        return max(0.001, wait)
    }
}

/// What `dump FILE.json` writes: the face's accessibility tree (each element's role, label, value,
/// hint and frame in face pixels, in VoiceOver's reading order) and the settings that shape it.
public struct AccessibilityDump: Sendable, Codable, Hashable {
    /// `leaderboard`, `crown`, `voice`, `final`, `no-round` or `watch-face`.
    public var screen: String
    /// Case size in mm.
    public var size: Int
    /// The face in pixels (2 per point).
    public var width: Int
    public var height: Int
    public var pixelsPerPoint = 2
    public var textSize: String
    public var wristDown: Bool
    public var reduceMotion: Bool
    /// Leaderboard rows wholly on screen at this size and text size.
    public var rowsPerScreen: Int
    /// Complication transfers the watch face still takes today (`--complication-budget`).
    public var complicationTransfersLeft: Int
    /// Where the face, the crown and the side button are in the window (its frames are the tree's
    /// face pixels scaled and moved into the display).
    public var window: WindowGeometry
    public var tree: AccessibilityElement

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

/// The watch's clock as `advance-clock` moves it: real time plus an offset that grows at each
/// advance. The phone's clock is real time; a time it stamped is mapped with the offset of its own
/// moment, so standings stamped before an advance are older by it, as they would be on a device
/// where that time passed (the application context held while the app was in the background, the
/// phone's file read on return).
struct AdvancedClock: Sendable {
    /// Each advance: from when (real time) and the offset from then on.
    private var steps: [(since: Date, offset: TimeInterval)] = []

    var offset: TimeInterval { steps.last?.offset ?? 0 }

    mutating func advance(by interval: TimeInterval, at now: Date) { steps.append((now, offset + interval)) }

    /// The offset in force at `date` (real time).
    func offset(at date: Date) -> TimeInterval { steps.last { $0.since <= date }?.offset ?? 0 }
}
