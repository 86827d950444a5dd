import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers

/// The phone's face as a browser follows it: connected to `serve`'s `/live` WebSocket, it notes
/// when each state arrives (before reading it) and the standings' sequence it carries.
final class PageObserver: Sendable {
    private let arrivals = NIOLockedValueBox<[(sequence: Int, at: ContinuousClock.Instant)]>([])
    private let task: Task<Void, Never>

    private struct Live: Decodable {
        struct Body: Decodable { let sequence: Int }
        let body: Body
    }

    init(url: String) {
        let live = url.replacingOccurrences(of: "http://", with: "ws://") + "live"
        let arrivals = self.arrivals
        task = Task {
            _ = try? await WebSocketClient.connect(url: live, configuration: .init(maxFrameSize: 1 << 22), logger: Logger(label: "bench.page")) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    let at = ContinuousClock.now
                    guard case .text(let text) = message, let state = try? JSONDecoder().decode(Live.self, from: Data(text.utf8)) else { continue }
                    arrivals.withLockedValue { $0.append((state.body.sequence, at)) }
                }
            }
        }
    }

    /// When the page first showed standings at `sequence` or later, waiting up to `timeout`.
    func shown(atLeast sequence: Int, timeout: Duration) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let arrival = arrivals.withLockedValue({ $0.first { $0.sequence >= sequence } }) { return arrival.at }
            usleep(200)
        }
        return nil
    }

    var connected: Bool { !arrivals.withLockedValue { $0.isEmpty } }

    func stop() { task.cancel() }
}
