/// Whether the other end is still heard, counted in this end's own heartbeats rather than in
/// wall time: after `LinkProtocol.missedHeartbeatsBeforeUnreachable` of its heartbeats in a row
/// with nothing heard between them, the other end is unreachable. The heartbeats run on the
/// connection's event loop, which reads its sockets between one beat and the next (unless tasks
/// alone keep it busy for a whole interval); so an end whose own thread was held up (a loop busy
/// writing standings to thirty watches, a loaded machine) counts that wait as one beat at most,
/// where a clock checked first after the wait blamed the other end for all of it.
struct Hearing {
    private var heardSinceBeat = true
    private var unheardBeats: Int64 = 0

    /// Something came from the other end (or counts as if it had).
    mutating func heard() { heardSinceBeat = true }

    /// At each of this end's heartbeats: whether the other end is now unreachable. `alsoHeard`:
    /// something else since the last beat counts as hearing from it.
    mutating func beat(alsoHeard: Bool = false) -> Bool {
        unheardBeats = heardSinceBeat || alsoHeard ? 0 : unheardBeats + 1
        heardSinceBeat = false
        return unheardBeats >= LinkProtocol.missedHeartbeatsBeforeUnreachable
    }
}
