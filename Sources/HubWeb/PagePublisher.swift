import Dispatch
import Foundation
import HubCore
import HyzerKit
import Logging
import NIOConcurrencyHelpers

/// The phone's face's current `PageState`, kept as JSON, and the live pages following it. A change
/// (a snapshot published to the watches, or the page's own write) rebuilds it once on a queue of
/// its own: a burst of changes queues one rebuild, and every page is sent the newest.
public final class PagePublisher: Sendable {
    let hub: Hub
    private let snapshot: @Sendable () throws -> StandingsSnapshot
    private let appState: @Sendable () -> String?
    private let syncState = NIOLockedValueBox<@Sendable () -> PageSync?>({ nil })
    private let logger = Logger(label: "hyzer.hub.web")
    private let queue = DispatchQueue(label: "hyzer.hub.web.state")

    private struct Shared {
        var latest: (sequence: Int, json: String)?
        var pages: [Int: AsyncStream<String>.Continuation] = [:]
        var nextPage = 0
        var rebuildQueued = false
    }
    private let shared = NIOLockedValueBox(Shared())

    /// - snapshot: the standings as the watches are sent them.
    public init(hub: Hub, snapshot: @escaping @Sendable () throws -> StandingsSnapshot, appState: @escaping @Sendable () -> String?) {
        self.hub = hub
        self.snapshot = snapshot
        self.appState = appState
    }

    /// Where the cloud's sync state is read (nil when no cloud is set); the sync engine is made
    /// after the page, as it tells the page of its changes.
    public func showSync(_ read: @escaping @Sendable () -> PageSync?) {
        syncState.withLockedValue { $0 = read }
    }

    /// Something changed: rebuild the state and send it to every live page (coalesced). With no
    /// page open nothing is built: the next request builds it.
    public func changed() {
        let queued = shared.withLockedValue { shared in
            guard !shared.pages.isEmpty else {
                shared.latest = nil
                return true
            }
            defer { shared.rebuildQueued = true }
            return shared.rebuildQueued
        }
        guard !queued else { return }
        queue.async { [self] in
            shared.withLockedValue { $0.rebuildQueued = false }
            do {
                let state = try build()
                let pages = shared.withLockedValue { shared -> [AsyncStream<String>.Continuation] in
                    shared.latest = state
                    return Array(shared.pages.values)
                }
                for page in pages { page.yield(state.json) }
            } catch {
                logger.error("could not build the phone's page: \(error)")
            }
        }
    }

    /// The current state (built now if none was yet).
    func current() throws -> (sequence: Int, json: String) {
        if let latest = shared.withLockedValue({ $0.latest }) { return latest }
        let state = try queue.sync { try build() }
        shared.withLockedValue { if $0.latest == nil { $0.latest = state } }
        return state
    }

    /// A live page: every state from now on (the newest only, when it falls behind).
    func follow() -> (id: Int, states: AsyncStream<String>) {
        let (states, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = shared.withLockedValue { shared in
            shared.nextPage += 1
            shared.pages[shared.nextPage] = continuation
            return shared.nextPage
        }
        return (id, states)
    }

    func unfollow(_ id: Int) {
        shared.withLockedValue { $0.pages.removeValue(forKey: id) }?.finish()
    }

    /// The standings the pages were last sent, for what changed since.
    private let lastRound = NIOLockedValueBox<RoundSnapshot?>(nil)

    /// The history as last read, and what it held (`Hub.historyKey`): read again only when that
    /// changes, not on every score.
    private let history = NIOLockedValueBox<(key: [String], entries: [FinishedRound])?>(nil)

    private func build() throws -> (sequence: Int, json: String) {
        let key = try hub.historyKey()
        let entries: [FinishedRound]
        if let kept = history.withLockedValue({ $0 }), kept.key == key {
            entries = kept.entries
        } else {
            entries = try hub.history()
            history.withLockedValue { $0 = (key, entries) }
        }
        var state = try PageState.read(from: hub, snapshot: try snapshot(), history: entries, app: appState(), sync: syncState.withLockedValue { $0 }())
        // Said as the watch says it: what changed since the standings the pages were last sent.
        let now = state.snapshot.round
        state.announcement = lastRound.withLockedValue { last -> String? in
            defer { last = now }
            guard let before = last, let now, before.id == now.id else { return nil }
            return Announcements.standingsChange(from: before, to: now)
        }
        let body = String(decoding: try HyzerJSON.encoder().encode(LiveMessage(body: state)), as: UTF8.self)
        return (state.sequence, body)
    }
}

/// What `/live` sends: `{"type": "state", "body": PageState}`.
struct LiveMessage: Encodable {
    let type = "state"
    let body: PageState
}
