@testable import HubCloud
import Testing

/// docs/SYNC.md, "Notifications are hints": forged hints cause at most about ten cheap reads a
/// second, and an honest hint after one fruitless pass is not delayed. Simulated time, no server.
@Suite("When a notification wakes a pass")
struct HintGateTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test("A flood of hints, one a millisecond for 2 s, each pass finding nothing in 3 ms: at most about ten passes a second")
    func flood() {
        var gate = HintGate(quiet: .milliseconds(100), now: at(0))
        var passes = 0
        var running: ContinuousClock.Instant?  // the pass under way ends then
        var wakeWaiting = false  // the wake stream holds one wake at most
        var scheduled: ContinuousClock.Instant?
        for ms in 0..<2000 {
            let now = at(ms)
            if let end = running, now >= end {
                gate.passEnded(foundSomething: false, at: end)
                running = nil
            }
            if let wakeAt = scheduled, now >= wakeAt {
                scheduled = gate.scheduledWake(at: now)
                if scheduled == nil { wakeWaiting = true }
            }
            switch gate.hint(at: now) {
            case .wake: wakeWaiting = true
            case .joined: break
            case .wakeAt(let instant): scheduled = instant
            }
            if running == nil, wakeWaiting {
                wakeWaiting = false
                passes += 1
                running = now + .milliseconds(3)
            }
        }
        #expect(passes <= 2 + 20, "\(passes) passes in 2 s")
        #expect(passes >= 15, "hints are still answered, at about ten a second: \(passes)")
    }

    @Test("An honest hint after one fruitless pass (a poll) wakes at once; a fruitless pass while a wake waits moves it later")
    func honestHint() {
        var gate = HintGate(quiet: .milliseconds(100), now: at(0))
        gate.passEnded(foundSomething: false, at: at(10))
        #expect(gate.hint(at: at(11)) == .wake)
        gate.passEnded(foundSomething: false, at: at(20))
        #expect(gate.hint(at: at(21)) == .wakeAt(at(120)))
        #expect(gate.hint(at: at(22)) == .joined)
        gate.passEnded(foundSomething: false, at: at(50))  // the poll's pass, meanwhile
        #expect(gate.scheduledWake(at: at(120)) == at(150))
        #expect(gate.scheduledWake(at: at(150)) == nil)
        gate.passEnded(foundSomething: true, at: at(160))
        #expect(gate.hint(at: at(161)) == .wake, "a pass that found something opens the gate again")
    }
}
