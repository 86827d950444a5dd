#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerKit
import HyzerLink
import NIOConcurrencyHelpers
import WatchCore

/// A watch session in the bench's process, paired with a real `hyzer-hub serve`, that tells when
/// its state reaches what the bench waits for (new standings shown, a live message dropped).
final class WatchObserver: Sendable {
    let session: WatchSession
    private let seen = DispatchSemaphore(value: 0)
    /// What the bench waits for now, checked at every change of the watch's state.
    private let condition = NIOLockedValueBox<(@Sendable (WatchState) -> Bool)?>(nil)
    /// When the watch last saw its outbox empty again after `expectNextChange` (the hub's ack).
    private let ackedAt = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// A watch on its own home `paths`; `hub` is the hub's home when it is another one (the watch
    /// then pairs with that hub's socket and token).
    init(paths: HyzerPaths, deviceID: String, hub: HyzerPaths? = nil) throws {
        let box = NIOLockedValueBox<WatchSession?>(nil)
        let condition = self.condition, seen = self.seen, ackedAt = self.ackedAt
        let configuration = WatchConfiguration(paths: paths, address: hub.map { .unix(path: $0.linkSocket.path) },
                                               tokenFile: hub?.pairingToken, deviceID: deviceID)
        session = try WatchSession(configuration: configuration) {
            guard let state = box.withLockedValue({ $0 })?.current else { return }
            if state.pendingTransfers == 0 {
                ackedAt.withLockedValue { if $0 == nil { $0 = .now } }
            }
            let reached = condition.withLockedValue { wanted in
                guard let test = wanted, test(state) else { return false }
                wanted = nil
                return true
            }
            if reached { seen.signal() }
        }
        box.withLockedValue { $0 = session }
        session.start()
    }

    /// Waits (at most 15 s) until the watch is paired and shows a round.
    func waitUntilPaired() throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while !(session.current.reachable && session.current.snapshot?.round != nil) {
            if ContinuousClock.now > deadline { throw BenchError("timed out waiting for the watch to pair") }
            usleep(1_000)
        }
    }

    /// From now on, `wait` returns once the watch shows the next change.
    func expectNextChange() {
        ackedAt.withLockedValue { $0 = nil }
        let target = (session.current.snapshot?.sequence ?? 0) + 1
        expect { ($0.snapshot?.sequence ?? 0) >= target }
    }

    /// From now on, `wait` returns once the watch's app, in the background, has dropped the next
    /// live message (the standings wait as the application context).
    func expectNextDrop() {
        let target = session.current.droppedLiveMessages + 1
        expect { $0.droppedLiveMessages >= target }
    }

    /// From now on, `wait` returns once the watch's state passes `test`.
    func expect(_ test: @escaping @Sendable (WatchState) -> Bool) {
        condition.withLockedValue { $0 = test }
    }

    /// When the outbox was last seen empty since `expectNextChange`: a Save's ack arrived.
    var lastAck: ContinuousClock.Instant? { ackedAt.withLockedValue { $0 } }

    func wait(timeout seconds: Double, _ what: String) throws {
        if seen.wait(timeout: .now() + seconds) == .timedOut { throw BenchError("\(what) within \(seconds) s") }
    }

    func stop() { awaitOnPool { await self.session.stop() } }
}
