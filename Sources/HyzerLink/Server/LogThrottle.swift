import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Keeps repeated log lines from flooding the log: each distinct message (its first 40
/// characters) is written at most `burst` times a `window`; the rest are counted, and the count
/// is written with the next line that gets through.
package final class LogThrottle: Sendable {
    private struct Entry {
        var windowStart: NIODeadline
        var written = 0
        var suppressed = 0
    }

    private let burst: Int
    private let window: TimeAmount
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    package init(burst: Int = 10, window: TimeAmount = .seconds(10)) {
        self.burst = burst
        self.window = window
    }

    /// `kind`: what makes two lines alike (a refusal's reason); by default the message's first 40
    /// characters, which a peer varying its input (a protocol version, say) could make distinct.
    package func log(_ logger: Logger, _ level: Logger.Level, _ message: String, kind: String? = nil, metadata: Logger.Metadata? = nil) {
        guard logger.logLevel <= level else { return }
        let key = kind ?? String(message.prefix(40))
        let (allowed, suppressed) = entries.withLockedValue { entries -> (Bool, Int) in
            let now = NIODeadline.now()
            // Bounded whatever peers send: past 256 kinds, the ones whose window has ended go.
            if entries.count > 256 { entries = entries.filter { now - $0.value.windowStart <= window } }
            var entry = entries[key] ?? Entry(windowStart: now)
            if now - entry.windowStart > window {
                entry.windowStart = now
                entry.written = 0
            }
            defer { entries[key] = entry }
            guard entry.written < burst else {
                entry.suppressed += 1
                return (false, 0)
            }
            entry.written += 1
            defer { entry.suppressed = 0 }
            return (true, entry.suppressed)
        }
        guard allowed else { return }
        let text = suppressed > 0 ? "\(message) (and \(suppressed) more like it, not logged)" : message
        logger.log(level: level, "\(text)", metadata: metadata)
    }
}
