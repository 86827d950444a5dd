import Foundation
import HubCore
import HyzerKit
import Logging
import NIOConcurrencyHelpers
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

    public static func read(from url: URL) -> SyncStatus? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? HyzerJSON.decoder().decode(SyncStatus.self, from: data)
    }

    func write(to url: URL) {
        guard let data = try? HyzerJSON.encoder().encode(self) else { return }
        // A status, not a record: replaced atomically, not fsynced.
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(pid).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}

/// Keeps one phone in step with the cloud (docs/SYNC.md): uploads what waits (oldest first, each
/// event acknowledged only after the cloud's commit), downloads every shared round past its cursor,
/// joins rounds that name the phone's owner, and does it again on every NOTIFY, every local change
/// (`kick`), and every `pollInterval` in case a notification was lost. Offline, it retries with
/// backoff; nothing here ever blocks a score.
public final class CloudSync: Service, Sendable {
    public let hub: Hub
    let statusFile: URL?
    let logger: Logger
    let pollInterval: Duration
    /// Called after a pass changed the local store (new events, a joined or completed round).
    let onChange: @Sendable () -> Void
    private let status: NIOLockedValueBox<SyncStatus>
    private let wake = NIOLockedValueBox<AsyncStream<Void>.Continuation?>(nil)

    /// Follows the hub's cloud configuration: `cloud set` to another URL reconnects there,
    /// `cloud unset` stops syncing until a cloud is set again.
    public init(hub: Hub, statusFile: URL?, logger: Logger,
                pollInterval: Duration = .seconds(15), onChange: @escaping @Sendable () -> Void = {}) {
        self.hub = hub
        self.statusFile = statusFile
        self.logger = logger
        self.pollInterval = pollInterval
        self.onChange = onChange
        status = NIOLockedValueBox(SyncStatus(state: .offline, detail: "connecting", since: Date(), lastSyncAt: nil, pid: getpid()))
    }

    public var currentStatus: SyncStatus { status.withLockedValue { $0 } }

    /// Something changed here (a score committed): upload it now.
    public func kick() {
        _ = wake.withLockedValue { $0 }?.yield()
    }

    public func run() async throws {
        var backoff = Duration.milliseconds(250)
        var announcedUnset = false
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            // The configuration as it is now: set, changed or forgotten since the last connection.
            guard let configuration = try? hub.cloudConfiguration() else {
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
                let cloud = try await CloudConnection.connect(to: address, logger: logger)
                logger.info("cloud connected: \(address.redacted)\(configuration.player.map { " (\($0)'s phone)" } ?? "")")
                backoff = .milliseconds(250)
                do {
                    try await cancelWhenGracefulShutdown {
                        try await cloud.whileConnected { try await self.stayInStep(with: cloud, configuration: configuration) }
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
                logger.warning("cloud \(state.rawValue): \(reason.description) Retrying in \(backoff).")
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

    /// Returns at the next `kick`, or after `limit`.
    private func waitForKick(atMost limit: Duration) async {
        let (kicks, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wake.withLockedValue { $0 = continuation }
        defer {
            wake.withLockedValue { $0 = nil }
            continuation.finish()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in kicks { return } }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// One connection's life: a pass at once, then one per notification, kick or poll.
    private func stayInStep(with cloud: CloudConnection, configuration: CloudConfiguration) async throws {
        let (wakes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wake.withLockedValue { $0 = continuation }
        defer {
            wake.withLockedValue { $0 = nil }
            continuation.finish()
        }
        try await cloud.listen { notifications in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Every phone hears every round's notifications (one channel): a round this
                    // phone does not share wakes it only while it might join one.
                    for try await notification in notifications where self.concerns(notification.payload, player: configuration.player) {
                        continuation.yield()
                    }
                    throw CloudError.unreachable("The cloud closed the connection.")
                }
                group.addTask { [pollInterval] in
                    while true {
                        try await Task.sleep(for: pollInterval)
                        continuation.yield()
                    }
                }
                group.addTask {
                    try await self.pass(cloud, configuration: configuration)
                    for await _ in wakes { try await self.pass(cloud, configuration: configuration) }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Whether a notification about `roundID` is worth a pass here.
    private func concerns(_ roundID: String, player: String?) -> Bool {
        guard let id = UUID(uuidString: roundID) else { return true }
        do {
            if try hub.cloudRoundInfo(id) != nil { return true }
            return try player != nil && hub.roundInPlay() == nil
        } catch {
            return true
        }
    }

    /// Uploads everything waiting, then downloads every shared round past its cursor. A pass
    /// that does not finish within 30 s (a connection gone silent) fails, and the loop reconnects.
    func pass(_ cloud: CloudConnection, configuration: CloudConfiguration) async throws {
        // `cloud set` or `cloud unset` since this connection was made: start over.
        guard try hub.cloudConfiguration() == configuration else { throw CloudError.reconfigured }
        _ = try await cloud.whileConnected(deadline: .seconds(30)) {
            try await CloudSync.syncOnce(hub: self.hub, cloud: cloud, player: configuration.player, logger: self.logger,
                                         onState: { self.set($0) }, onChange: self.onChange)
        }
        set(.idle, lastSyncAt: Date())
    }

    /// One pass, usable without a running service (`hyzer-hub cloud sync`, `round join`).
    /// Returns how many events it uploaded and downloaded.
    @discardableResult
    public static func syncOnce(hub: Hub, cloud: CloudConnection, player: String?, logger: Logger,
                                onState: @Sendable (SyncState) -> Void = { _ in }, onChange: @Sendable () -> Void = {}) async throws -> (uploaded: Int, downloaded: Int) {
        let hubID = try hub.hubID
        var changed = false
        // Discovery: a round of this phone's owner (by id once known, else by name), started in
        // the last 12 hours, when nothing is in play here.
        if let player, try hub.roundInPlay() == nil {
            let recent = Date().addingTimeInterval(-12 * 3600)
            for round in try await cloud.activeRounds(naming: player, playerID: try hub.ownerPlayerID(), createdAfter: recent)
            where try hub.cloudRoundInfo(round.id) == nil {
                do {
                    try hub.join(round)
                    logger.info("joined the shared round on \(round.courseName) (players: \(round.players.map(\.name).joined(separator: ", ")))")
                    changed = true
                    break
                } catch {
                    logger.warning("could not join the shared round \(round.id): \(error)")
                }
            }
        }
        var uploaded = 0
        var work = try hub.cloudWork()
        if !work.isEmpty { onState(.syncing) }
        for round in work.roundsToUpload {
            try await cloud.upload(round)
            try hub.recordRoundUploaded(round.id)
        }
        while !work.eventsToUpload.isEmpty {
            // Round by round, each round's events in this phone's order.
            var byRound: [(UUID, [ScoreEvent])] = []
            for event in work.eventsToUpload {
                if let last = byRound.indices.last, byRound[last].0 == event.roundID { byRound[last].1.append(event) } else { byRound.append((event.roundID, [event])) }
            }
            for (roundID, events) in byRound {
                let result = try await cloud.upload(events, roundID: roundID, hubID: hubID)
                try hub.recordUploaded(result.acknowledged)
                uploaded += result.acknowledged.count
                for (event, reason) in result.refused {
                    logger.error("the cloud refused score \(event.id): \(reason)")
                    try hub.recordRefused(event.id, reason: reason)
                }
            }
            work = try hub.cloudWork()
        }
        for roundID in work.completionsToUpload {
            try await cloud.complete(roundID: roundID)
            try hub.recordCompletionUploaded(roundID)
        }
        var downloaded = 0
        for (roundID, start) in try hub.cloudWork(eventLimit: 0).cursors {
            var cursor = start
            while true {
                let (events, status, lastRow, rowsRead) = try await cloud.events(roundID: roundID, after: cursor)
                let localStatus = try hub.cloudRoundStatus(roundID)
                let through = lastRow ?? cursor
                guard through > cursor || (status == .completed && localStatus?.acceptsScores == true) else { break }
                if !events.isEmpty || status == .completed { onState(.syncing) }
                let added = try hub.applyFromCloud(roundID: roundID, events: events, status: status, through: through)
                downloaded += added
                if added > 0 || status == .completed { changed = true }
                guard rowsRead >= 2000 else { break }
                cursor = through
            }
        }
        if changed || uploaded > 0 { onChange() }
        return (uploaded, downloaded)
    }

    private func set(_ state: SyncState, detail: String? = nil, lastSyncAt: Date? = nil) {
        let snapshot = status.withLockedValue { status -> SyncStatus? in
            let before = status
            if status.state != state || status.detail != detail { status.since = Date() }
            status.state = state
            status.detail = detail
            if let lastSyncAt { status.lastSyncAt = lastSyncAt }
            return status == before ? nil : status
        }
        if let snapshot, let statusFile { snapshot.write(to: statusFile) }
    }
}
