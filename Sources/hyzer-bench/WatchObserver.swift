#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerKit
import NIOConcurrencyHelpers
import WatchCore

/// A watch session in the bench's process, paired with a real `hyzer-hub serve`, that tells when
/// it shows standings at or past a change sequence.
final class WatchObserver: Sendable {
    let session: WatchSession
    private let seen = DispatchSemaphore(value: 0)
    private let target = NIOLockedValueBox(0)

    init(paths: HyzerPaths, deviceID: String) throws {
        let box = NIOLockedValueBox<WatchSession?>(nil)
        let target = self.target, seen = self.seen
        session = try WatchSession(configuration: WatchConfiguration(paths: paths, deviceID: deviceID)) {
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
    func expectNextChange() { target.withLockedValue { $0 = (session.current.snapshot?.sequence ?? 0) + 1 } }

    func wait(timeout seconds: Double, _ what: String) throws {
        if seen.wait(timeout: .now() + seconds) == .timedOut { throw BenchError("\(what) within \(seconds) s") }
    }

    func stop() { awaitOnPool { await self.session.stop() } }
}
