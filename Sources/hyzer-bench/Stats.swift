import Foundation

/// Samples of one measurement, in seconds.
struct Samples {
    var values: [Double] = []

    mutating func add(_ seconds: Double) { values.append(seconds) }

    var isEmpty: Bool { values.isEmpty }
    mutating func add(_ duration: Duration) { values.append(duration.seconds) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var count: Int { values.count }
    /// The mean: for a rate sustained over the whole run (its rare slow runs, such as a WAL
    /// checkpoint, included), as a throughput figure is measured.
    var mean: Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }
}

extension Duration {
    /// This duration in seconds, as the figures report it.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Runs `body` `count` times and times each run; `pause` sleeps before each run, untimed.
func measure(_ count: Int, warmup: Int = 3, pause: TimeInterval = 0, _ body: () throws -> Void) rethrows -> Samples {
    try measure(count, warmup: warmup, pause: pause, body, between: {})
}

/// The same, running `between` (untimed) after each run: what puts things back for the next one.
func measure(_ count: Int, warmup: Int = 3, pause: TimeInterval = 0, _ body: () throws -> Void,
             between: () throws -> Void) rethrows -> Samples {
    for _ in 0..<warmup {
        try body()
        try between()
    }
    var samples = Samples()
    for _ in 0..<count {
        if pause > 0 { usleep(UInt32(pause * 1e6)) }
        let start = ContinuousClock.now
        try body()
        samples.add(start.duration(to: .now))
        try between()
    }
    return samples
}

/// "123 µs", "4.5 ms", "1.20 s".
func formatDuration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "n/a" }
    if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
    if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
}
