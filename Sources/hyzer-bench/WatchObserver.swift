#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerKit
import HyzerLink
import NIOConcurrencyHelpers
import WatchCore

/// A watch session in the bench's process, paired with a real `hyzer-hub serve`, that tells when
/// it shows standings at or past a change sequence.
final class WatchObserver: Sendable {
    let session: WatchSession
    private let seen = DispatchSemaphore(value: 0)
    private let target = NIOLockedValueBox(0)
    /// When the watch last saw its outbox empty again after `expectNextChange` (the hub's ack).
    private let ackedAt = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// A watch on its own home `paths`; `hub` is the hub's home when it is another one (the watch
    /// then pairs with that hub's socket and token).
    init(paths: HyzerPaths, deviceID: String, hub: HyzerPaths? = nil) throws {
        let box = NIOLockedValueBox<WatchSession?>(nil)
        let target = self.target, seen = self.seen, ackedAt = self.ackedAt
        let configuration = WatchConfiguration(paths: paths, address: hub.map { .unix(path: $0.linkSocket.path) },
                                               tokenFile: hub?.pairingToken, deviceID: deviceID)
        session = try WatchSession(configuration: configuration) {
            if box.withLockedValue({ $0 })?.current.pendingTransfers == 0 {
                ackedAt.withLockedValue { if $0 == nil { $0 = .now } }
            }
            guard let sequence = box.withLockedValue({ $0 })?.current.snapshot?.sequence else { return }
            let reached = target.withLockedValue { wanted in
                guard wanted > 0, sequence >= wanted else { return false }
                wanted = 0
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
        target.withLockedValue { $0 = (session.current.snapshot?.sequence ?? 0) + 1 }
    }

    /// When the outbox was last seen empty since `expectNextChange`: a Save's ack arrived.
    var lastAck: ContinuousClock.Instant? { ackedAt.withLockedValue { $0 } }

    func wait(timeout seconds: Double, _ what: String) throws {
        if seen.wait(timeout: .now() + seconds) == .timedOut { throw BenchError("\(what) within \(seconds) s") }
    }

    func stop() { awaitOnPool { await self.session.stop() } }
}
