import Foundation
import HubCore
import HyzerKit
import HyzerStorage
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// The seeds' `SyncState`: what `cloud status` says about a running phone.
public enum SyncState: String, Sendable, Codable {
    /// Connected; nothing waits to upload.
    case idle
    /// A pass is uploading or downloading.
    case syncing
    /// The cloud cannot be reached; scores keep committing here and wait.
    case offline
    /// The cloud answers but cannot be used (a refused login, a database that does not exist).
    case error
}

/// What a running `serve` last knew about its cloud, in `<home>/hub/cloud-status.json`.
public struct SyncStatus: Sendable, Codable, Equatable {
    public var state: SyncState
    /// Why the cloud is offline or in error; nil otherwise.
    public var detail: String?
    public var since: Date
    /// The last pass that completed (everything uploaded, everything downloaded).
    public var lastSyncAt: Date?
    public var pid: Int32
    /// Shared rounds that name this phone's owner, found by the last pass and not joined: joining
    /// asks (`hyzer-hub round join ROUND-ID`) unless the owner said `cloud set --auto-join`.
    public var offers: [RoundOffer] = []

    public static func read(from url: URL) -> SyncStatus? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? HyzerJSON.decoder().decode(SyncStatus.self, from: data)
    }

    func write(to url: URL) {
        guard let data = try? HyzerJSON.encoder().encode(self) else { return }
        // A status, not a record: replaced whole, not fsynced.
        try? DurableFile.replace(url, with: data, durable: false)
    }
}

/// A shared round that names this phone's owner, offered rather than joined: who organized it
/// (the role the cloud recorded, and the name their phone gave), where, and with whom.
public struct RoundOffer: Sendable, Codable, Equatable {
    public var roundID: UUID
    public var course: String
    public var organizer: String
    public var organizerName: String?
    public var players: [String]

    init(_ round: CloudRound) {
        roundID = round.id
        course = round.courseName
        organizer = round.organizer
        organizerName = round.organizerName
        players = round.players.map(\.name)
    }

    /// "Maple Hill with Jake, Sarah, organized by jake_phone (Jake)".
    public var description: String {
        "\(course) with \(players.joined(separator: ", ")), organized by \(organizer)\(organizerName.map { " (\($0))" } ?? "")"
    }
}

/// What one pass did.
public struct PassResult: Sendable {
    public var uploaded = 0
    /// Rounds finished here whose end this pass took to the cloud.
    public var completionsUploaded = 0
    public var downloaded = 0
    /// The cloud's rows the pass read (a phone's own scores are not read back: docs/SYNC.md).
    public var read = 0
    public var offers: [RoundOffer] = []
    /// Each shared round's cursor when the pass ended.
    public var cursors: [UUID: Int64] = [:]
    /// Whether a newly shared round could have been offered (an owner named, no round in play).
    public var discovering = false
}

/// Keeps one phone in step with the cloud (docs/SYNC.md): uploads what waits (oldest first, each
/// event acknowledged only after the cloud's commit), downloads every shared round past its cursor,
/// offers (or with `--auto-join` joins) rounds that name the phone's owner, and does it again on
/// every local change (`kick`) and every `pollInterval` in case a notification was lost. A
/// notification that concerns it wakes a shorter pass that reads only the rounds it names, past
/// their cursors. Offline, it retries with backoff; nothing here ever blocks a score.
public final class CloudSync: Service, Sendable {
    public let hub: Hub
    let statusFile: URL?
    let logger: Logger
    let pollInterval: Duration
    /// Called after a pass changed the local store (new events, a joined or completed round),
    /// with the standings it led to when they were built as it committed (else nil: read them);
    /// nil writes `standings.json`.
    let onChange: (@Sendable (StandingsSnapshot?) -> Void)?
    private let status: NIOLockedValueBox<SyncStatus>
    private let onStatusChange: @Sendable (SyncStatus) -> Void
    /// Where `kick` goes: the stream of whoever waits now, tagged so that a waiter that ends late
    /// (an abandoned connection's) cannot unhook the one that replaced it.
    private let wake = NIOLockedValueBox<(tag: UInt64, continuation: AsyncStream<Void>.Continuation?)>((0, nil))
    /// What notifications may wake a pass for, as the last pass left it: each shared round's cursor,
    /// and whether a newly shared round could be offered (an owner, no round in play).
    private let interest = NIOLockedValueBox<(cursors: [UUID: Int64], discovering: Bool)>(([:], true))
    /// What the next pass is for: everything (a kick, a poll, a newly shared round), or only the
    /// rounds that notifications named.
    private struct Pending {
        var everything = false
        /// The whole pass reads settled rounds too (the poll's; `CloudWork.settled`).
        var settled = false
        /// Rounds named with a number past this phone's cursor, and rounds said to be completed.
        var rounds: [UUID: Int64] = [:]
        var completed: Set<UUID> = []

        mutating func add(_ wake: Wake) {
            switch wake {
            case .round(let round, let number): rounds[round] = max(number, rounds[round] ?? 0)
            case .completed(let round): completed.insert(round)
            case .everything: everything = true
            }
        }
    }
    private let pending = NIOLockedValueBox(Pending(everything: true, settled: true))
    /// Notifications for rounds this phone did not follow when they came, since the last pass
    /// ended. The pass running then may adopt such a round (joined, shared, found) after reading
    /// it, and what was said of it meanwhile would be heard by no one until the poll: when the pass
    /// ends, those of the rounds it now follows are followed. Bounded, as anyone may send any
    /// round's id: a flood of made-up rounds costs at most the poll's delay.
    private let unheard = NIOLockedValueBox(Pending())
    static let unheardLimit = 256
    /// Notifications are hints anyone may send: when they may wake a pass.
    private let gate = NIOLockedValueBox(HintGate(quiet: quietAfterFruitlessPass, now: .now))
    static let quietAfterFruitlessPass = Duration.milliseconds(100)
    /// How long the cloud may say nothing before a pass gives the connection up (30 s; tests
    /// shorten it).
    private let silence: Duration
    /// Events per upload call. A call of 1,000 is ~190–250 KB: over a link slower than ~7 KB/s it
    /// is not through in the 30 s of silence allowed, and sent again it would fail again for good.
    /// So a pass that fails makes the next ones send a quarter as many a call (down to 25), and
    /// each pass that ends well doubles it back (up to 1,000).
    private let uploadBatch = NIOLockedValueBox(Hub.eventsPerUpload)
    static let smallestUploadBatch = 25

    /// Follows the hub's cloud configuration: `cloud set` to another URL reconnects there,
    /// `cloud unset` stops syncing until a cloud is set again.
    /// - onStatusChange: told of every change of the sync state (the phone's face shows it).
    public init(hub: Hub, statusFile: URL?, logger: Logger,
                pollInterval: Duration = .seconds(15), silence: Duration = .seconds(30), onChange: (@Sendable (StandingsSnapshot?) -> Void)? = nil,
                onStatusChange: @escaping @Sendable (SyncStatus) -> Void = { _ in }) {
        self.hub = hub
        self.silence = silence
        self.statusFile = statusFile
        self.logger = logger
        self.pollInterval = pollInterval
        self.onChange = onChange
        self.onStatusChange = onStatusChange
        status = NIOLockedValueBox(SyncStatus(state: .offline, detail: "connecting", since: Date(), lastSyncAt: nil, pid: getpid()))
    }

    public var currentStatus: SyncStatus { status.withLockedValue { $0 } }

    /// Something changed here (a score committed): upload it now.
    public func kick() {
        pending.withLockedValue { $0.everything = true }
        _ = wake.withLockedValue { $0.continuation }?.yield()
    }

    /// The `application_name` of this home's sync connections: one `serve` runs per home, so any
    /// other session of its role with this name is one the network lost (`endOtherSessions`).
    public static func sessionName(hubID: String) -> String { "hyzer-hub serve \(hubID)" }

    public func run() async throws {
        var backoff = Duration.milliseconds(250)
        let session = try await Self.blocking { Self.sessionName(hubID: try self.hub.hubID) }
        var announcedUnset = false
        var lastFailure: SyncState?
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            // The configuration as it is now: set, changed or forgotten since the last connection.
            guard let configuration = try? await Self.blocking({ try self.hub.cloudConfiguration() }) else {
                if !announcedUnset {
                    logger.debug("no cloud set: not syncing (hyzer-hub cloud set URL starts again)")
                    if let statusFile { try? FileManager.default.removeItem(at: statusFile) }
                    announcedUnset = true
                }
                // `cloud set` writes the store, which kicks: no polling while no cloud is set.
                await untilShutdown { await self.waitForKick(atMost: .seconds(60)) }
                continue
            }
            announcedUnset = false
            let address: CloudAddress
            do { address = try CloudAddress(parsing: configuration.url) } catch {
                set(.error, detail: "The cloud URL kept in this home cannot be used: \(error.description) Set it again with: hyzer-hub cloud set URL")
                await untilShutdown { await self.waitForKick(atMost: .seconds(60)) }
                continue
            }
            do {
                let cloud = try await CloudConnection.connect(to: address, session: session, logger: logger)
                logger.info("cloud connected: \(address.redacted)\(configuration.player.map { " (\($0)'s phone)" } ?? "")")
                // Connected: no longer "cannot be reached", and the first pass is under way (on a
                // slow link its first call takes long enough to read the status meanwhile).
                set(.syncing)
                lastFailure = nil
                // Before the listener takes a second connection of the role's four.
                let ended = try await cloud.whileConnected(silence: self.silence) { try await cloud.endOtherSessions(named: session) }
                if ended > 0 { logger.info("ended \(ListText.count(ended, "session")) an earlier connection left open on the cloud's server") }
                backoff = .milliseconds(250)
                do {
                    try await cancelWhenGracefulShutdown {
                        try await cloud.whileConnected { try await self.stayInStep(with: cloud, session: session, configuration: configuration) }
                    }
                } catch {
                    await cloud.close()
                    throw error
                }
                await cloud.close()
            } catch is CancellationError {
                break
            } catch CloudError.reconfigured {
                logger.info("the cloud configuration changed: reconnecting")
                continue
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { break }
                let reason = (error as? CloudError) ?? CloudError.describe(error, address: address)
                let state: SyncState = if case .unusable = reason { .error } else { .offline }
                set(state, detail: reason.description)
                let said = HubText.sentence(reason.description)
                // Said once as a warning; offline again (a phone out of coverage retries every 5 s for
                // as long as it lasts, each time with the reason of the moment) is only information,
                // until it connects.
                let again = lastFailure == state
                lastFailure = state
                logger.log(level: again ? .info : .warning, "cloud \(state.rawValue)\(again ? " still" : ""): \(said) Retrying in \(backoff).")
                await untilShutdown { [backoff] in try? await Task.sleep(for: backoff) }
                backoff = min(backoff * 2, .seconds(5))
            }
        }
        logger.debug("cloud sync stopped")
    }

    /// Runs `body`, cut short by a graceful shutdown (serve's SIGTERM or SIGINT).
    private func untilShutdown(_ body: @escaping @Sendable () async -> Void) async {
        await cancelWhenGracefulShutdown { await body() }
    }

    /// A stream of wakes that `kick` feeds until `unhook(tag)`.
    private func hookWakes() -> (AsyncStream<Void>, AsyncStream<Void>.Continuation, UInt64) {
        let (wakes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let tag = wake.withLockedValue { wake in
            wake = (wake.tag + 1, continuation)
            return wake.tag
        }
        return (wakes, continuation, tag)
    }

    private func unhook(_ tag: UInt64, _ continuation: AsyncStream<Void>.Continuation) {
        wake.withLockedValue { if $0.tag == tag { $0.continuation = nil } }
        continuation.finish()
    }

    /// Returns at the next `kick`, or after `limit`.
    private func waitForKick(atMost limit: Duration) async {
        let (kicks, continuation, tag) = hookWakes()
        defer { unhook(tag, continuation) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in kicks { return } }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// One connection's life: a pass at once, then one per notification, kick or poll.
    /// Notifications come on a connection of their own: any role may flood the channel, and a
    /// pass's replies must not queue behind what it sends.
    private func stayInStep(with cloud: CloudConnection, session: String, configuration: CloudConfiguration) async throws {
        let (wakes, continuation, tag) = hookWakes()
        defer { unhook(tag, continuation) }
        let listener = try await CloudConnection.connect(to: cloud.address, session: session, logger: logger)
        do {
            try await listener.whileConnected { try await self.passes(cloud, listener, wakes, continuation, configuration) }
        } catch {
            await listener.close()
            throw error
        }
        await listener.close()
    }

    private func passes(_ cloud: CloudConnection, _ listener: CloudConnection, _ wakes: AsyncStream<Void>,
                        _ continuation: AsyncStream<Void>.Continuation, _ configuration: CloudConfiguration) async throws {
        try await listener.listen { notifications in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Every phone hears every round's notifications (one channel, and any role may
                    // send any payload): only one that names a round this phone follows, past its
                    // cursor, or a newly shared round while one could be offered, wakes a pass.
                    for try await notification in notifications {
                        guard let wake = self.concerns(notification.payload) else { continue }
                        self.pending.withLockedValue { $0.add(wake) }
                        self.wakeForNotification(continuation)
                    }
                    throw CloudError.unreachable("The cloud closed the connection.")
                }
                group.addTask { [pollInterval] in
                    while true {
                        try await Task.sleep(for: pollInterval)
                        self.pending.withLockedValue { $0.settled = true }
                        self.kick()
                    }
                }
                group.addTask {
                    try await self.pass(cloud, configuration: configuration, settledToo: true)
                    for await _ in wakes {
                        let next = self.pending.withLockedValue { pending in
                            defer { pending = Pending() }
                            return pending
                        }
                        if next.everything {
                            try await self.pass(cloud, configuration: configuration, settledToo: next.settled)
                        }
                        // After a whole pass too: it leaves settled rounds alone unless it is the
                        // poll's, and what it did read is not read again (`follow`).
                        if !next.rounds.isEmpty || !next.completed.isEmpty {
                            try await self.follow(next.rounds, completed: next.completed, cloud)
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// What a notification wakes: a pass reading one round (its events, or whether it was
    /// completed), or a whole pass.
    private enum Wake {
        case round(UUID, Int64)
        case completed(UUID)
        case everything
    }

    /// What a notification (`ROUND-ID:NUMBER`, or `ROUND-ID:completed`) is worth here: a round this
    /// phone follows, past its cursor or said to be completed; a whole pass for a newly shared
    /// round that could be offered; nothing otherwise.
    private func concerns(_ payload: String) -> Wake? {
        let parts = payload.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = UUID(canonicalString: String(parts[0])) else { return nil }
        let (cursors, discovering) = interest.withLockedValue { $0 }
        if parts[1] == "completed" {
            guard cursors[id] != nil else { remember(.completed(id)); return nil }
            return .completed(id)
        }
        guard parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int64(parts[1]) else { return nil }
        if let cursor = cursors[id] { return number > cursor ? .round(id, number) : nil }
        if number > 0 { remember(.round(id, number)) }
        return number == 0 && discovering ? .everything : nil
    }

    /// Keeps a notification for a round not followed yet (`unheard`).
    private func remember(_ wake: Wake) {
        unheard.withLockedValue { if $0.rounds.count + $0.completed.count < Self.unheardLimit { $0.add(wake) } }
    }

    /// Wakes a pass now, or (after a pass that found nothing) once the quiet time is over.
    private func wakeForNotification(_ continuation: AsyncStream<Void>.Continuation) {
        switch gate.withLockedValue({ $0.hint(at: .now) }) {
        case .wake: continuation.yield()
        case .joined: return
        case .wakeAt(let first):
            Task {
                var until: ContinuousClock.Instant? = first
                while let instant = until {
                    try? await Task.sleep(until: instant)
                    until = self.gate.withLockedValue { $0.scheduledWake(at: .now) }
                }
                continuation.yield()
            }
        }
    }

    /// Uploads everything waiting, then downloads every shared round past its cursor (but a
    /// round this pass's upload caught up with, and settled rounds unless `settledToo`:
    /// `syncOnce`). A pass on which the cloud says nothing for 30 s (a connection gone silent)
    /// fails, and the loop reconnects; its next uploads go in calls a quarter as large (`uploadBatch`).
    func pass(_ cloud: CloudConnection, configuration: CloudConfiguration, settledToo: Bool) async throws {
        let batch = uploadBatch.withLockedValue { $0 }
        // A catch-up in smaller calls says so: `syncing` alone would not tell a slow link.
        // Said of the link, not of an upload: a download of the same pass says it too.
        let catchingUp = batch < Hub.eventsPerUpload ? "a slow or failing link: uploads go \(batch) scores a call after a pass that failed" : nil
        let result: PassResult
        do {
            result = try await cloud.whileConnected(silence: self.silence) {
                try await CloudSync.syncOnce(hub: self.hub, cloud: cloud, player: configuration.player, autoJoin: configuration.autoJoin,
                                             settledToo: settledToo, uploadBatch: batch, expecting: configuration, logger: self.logger,
                                             onState: { self.set($0, detail: $0 == .syncing ? catchingUp : nil) }, onChange: self.onChange)
            }
        } catch {
            // Whatever ended it: the call the silence cut short fails with the connection's
            // closing as often as with the silence itself.
            resizeUploads(max(batch / 4, Self.smallestUploadBatch))
            throw error
        }
        resizeUploads(min(batch * 2, Hub.eventsPerUpload))
        finished(result)
        let known = status.withLockedValue { Set($0.offers.map(\.roundID)) }
        for offer in result.offers where !known.contains(offer.roundID) {
            logger.notice("a shared round names this phone's owner: \(offer.description). Join it with: hyzer-hub round join \(offer.roundID.uuidString)")
        }
        set(.idle, lastSyncAt: Date(), offers: result.offers)
    }

    private func resizeUploads(_ size: Int) {
        let was = uploadBatch.withLockedValue { batch in
            defer { batch = size }
            return batch
        }
        if size != was { logger.info("uploads go \(size) scores a call\(size < was ? " after a pass that failed" : " after a pass that went well")") }
    }

    /// A notification's pass: reads only the rounds it named, past their cursors, and applies
    /// them (no upload, no discovery: a kick or the poll does those). A round said to be completed
    /// is read as a whole pass reads it (`round_info` says whether it is: a hint proves nothing).
    func follow(_ rounds: [UUID: Int64], completed: Set<UUID> = [], _ cloud: CloudConnection) async throws {
        let cursors = interest.withLockedValue { $0.cursors }
        // A number this phone has reached since (its own upload, a pass) is not read again.
        let unread = rounds.compactMap { round, number in
            cursors[round].flatMap { number > $0 && !completed.contains(round) ? (round, $0) : nil }
        }
        let ending = completed.compactMap { round in cursors[round].map { (round, $0) } }
        guard !unread.isEmpty || !ending.isEmpty else { return }
        let result = try await cloud.whileConnected(silence: self.silence) {
            var result = PassResult(cursors: cursors)
            var changes: [StandingsSnapshot?] = []
            for (round, start, whole) in unread.map({ ($0, $1, false) }) + ending.map({ ($0, $1, true) }) {
                let applied = whole
                    ? try await CloudSync.download(round, from: start, hub: self.hub, cloud: cloud, onState: { _ in })
                    : try await CloudSync.apply(round, from: start, through: nil, status: nil, hub: self.hub, cloud: cloud, onState: { _ in })
                result.downloaded += applied.added
                result.read += applied.read
                result.cursors[round] = applied.cursor
                if applied.changed { changes.append(applied.snapshot) }
            }
            // One round changed (the usual case): its standings as built; else read them.
            if !changes.isEmpty { try await Self.tell(self.onChange, self.hub, changes.count == 1 ? changes[0] : nil) }
            return result
        }
        // The state stays as the last whole pass left it (`idle`, and its time): a follow moves a
        // few rows, too quickly to be worth saying `syncing`, and is not a whole pass.
        finished(result, discovering: interest.withLockedValue { $0.discovering })
    }

    /// What the notifications may wake a pass for now, and whether this pass found anything.
    private func finished(_ result: PassResult, discovering: Bool? = nil) {
        interest.withLockedValue { $0 = (result.cursors, discovering ?? result.discovering) }
        gate.withLockedValue { $0.passEnded(foundSomething: result.uploaded > 0 || result.downloaded > 0, at: .now) }
        let heard = unheard.withLockedValue { unheard in
            defer { unheard = Pending() }
            return unheard
        }
        let followed = heard.rounds.filter { result.cursors[$0.key] != nil }.map { Wake.round($0.key, $0.value) }
            + heard.completed.filter { result.cursors[$0] != nil }.map(Wake.completed)
        guard !followed.isEmpty else { return }
        pending.withLockedValue { pending in followed.forEach { pending.add($0) } }
        _ = wake.withLockedValue { $0.continuation }?.yield()
    }

    /// One pass, usable without a running service (`hyzer-hub cloud sync`, `round join`).
    /// With `player`, it also looks for rounds naming them (offered, or joined with `autoJoin`).
    /// With `expecting`, it stops (`CloudError.reconfigured`) if the home's cloud configuration is
    /// no longer that one. `onChange` is told when the store changed (the default writes
    /// `standings.json`; a running `serve` pushes to its watches first).
    @discardableResult
    public static func syncOnce(hub: Hub, cloud: CloudConnection, player: String?, autoJoin: Bool = false, settledToo: Bool = true,
                                uploadBatch: Int = Hub.eventsPerUpload, expecting configuration: CloudConfiguration? = nil, logger: Logger,
                                onState: @Sendable (SyncState) -> Void = { _ in },
                                onChange: (@Sendable (StandingsSnapshot?) -> Void)? = nil) async throws -> PassResult {
        var result = PassResult()
        var changed = false
        var work = try await blocking { try hub.cloudWork(eventLimit: uploadBatch) }
        // `cloud set` or `cloud unset` since this connection was made: start over.
        if let configuration, work.configuration != configuration { throw CloudError.reconfigured }
        // Discovery: a round naming this phone's owner (by id once known, else by name), shared in
        // the last 12 hours, when nothing is in play here. Any phone of the cloud can share a round
        // naming anyone: it is offered, with who organized it, unless the owner said to join.
        result.discovering = player != nil && !work.roundInPlay
        if let player, !work.roundInPlay {
            let recent = Date().addingTimeInterval(-12 * 3600)
            let ownerID = try await blocking { try hub.ownerPlayerID() }
            for round in try await cloud.activeRounds(naming: player, playerID: ownerID, sharedAfter: recent)
            where try await blocking({ try hub.cloudRoundInfo(round.id) }) == nil {
                guard autoJoin else {
                    result.offers.append(RoundOffer(round))
                    continue
                }
                do {
                    _ = try await blocking { try hub.join(round) }
                    logger.info("joined the shared round on \(round.courseName) organized by \(round.organizer) (players: \(round.players.map(\.name).joined(separator: ", ")))")
                    changed = true
                    result.discovering = false
                    work = try await blocking { try hub.cloudWork(eventLimit: uploadBatch) }
                    break
                } catch {
                    logger.warning("could not join the shared round \(round.id): \(error)")
                }
            }
        }
        // A catch-up says so (more than one call's worth to upload); a score going up takes
        // milliseconds, and saying it would write the status and update the page on the score's
        // way to the other phones.
        if work.eventsToUpload.count >= uploadBatch { onState(.syncing) }
        for round in work.roundsToUpload {
            try await cloud.share(round)
            try await blocking { try hub.recordRoundUploaded(round.id, organizer: cloud.role) }
        }
        // Per round, the highest number the cloud gave this pass's uploads.
        var uploadedThrough: [UUID: Int64] = [:]
        while !work.eventsToUpload.isEmpty {
            // The events after these are read while these go up: the phone's disk and the cloud
            // work at once (the read was a fifth of a catch-up's upload).
            let through = work.lastEventRow
            async let following = blocking { try hub.cloudWork(eventLimit: uploadBatch, after: through) }
            // Round by round, each round's events in this phone's order.
            var byRound: [(UUID, [ScoreEvent])] = []
            for event in work.eventsToUpload {
                if let last = byRound.indices.last, byRound[last].0 == event.roundID { byRound[last].1.append(event) } else { byRound.append((event.roundID, [event])) }
            }
            for (roundID, events) in byRound {
                let upload = try await cloud.upload(events, roundID: roundID)
                try await blocking { try hub.recordUploaded(upload.acknowledged) }
                result.uploaded += upload.acknowledged.count
                if let highest = upload.acknowledged.map(\.cloudSeq).max() { uploadedThrough[roundID] = max(highest, uploadedThrough[roundID] ?? 0) }
                for (event, reason) in upload.refused {
                    logger.error("the cloud refused score \(event.id): \(reason)")
                    try await blocking { try hub.recordRefused(event.id, reason: reason) }
                }
            }
            work = try await following
        }
        for roundID in work.completionsToUpload {
            do {
                try await cloud.complete(roundID: roundID)
                result.completionsUploaded += 1
            } catch {
                // Neither the organizer's phone nor one that scored in it: the cloud will say so again.
                guard let refusal = CloudError.message(of: error, when: "HZ104") else { throw error }
                logger.error("the cloud refused this phone's completion of round \(roundID): \(refusal)")
            }
            try await blocking { try hub.recordCompletionUploaded(roundID) }
        }
        result.cursors = work.cursors
        for (roundID, start) in work.cursors {
            // This pass's upload continued the round's cursor: the cloud held nothing past it
            // before these events, and what comes after them is notified (or the poll finds it).
            // Reading the round again would only compete with the other phones taking them.
            if let through = uploadedThrough[roundID], start >= through { continue }
            // A round finished here and in the cloud changes only by a late upload, which is
            // notified: read on connecting and at the poll, not after every local change (a phone
            // keeps every round it ever shared).
            if !settledToo, work.settled.contains(roundID) { continue }
            let applied = try await download(roundID, from: start, hub: hub, cloud: cloud, onState: onState)
            result.downloaded += applied.added
            result.read += applied.read
            result.cursors[roundID] = applied.cursor
            changed = changed || applied.changed
        }
        if changed || result.uploaded > 0 { try await tell(onChange, hub, nil) }
        return result
    }

    /// The store changed: `onChange` is told (serve pushes to its watches, then writes
    /// `standings.json`), or without one `standings.json` is written here. `snapshot`: the
    /// standings of the change, when they were built as it committed.
    private static func tell(_ onChange: (@Sendable (StandingsSnapshot?) -> Void)?, _ hub: Hub, _ snapshot: StandingsSnapshot?) async throws {
        if let onChange { onChange(snapshot) } else { _ = try await blocking { try hub.exportSnapshot(snapshot) } }
    }

    /// What downloading a round did: how many events were new here, the cursor, whether the store
    /// changed, and the standings of its last change when they were built as it committed.
    struct Downloaded {
        var added = 0
        var read = 0
        var cursor: Int64
        var changed = false
        var snapshot: StandingsSnapshot?
    }

    /// Runs a call of the hub's store, which blocks (SQLite with a busy timeout, fsync, flock), on
    /// NIO's thread pool: never on the cooperative pool that every task of the process shares.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    /// Downloads one shared round past `start`, after checking the cloud's copy of it. The cloud
    /// numbers a round's events 1, 2, 3, … with no gap and never changes a round once shared: a
    /// copy that differs from what this phone first saw, or numbers that skip or go back, are said
    /// (the phone goes to `error`) and never followed.
    static func download(_ roundID: UUID, from start: Int64, hub: Hub, cloud: CloudConnection,
                         onState: @Sendable (SyncState) -> Void) async throws -> Downloaded {
        guard let first = try await blocking({ try hub.sharedRound(roundID) }) else { return Downloaded(cursor: start) }
        let shared: CloudRound
        do {
            // Not in the cloud yet: this phone's own round, waiting for its share.
            guard let found = try await cloud.round(id: roundID) else { return Downloaded(cursor: start) }
            shared = found
        } catch let problem as CloudRoundProblem {
            throw CloudError.unusable("The cloud's copy of the round on \(first.courseName) cannot be used: \(problem.problem). This phone keeps its own and does not follow the cloud's.")
        }
        let differences = shared.differences(from: first)
        guard differences.isEmpty else {
            throw CloudError.unusable("The cloud's copy of the round on \(first.courseName) (\(roundID.uuidString)) has another \(differences.joined(separator: ", ")) than when this phone first saw it; a round never changes once shared, so this phone does not follow it.")
        }
        // Against the cursor read before `round_info`: the numbers held past it are read after,
        // and another process's upload (`cloud sync` beside `serve`) may have added some since.
        guard shared.lastSeq >= start else {
            throw CloudError.unusable("The cloud's numbering of the round on \(first.courseName) went back from \(start) to \(shared.lastSeq); this phone does not follow it.")
        }
        let (localStatus, held) = try await blocking { (try hub.cloudRoundStatus(roundID), try hub.heldNumbers(of: roundID, after: start)) }
        let completes = shared.status == .completed && localStatus?.acceptsScores == true
        guard held.end < shared.lastSeq || completes else { return Downloaded(cursor: held.end) }
        return try await apply(roundID, from: held.end, through: shared.lastSeq, status: shared.status, held: held.next, hub: hub, cloud: cloud,
                               onState: onState)
    }

    /// Reads a round's events past `start` in batches and applies each (checked to follow the
    /// number it was read after, with no gap), up to `last` (the round's highest number when
    /// known; else until the cloud has no more). A read stops short of `held`, the next number
    /// this phone holds already (its own scores, numbered after another phone's; nil: none, or
    /// not known), and the read after it starts past the numbers held there: reading them back
    /// would cost the link, and a slow one most of a catch-up.
    static func apply(_ roundID: UUID, from start: Int64, through last: Int64?, status: RoundStatus?, held firstHeld: Int64? = nil,
                      hub: Hub, cloud: CloudConnection, onState: @Sendable (SyncState) -> Void) async throws -> Downloaded {
        var result = Downloaded(cursor: start)
        var held = firstHeld
        func limit(after number: Int64) -> Int {
            held.map { Int(max(1, min(Int64(CloudConnection.eventsPerRead), $0 - number - 1))) } ?? CloudConnection.eventsPerRead
        }
        var (from, asked) = (start, limit(after: start))
        var rows = last.map { start < $0 } ?? true ? try await cloud.events(roundID: roundID, after: start, limit: asked) : []
        while true {
            for (offset, row) in rows.enumerated() where row.cloudSeq != from + 1 + Int64(offset) {
                throw CloudError.unusable("The cloud's round on \(await course(of: roundID, hub)) skips from number \(from + Int64(offset)) to \(row.cloudSeq); this phone does not follow it past \(from + Int64(offset)).")
            }
            if let last, rows.isEmpty && from < last {
                throw CloudError.unusable("The cloud says the round on \(await course(of: roundID, hub)) holds \(last) scores but gives none after \(from); this phone does not follow it.")
            }
            if rows.isEmpty && status != .completed { break }
            let end = rows.last?.cloudSeq ?? from
            let more = last.map { end < $0 } ?? (rows.count == asked)
            // The next batch is read while this one is applied (the cloud and this phone's disk
            // work at once: a catch-up's reads took a third of its time), when it starts right
            // after this one; a batch that reached a number held here is followed by a read past
            // those numbers, which its apply gives.
            let ahead = more && (held.map { end + 1 < $0 } ?? true)
            let aheadLimit = limit(after: end)
            async let following: [CloudRow] = ahead ? cloud.events(roundID: roundID, after: end, limit: aheadLimit) : []
            // As for uploads: said by a download that reads more than once.
            if more { onState(.syncing) }
            let batch = rows
            let applied = try await blocking { try hub.applyFromCloud(roundID: roundID, rows: batch, status: status) }
            result.added += applied.added
            result.read += batch.count
            if applied.changed { (result.changed, result.snapshot) = (true, applied.snapshot) }
            result.cursor = max(result.cursor, applied.held.end)
            held = applied.held.next
            if ahead {
                (from, asked) = (end, aheadLimit)
                rows = try await following
                continue
            }
            guard more, last.map({ result.cursor < $0 }) ?? true else { break }
            (from, asked) = (result.cursor, limit(after: result.cursor))
            rows = try await cloud.events(roundID: roundID, after: from, limit: asked)
        }
        return result
    }

    /// A shared round's course, to name it in a message.
    private static func course(of roundID: UUID, _ hub: Hub) async -> String {
        (try? await blocking { try hub.sharedRound(roundID)?.courseName }) ?? roundID.uuidString
    }

    private func set(_ state: SyncState, detail: String? = nil, lastSyncAt: Date? = nil, offers: [RoundOffer]? = nil) {
        let snapshot = status.withLockedValue { status -> SyncStatus? in
            let before = status
            if status.state != state || status.detail != detail { status.since = Date() }
            status.state = state
            status.detail = detail
            if let lastSyncAt { status.lastSyncAt = lastSyncAt }
            if let offers { status.offers = offers }
            return status == before ? nil : status
        }
        guard let snapshot else { return }
        if let statusFile { snapshot.write(to: statusFile) }
        onStatusChange(snapshot)
    }
}
