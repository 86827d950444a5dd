/// Polls `condition` until it holds or `timeout` passes, and says whether it held.
///
/// The one way tests wait for something another process or thread does: never a fixed sleep, and
/// never a blocked thread (it suspends between polls, so the cooperative pool stays free for the
/// tasks that make the condition come true). The condition is checked once more at the deadline.
@discardableResult
public func eventually(
    timeout: Duration = .seconds(30),
    pollingEvery interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if try await condition() { return true }
        if clock.now >= deadline { return false }
        do {
            try await clock.sleep(for: min(interval, deadline - clock.now))
        } catch {
            return try await condition()  // cancelled: one last look
        }
    }
}
