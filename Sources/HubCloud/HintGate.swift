/// When a notification may wake a pass (docs/SYNC.md, "Notifications are hints"). Any role may
/// send any hint, so after two passes in a row that found nothing, hints wait until
/// `quiet` after the last pass: one wake, scheduled then, answers every hint that came meanwhile.
/// One fruitless pass (a poll, a hint that raced a pass) costs an honest hint nothing.
struct HintGate {
    typealias Instant = ContinuousClock.Instant

    let quiet: Duration
    private(set) var quietUntil: Instant
    /// A wake is scheduled for when the quiet time is over.
    private(set) var deferred = false
    private var fruitless = 0

    init(quiet: Duration, now: Instant) {
        self.quiet = quiet
        quietUntil = now
    }

    enum Action: Equatable {
        /// Wake a pass now.
        case wake
        /// A wake is already scheduled: this hint is answered by it.
        case joined
        /// Schedule a wake at this instant (then ask `scheduledWake` again).
        case wakeAt(Instant)
    }

    mutating func hint(at now: Instant) -> Action {
        if deferred { return .joined }
        if now >= quietUntil {
            wokeQuietly(at: now)
            return .wake
        }
        deferred = true
        return .wakeAt(quietUntil)
    }

    /// The scheduled wake's time has come: nil to wake now, or the later instant the quiet time was
    /// moved to meanwhile (a fruitless poll), to wait for instead.
    mutating func scheduledWake(at now: Instant) -> Instant? {
        guard now >= quietUntil else { return quietUntil }
        deferred = false
        wokeQuietly(at: now)
        return nil
    }

    /// While passes find nothing, the hints that come during the pass a wake starts wait too (else
    /// each quiet wake would bring a second pass straight after it).
    private mutating func wokeQuietly(at now: Instant) {
        if fruitless >= 2 { quietUntil = now + quiet }
    }

    mutating func passEnded(foundSomething: Bool, at now: Instant) {
        fruitless = foundSomething ? 0 : fruitless + 1
        // A pass that found something opens the gate: the hints were honest.
        quietUntil = fruitless >= 2 ? now + quiet : min(quietUntil, now)
    }
}
