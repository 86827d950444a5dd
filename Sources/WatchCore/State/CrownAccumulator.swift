/// Turns wheel motion into crown detents. Precise (fractional) wheel deltas add up; each time the
/// running total crosses a whole number, one detent is emitted.
public struct CrownAccumulator: Sendable, Hashable {
    public private(set) var remainder: Double = 0

    public init() {}

    /// Whole detents in this delta (negative turns down), keeping the fraction for next time.
    public mutating func detents(for delta: Double) -> Int {
        remainder += delta
        let whole = remainder.rounded(.towardZero)
        remainder -= whole
        // Floating error must not lose a detent: 0.1 × 10 is 0.9999999999999999.
        if abs(remainder) > 0.999_999_999 {
            let extra = remainder.rounded()
            remainder -= extra
            return Int(whole + extra)
        }
        return Int(whole)
    }

    /// Leaving a screen forgets a half-turned detent.
    public mutating func reset() { remainder = 0 }
}
