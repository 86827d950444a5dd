import Foundation
import HyzerKit
import HyzerLink
import Logging
import NIOConcurrencyHelpers

/// `hyzer-hub serve`: the hub behind the link server. Acks a watch's score only after it is
/// committed, rejects what can never be accepted with the reason, pushes standings on every change
/// (its own and other `hyzer-hub` processes', noticed by polling the change sequence).
public final class HubLinkService: LinkServerDelegate {
    public let hub: Hub
    private let logger = Logger(label: "hyzer.hub.serve")
    /// A watch can send rejected scores as fast as it likes: their lines are throttled as the
    /// link's refusals are (PROTOCOL.md, "Handshake", point 6).
    private let rejections = LogThrottle()
    private let server = NIOLockedValueBox<LinkServer?>(nil)
    private let lastPushed = NIOLockedValueBox<StandingsSnapshot?>(nil)
    /// Exports of `standings.json` that follow a push (see `publish`).
    private let exportQueue = DispatchQueue(label: "hyzer.hub.export")
    /// The newest snapshot an export queued on `exportQueue` will write (nil: none queued).
    private let pendingExport = NIOLockedValueBox<StandingsSnapshot?>(nil)
    /// A `publishIfChanged` is waiting on the score queue.
    private let checkQueued = NIOLockedValueBox(false)

    /// When a watch's complications are worth one of its transfers (`serve --complication-updates`).
    public let complicationMode: ComplicationPolicy.Mode
    /// Each watch's policy, by device id: kept across its reconnections (what it decided while
    /// the watch was away waits in `complicationWatches`).
    private let complicationPolicies = NIOLockedValueBox<[String: ComplicationPolicy]>([:])
    /// Every watch whose face showed a complication when it paired (its wearer), and the
    /// transfers made for it while it was away. WatchConnectivity queues
    /// `transferCurrentComplicationUserInfo` whether or not the watch is in range, and an app
    /// cannot tell; the queue is delivered in order when the watch is back, each transfer spending
    /// its budget then. So a phone that changes three times while the watch is away costs it
    /// three transfers, as on a device. Kept in serve's memory, at most `maxQueuedTransfers` a watch.
    private let complicationWatches = NIOLockedValueBox<[String: ComplicationWatch]>([:])
    private struct ComplicationWatch {
        var wearer: String?
        var queued: [ComplicationTransfer] = []
    }
    public static let maxQueuedTransfers = 100

    /// The phone app's lifecycle and the watch apps it can reach (`hub/app-state.json`).
    public let app: PhoneApp
    /// Told of every snapshot published (the phone's web face follows the same changes the
    /// watches are pushed).
    private let publishedObservers = NIOLockedValueBox<[@Sendable (StandingsSnapshot) -> Void]>([])

    public func observePublished(_ observer: @escaping @Sendable (StandingsSnapshot) -> Void) {
        publishedObservers.withLockedValue { $0.append(observer) }
    }

    /// Told after every change this process wrote itself (a watch's score, a write from the page):
    /// the cloud sync uploads it at once. Another process's commit reaches serve through the
    /// store's commit signal; its own commits signal nothing (the store is only polled for them).
    private let ownWriteObservers = NIOLockedValueBox<[@Sendable () -> Void]>([])

    public func observeOwnWrites(_ observer: @escaping @Sendable () -> Void) {
        ownWriteObservers.withLockedValue { $0.append(observer) }
    }

    /// This process wrote a change outside the link (the page): pushed as another process's
    /// commit is, and told to whoever follows this process's own writes.
    public func wrote() {
        storeChanged()
        tellOwnWrite()
    }

    private func tellOwnWrite() {
        for observer in ownWriteObservers.withLockedValue({ $0 }) { observer() }
    }

    /// - Parameters:
    ///   - appStatusFile: where the app's state is written (`hub/app-state.json`); nil: nowhere.
    ///   - backgroundDuration: how long an app sent to the background runs before iOS suspends it.
    public init(hub: Hub, complicationMode: ComplicationPolicy.Mode = .worthwhile, appState: PhoneAppState = .foreground,
                appStatusFile: URL? = nil, backgroundDuration: TimeInterval = 5) {
        self.hub = hub
        self.complicationMode = complicationMode
        let server = self.server
        app = PhoneApp(state: appState, statusFile: appStatusFile, backgroundDuration: backgroundDuration,
                       pairedDevices: { server.withLockedValue { $0 }?.pairedDevices ?? [] })
        app.changed = { [weak self] was, now in
            guard let self else { return }
            // Launched from not running: what each watch's complications were sent is forgotten.
            if was == .notRunning { complicationPolicies.withLockedValue { $0 = [:] } }
            // Stopped: the watches hear at once that standings are no longer confirmed.
            if was.runs, !now.runs { server.withLockedValue { $0 }?.beatNow() }
            guard now.runs, !was.runs else { return }
            // Running again: what changed meanwhile goes out, on the queue that publishes; a
            // launch publishes what it has, so each complication watch gets its `first` now,
            // not at the next change.
            guard was == .notRunning else { return storeChanged() }
            guard let server = server.withLockedValue({ $0 }) else { return publish() }
            server.scoreQueue.async { self.publish() }
        }
    }

    public func watch(_ deviceID: String, appActive: Bool?) { app.watch(deviceID, appActive: appActive) }

    /// The server this service pushes through; set once, right after both exist.
    public func attach(_ server: LinkServer) { self.server.withLockedValue { $0 = server } }

    /// A watch's score wakes no phone app: it comes as a user-info transfer, which iOS delivers to
    /// a suspended or not-running app when it next runs (only `sendMessage` wakes an iOS app). The
    /// store takes it as the system's queue holds it, and the watch gets its ack; the standings it
    /// changes go out when the app runs (`publish` sends nothing before). That ack is the
    /// system's: it says the score was delivered, not what the app made of it (no
    /// `classification`), so a watch learns of a discrepancy from the standings once the app runs,
    /// as on a device, where a transfer's completion carries nothing from the app.
    public func receive(score event: ScoreEvent, deviceID: String, respond: @Sendable (ScoreVerdict) -> Void) {
        do {
            let (result, snapshot) = try hub.appendForPush(event)
            switch result.outcome {
            case .stored(let classification):
                // The new standings go out first (they are what the wearer waits for), the ack
                // right after: both only once the score is committed.
                publish(snapshot, trigger: classification == .resolution ? .conflictResolution : .watchScore)
                respond(.stored(alreadyStored: false, classification: app.state.runs ? classification : nil))
                tellOwnWrite()
                logger.info("score from the watch", metadata: [
                    "device": "\(deviceID)", "event": "\(event.id)", "classification": "\(classification.rawValue)",
                ])
            case .alreadyStored, .unchanged: respond(.stored(alreadyStored: true))  // an append never answers unchanged
            }
        } catch let error as HubError {
            guard let reason = Self.rejectionReason(for: error) else {
                logger.error("could not store a score; the watch will send it again: \(error)")
                return respond(.retryLater)
            }
            rejections.log(logger, .warning, "rejected a score from \(deviceID): \(error.description)", kind: "rejected a score")
            respond(.rejected(reason, message: Self.messageForWatch(error)))
        } catch {
            logger.error("could not store a score; the watch will send it again: \(error)")
            respond(.retryLater)
        }
    }

    public func verdictIfStored(_ score: ScoreEvent) -> ScoreVerdict? {
        storedVerdict { try hub.storedResult(of: score).map { _ in .stored(alreadyStored: true) } }
    }

    public func verdictIfStored(id: UUID) -> ScoreVerdict? {
        storedVerdict {
            try hub.checkIDUnused(id)
            return nil
        }
    }

    /// What the log says of an id the link asks about: `lookup`'s verdict, the rejection its
    /// error names, or nil when the log could not be read (not knowing is not a reason to ack:
    /// the link's own answer stands).
    private func storedVerdict(_ lookup: () throws -> ScoreVerdict?) -> ScoreVerdict? {
        do {
            return try lookup()
        } catch let error as HubError {
            guard let reason = Self.rejectionReason(for: error) else { return nil }
            return .rejected(reason, message: Self.messageForWatch(error))
        } catch {
            logger.error("could not look for an event id in the log: \(error)")
            return nil
        }
    }

    /// The phones' own device ids ("phone", and "phone-…" in a shared round): the scores entered
    /// on a phone carry them, and a watch paired under one would score as that phone. And an id
    /// with an @ (`Hub.deviceIDProblem`).
    public func refusal(forDeviceID deviceID: String) -> String? {
        if let problem = Hub.deviceIDProblem(deviceID) { return problem }
        guard deviceID == Hub.phoneDeviceID || deviceID.hasPrefix(Hub.phoneDeviceID + "-") else { return nil }
        return "The device id \"\(deviceID)\" is a phone's own (the phones' scores carry \"\(Hub.phoneDeviceID)\" and \"\(Hub.phoneDeviceID)-…\"); a watch pairs with an id of its own."
    }

    /// A suspended or closed phone app sends nothing, so its heartbeats confirm no standings.
    public var confirmsStandings: Bool { app.runs }

    public func currentSnapshot() -> StandingsSnapshot? {
        do { return try hub.snapshot() } catch {
            logger.error("could not build the standings snapshot: \(error)")
            return nil
        }
    }

    /// Pushes the standings to every paired watch, then exports `standings.json` (once the pushes
    /// are written, on a queue of its own, so the file's encoding and syncs do not compete with the
    /// push on its way; at once when no watch is paired), and logs who moved and why. A
    /// nil trigger (a change another process made) is a conflict resolution when it cleared a
    /// discrepancy flag, else a score entered on the phone.
    /// `prebuilt` is the snapshot a watch's score led to, built from memory as it committed.
    public func publish(_ prebuilt: StandingsSnapshot? = nil, trigger: StandingsChangeTrigger? = nil) {
        // A suspended app sends nothing (and exports nothing): what changed meanwhile goes out when
        // it runs again.
        guard app.runs else { return }
        do {
            // The paired watches first, standings.json after: the file is the fallback for a watch
            // whose link is down, so its fsync stays off the path of a push.
            let snapshot = try prebuilt ?? hub.snapshot()
            let previous = lastPushed.withLockedValue { last -> StandingsSnapshot? in
                defer { if snapshot.supersedes(last) { last = snapshot } }
                return last
            }
            // The file and the web face after the pushes are written: neither competes with a
            // push on its way to a watch.
            let observers = publishedObservers.withLockedValue { $0 }
            let pushed = server.withLockedValue { $0 }?.broadcast(snapshot, then: { [self] in
                exportLater(snapshot)
                for observer in observers { observer(snapshot) }
            }) ?? false
            if !pushed {
                export(snapshot)
                for observer in observers { observer(snapshot) }
            }
            // Away or not, as the app cannot tell (see `complicationWatches`).
            for watch in complicationWatches.withLockedValue({ $0.map { (deviceID: $0.key, wearer: $0.value.wearer) } }) {
                updateComplication(of: watch.deviceID, wearer: watch.wearer, from: snapshot)
            }
            let before = previous?.round?.standings ?? [], after = snapshot.round?.standings ?? []
            let cleared = after.filter(\.discrepancy).count < before.filter(\.discrepancy).count
            let change = StandingsChange(previousStandings: before, newStandings: after,
                                         trigger: trigger ?? (cleared ? .conflictResolution : .localScore))
            if !change.positionChanges.isEmpty { logger.info("\(Self.describe(change))") }
        } catch {
            logger.error("could not publish standings: \(error)")
        }
    }

    public func paired(complicationWatch deviceID: String, wearer: String?) {
        // The system delivers what waited for this watch, in order, whatever the app's state now.
        let (delivered, known) = complicationWatches.withLockedValue { watches -> (Int, Bool) in
            let known = watches[deviceID] != nil
            let queued = watches[deviceID]?.queued ?? []
            watches[deviceID] = ComplicationWatch(wearer: wearer)
            let server = server.withLockedValue { $0 }
            for transfer in queued { server?.send(transfer, toDevice: deviceID) }
            return (queued.count, known)
        }
        if delivered > 0 { logger.info("\(deviceID) is back: \(ListText.count(delivered, "complication transfer")) queued while it was away delivered") }
        // A watch back from away got what changed meanwhile from the queue: a reconnection is not a
        // change, so only a watch new to the phone (or one it forgot, the app having been closed) is
        // considered now.
        let policyKept = complicationPolicies.withLockedValue { $0[deviceID] != nil }
        guard !(known && policyKept), app.runs, let snapshot = lastPushed.withLockedValue({ $0 }) ?? currentSnapshot() else { return }
        updateComplication(of: deviceID, wearer: wearer, from: snapshot)
    }

    /// Sends the watch `deviceID` a complication transfer when its policy says the change is worth
    /// one. The content is the wearer's (its hello's `wearer`, as `NameText.wearerIndex` reads it, or the watch paired as
    /// `watch-NAME`), else the leader's.
    private func updateComplication(of deviceID: String, wearer: String?, from snapshot: StandingsSnapshot) {
        let standings = snapshot.round?.standings ?? []
        let player = wearer.flatMap { NameText.wearerIndex($0, in: standings.map(\.name)) }.map { standings[$0] }
            ?? standings.first { Player.watchDeviceID(wearer: $0.name) == deviceID }
        let content = ComplicationContent(round: snapshot.round, wearer: player?.playerID)
        // A watch app in front refreshes its own complications for free: no transfer is worth it.
        let appInFront = complicationMode == .worthwhile && app.watchAppInFront(deviceID)
        let decision = complicationPolicies.withLockedValue { policies -> (content: ComplicationContent, reason: ComplicationPolicy.Reason)? in
            if appInFront {
                policies[deviceID, default: ComplicationPolicy(mode: complicationMode)].shownByApp(content)
                return nil
            }
            return policies[deviceID, default: ComplicationPolicy(mode: complicationMode)].consider(content)
        }
        guard let decision else { return }
        let transfer = ComplicationTransfer(reason: decision.reason, sequence: snapshot.sequence, asOf: snapshot.lastUpdatedAt, content: decision.content)
        // Checked and queued under the lock `paired` delivers the queue under: a watch that comes
        // back meanwhile either gets this in its queue or is found connected.
        let (sent, dropped) = complicationWatches.withLockedValue { watches -> (Bool, Bool) in
            let server = server.withLockedValue { $0 }
            if server?.hasComplicationWatch(deviceID) == true {
                server?.send(transfer, toDevice: deviceID)
                return (true, false)
            }
            watches[deviceID, default: ComplicationWatch(wearer: wearer)].queued.append(transfer)
            let over = watches[deviceID]!.queued.count > Self.maxQueuedTransfers
            if over { watches[deviceID]!.queued.removeFirst() }
            return (false, over)
        }
        logger.info("complication transfer to \(deviceID) (\(decision.reason.rawValue))\(sent ? "" : ", queued: the watch is away"): \(decision.content.inline)")
        if dropped { logger.warning("\(deviceID) has been away for \(Self.maxQueuedTransfers) complication transfers: the oldest queued is dropped") }
    }

    private func export(_ snapshot: StandingsSnapshot) {
        do { try hub.exportSnapshot(snapshot) } catch { logger.error("could not write standings.json: \(error)") }
    }

    /// Exports `snapshot` on the export queue. Exports are coalesced: while one is queued, a newer
    /// snapshot replaces the one it will write, so a burst of changes queues one export, not one
    /// per change (each held its whole snapshot until written).
    private func exportLater(_ snapshot: StandingsSnapshot) {
        let queued = pendingExport.withLockedValue { pending -> Bool in
            defer { if snapshot.supersedes(pending) { pending = snapshot } }
            return pending != nil
        }
        guard !queued else { return }
        exportQueue.async { [self] in
            guard let newest = pendingExport.withLockedValue({ $0.take() }) else { return }
            export(newest)
        }
    }

    /// Another process may have committed (the store's files changed): check on the queue that
    /// publishes scores, so a change this process is still publishing is not exported twice.
    ///
    /// Notices come in bursts (a command's commits, the poll seeing this process's own writes):
    /// one check waiting on the queue covers a whole burst, one read of the change sequence.
    public func storeChanged() {
        guard let server = server.withLockedValue({ $0 }) else { return publishIfChanged() }
        guard checkQueued.withLockedValue({ queued in defer { queued = true }; return !queued }) else { return }
        server.scoreQueue.async {
            self.checkQueued.withLockedValue { $0 = false }
            self.publishIfChanged()
        }
    }

    /// A change this process committed outside the link (the cloud sync applied a download), with
    /// its standings when they were built as it committed: pushed on the queue that publishes
    /// scores, unless a newer change went out meanwhile. (A newer change not out yet follows it:
    /// its own push, or the store watcher's.)
    public func storeChanged(to snapshot: StandingsSnapshot?) {
        guard let snapshot, let server = server.withLockedValue({ $0 }) else { return storeChanged() }
        server.scoreQueue.async {
            guard snapshot.sequence > self.lastPushed.withLockedValue({ $0?.sequence ?? -1 }) else { return }
            self.publish(snapshot)
        }
    }

    /// Publishes when another process (a `hyzer-hub` command on the phone) committed a change
    /// since the last push.
    public func publishIfChanged() {
        do {
            let sequence = try hub.currentSequence()
            if sequence > lastPushed.withLockedValue({ $0?.sequence ?? -1 }) { publish() }
        } catch {
            logger.error("could not read the change sequence: \(error)")
        }
    }

    /// "standings changed (watchScore): Jake 2 → 1, Mike 1 → 2".
    static func describe(_ change: StandingsChange) -> String {
        let names = Dictionary(change.newStandings.map { ($0.playerID, $0.name) }, uniquingKeysWith: { first, _ in first })
        let moves = change.positionChanges
            .sorted { ($0.value.to, names[$0.key] ?? "") < ($1.value.to, names[$1.key] ?? "") }
            .map { "\(names[$0.key] ?? $0.key) \($0.value.from) → \($0.value.to)" }
        return "standings changed (\(change.trigger.rawValue)): \(moves.joined(separator: ", "))"
    }

    /// The reason as a watch says it: no command lines to type on a phone.
    static func messageForWatch(_ error: HubError) -> String {
        switch error {
        case .noActiveRound: "No round is in play on the phone (it was finished, or not started yet); this score was not recorded."
        default: error.description
        }
    }

    /// What the watch is told for a refusal; nil for a failure that may pass (disk full, I/O).
    static func rejectionReason(for error: HubError) -> Rejection.Reason? {
        switch error {
        case .noActiveRound, .roundFinished: .noActiveRound
        case .score(.strokesOutOfRange): .strokesOutOfRange
        case .score(.holeOutOfRange): .holeOutOfRange
        case .score(.unknownPlayer): .unknownPlayer
        case .score(.wrongRound): .wrongRound
        case .score(.roundNotAcceptingScores): .roundNotAcceptingScores
        case .score(.unknownSupersededEvent), .score(.supersedesDifferentScore), .score(.supersedesReplacedScore): .invalidCorrection
        case .score(.unknownReporter): .unknownReporter
        case .score(.invalidField): .invalidScore
        case .eventIDInUse: .eventIDInUse
        default: nil
        }
    }
}
